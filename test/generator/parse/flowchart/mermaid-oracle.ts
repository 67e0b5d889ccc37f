/**
 * Mermaid itself, as the oracle of the differential tests: does `mermaid.parse` accept a flowchart, and what graph
 * did it read (vertices with Mermaid's shape type, text and label type; edges with their id, type, stroke and
 * text; subgraphs)? The graph is the database `mermaid.parse` itself filled: Mermaid's flowchart parser keeps the
 * database of its last parse (`parser.yy`), reached through a diagram made once. Texts are given as the reader
 * sees them: Mermaid keeps entity codes as placeholders until it draws, then the browser decodes the HTML
 * character references they become; jsdom's HTML parser does that decoding here. Mermaid needs a DOM, so a jsdom
 * window is installed first; loading takes about a second, so a test file loads it once.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { JSDOM } from 'jsdom';

export interface MermaidVertex {
  readonly id: string;
  readonly type: string | undefined;
  readonly text: string;
  readonly labelType: string;
}

export interface MermaidEdge {
  readonly start: string;
  readonly end: string;
  /** The author's edge id, when the edge has it. */
  readonly id: string | undefined;
  readonly type: string;
  readonly stroke: string;
  readonly text: string;
  readonly labelType: string;
}

export interface MermaidSubgraph {
  readonly id: string;
  readonly title: string;
}

export type MermaidReading =
  | {
      readonly ok: true;
      readonly vertices: readonly MermaidVertex[];
      readonly edges: readonly MermaidEdge[];
      readonly subgraphs: readonly MermaidSubgraph[];
    }
  | { readonly ok: false; readonly error: string };

interface FlowDb {
  getVertices(): Map<string, { id: string; type?: string; text: unknown; labelType: string }>;
  getEdges(): {
    start: string;
    end: string;
    id: string;
    isUserDefinedId: boolean;
    type: string;
    stroke: string;
    text: string;
    labelType: string;
  }[];
  getSubGraphs(): MermaidSubgraph[];
}

/** Loads Mermaid (once) and returns a function that reads a flowchart with it. */
export async function loadMermaid(): Promise<(text: string) => Promise<MermaidReading>> {
  const dom = new JSDOM('<!doctype html><html><body></body></html>');
  Object.assign(globalThis, { window: dom.window, document: dom.window.document });
  const { default: mermaid } = await import('mermaid');
  mermaid.initialize({ startOnLoad: false });
  const probe = await mermaid.mermaidAPI.getDiagramFromText('flowchart TD\nA');
  const flowParser = probe.parser as unknown as { parser: { yy: FlowDb } };
  const decoder = dom.window.document.createElement('span');
  /** Mermaid's placeholders as the browser shows them: `ﬂ°quot¶ß` → `&quot;` → `"`. */
  const shown = (text: unknown): string =>
    String(text).replace(/\uFB02\u00B0(\u00B0?)(\w+)\u00B6\u00DF/g, (_, numeric: string, name: string) => {
      decoder.innerHTML = `&${numeric ? '#' : ''}${name};`;
      return decoder.textContent ?? '';
    });
  return async (text) => {
    try {
      const { diagramType } = await mermaid.parse(text);
      if (!diagramType.startsWith('flowchart')) return { ok: false, error: `a ${diagramType} diagram, not a flowchart` };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
    const db = flowParser.parser.yy;
    return {
      ok: true,
      vertices: [...db.getVertices().values()].map((v) => ({ id: v.id, type: v.type, text: shown(v.text), labelType: v.labelType })),
      edges: db.getEdges().map((e) => ({
        start: e.start,
        end: e.end,
        id: e.isUserDefinedId ? e.id : undefined,
        type: e.type,
        stroke: e.stroke,
        text: shown(e.text),
        labelType: e.labelType,
      })),
      subgraphs: db.getSubGraphs().map((s) => ({ id: s.id, title: shown(s.title) })),
    };
  };
}

/**
 * Mermaid's table of node shapes (11.17.2, `rendering-elements/shapes.ts`): every shape name, with the function
 * that draws it (`@{ shape: … }` accepts the names without upper case or `_`; the others are internal). Mermaid
 * does not export the table, so it is imported from the bundle chunk that defines it (call after `loadMermaid`).
 */
export async function loadMermaidShapes(): Promise<ReadonlyMap<string, unknown>> {
  const folder = new URL('../../../../node_modules/mermaid/dist/chunks/mermaid.core/', import.meta.url);
  const chunk = readdirSync(folder).find(
    (f) => f.endsWith('.mjs') && readFileSync(new URL(f, folder), 'utf8').includes('var shapesDefs = ['),
  );
  if (!chunk) throw new Error("Mermaid's shape table was not found in its bundle");
  const { shapes } = (await import(new URL(chunk, folder).href)) as { shapes: Record<string, unknown> };
  return new Map(Object.entries(shapes));
}
