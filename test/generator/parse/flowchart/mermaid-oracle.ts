/**
 * Mermaid itself, as the oracle of the differential tests: does it accept a flowchart, and what graph does it
 * read (vertices with Mermaid's shape type and text, edges with type, stroke and text, subgraphs)? Mermaid needs a
 * DOM, so a jsdom window is installed first; loading takes about a second, so a test file loads it once.
 */
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
  getVertices(): Map<string, MermaidVertex>;
  getEdges(): MermaidEdge[];
  getSubGraphs(): MermaidSubgraph[];
}

/** Loads Mermaid (once) and returns a function that reads a flowchart with it. */
export async function loadMermaid(): Promise<(text: string) => Promise<MermaidReading>> {
  const dom = new JSDOM('<!doctype html><html><body></body></html>');
  Object.assign(globalThis, { window: dom.window, document: dom.window.document });
  const { default: mermaid } = await import('mermaid');
  mermaid.initialize({ startOnLoad: false });
  return async (text) => {
    try {
      const { diagramType } = await mermaid.parse(text);
      if (!diagramType.startsWith('flowchart')) return { ok: false, error: `a ${diagramType} diagram, not a flowchart` };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
    const diagram = await mermaid.mermaidAPI.getDiagramFromText(stripPreamble(text));
    const db = diagram.db as unknown as FlowDb;
    return {
      ok: true,
      vertices: [...db.getVertices().values()].map((v) => ({ id: v.id, type: v.type, text: v.text, labelType: v.labelType })),
      edges: db
        .getEdges()
        .map((e) => ({ start: e.start, end: e.end, type: e.type, stroke: e.stroke, text: e.text, labelType: e.labelType })),
      subgraphs: db.getSubGraphs().map((s) => ({ id: s.id, title: s.title })),
    };
  };
}

/**
 * `mermaid.parse` preprocesses the text twice (front matter, directives and comment lines are removed, then the
 * rest is trimmed, then the same again), which is why front matter may follow blank or comment lines.
 * `getDiagramFromText` does it once; doing the first pass here makes it read what `parse` accepted.
 */
function stripPreamble(text: string): string {
  let rest = text.replace(/\r\n?/g, '\n');
  const lines = rest.split('\n');
  if (/^\s*---\s*$/.test(lines[0] ?? '')) {
    const close = lines.findIndex((l, i) => i > 0 && /^\s*---\s*$/.test(l));
    if (close > 0) rest = lines.slice(close + 1).join('\n');
  }
  rest = rest.replace(/%%\{[\s\S]*?(\}%%|$)/g, '');
  return rest
    .split('\n')
    .filter((l) => !/^\s*%%[^\n]/.test(l))
    .join('\n')
    .trimStart();
}
