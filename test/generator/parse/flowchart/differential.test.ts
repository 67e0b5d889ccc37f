/**
 * Differential tests against Mermaid 11 itself: for every corpus file, Mermaid accepts it if and only if we report
 * no SOP012, and when it does, we read the same graph (node ids in order, shapes, labels; edges with ends, labels,
 * strokes and arrowheads; subgraph ids and titles). Deliberate differences are checked as such:
 * - SOP013 (a `%%` comment after a statement): Mermaid rejects the file, and accepts it once the comments we
 *   reported are removed, reading the graph we read;
 * - SOP014 (Mermaid syntax we do not support yet): Mermaid accepts the file and we report no SOP012;
 * - the files in `DIVERGENCES`, each with its reason.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FlowchartAst, FlowchartParseResult } from '../../../../generator/parse/flowchart/ast.js';
import { parseFlowchart } from '../../../../generator/parse/flowchart/parse-flowchart.js';
import { loadMermaid, type MermaidReading } from './mermaid-oracle.js';

const CORPUS = new URL('./corpus/', import.meta.url);
const FILES = readdirSync(CORPUS)
  .filter((f) => f.endsWith('.mmd'))
  .sort();

/** Corpus files where we differ from Mermaid on purpose, and why. */
const DIVERGENCES: Readonly<Record<string, string>> = {
  'diverge-bare-comment-line.mmd': 'Mermaid keeps a bare `%%` line and draws a node called "%%"; we read an empty comment.',
  'diverge-mismatched-arrowheads.mmd': 'Mermaid keeps `<-- text --x` as an INVALID edge; we report SOP012.',
};

const SHAPES: Readonly<Record<string, string>> = {
  square: 'rectangle',
  round: 'round',
  stadium: 'stadium',
  subroutine: 'subroutine',
  cylinder: 'cylinder',
  circle: 'circle',
  doublecircle: 'double-circle',
  odd: 'asymmetric',
  diamond: 'rhombus',
  hexagon: 'hexagon',
  lean_right: 'parallelogram',
  lean_left: 'parallelogram-alt',
  trapezoid: 'trapezoid',
  inv_trapezoid: 'trapezoid-alt',
};

interface Graph {
  readonly vertices: readonly { id: string; shape: string | undefined; label: string }[];
  readonly edges: readonly { from: string; to: string; label: string | null; stroke: string; arrowStart: string; arrowEnd: string }[];
  readonly subgraphs: readonly { id: string; title: string }[];
}

let readWithMermaid: (text: string) => Promise<MermaidReading>;

beforeAll(async () => {
  readWithMermaid = await loadMermaid();
});

describe('the flowchart parser agrees with Mermaid 11', () => {
  it('has a corpus of 60+ files', () => {
    expect(FILES.length).toBeGreaterThanOrEqual(60);
  });

  for (const file of FILES) {
    it(file, async () => {
      const text = readFileSync(new URL(file, CORPUS), 'utf8');
      const ours = parseFlowchart(text);
      const mermaid = await readWithMermaid(text);
      const codes = new Set(ours.problems.map((p) => p.code));
      if (file in DIVERGENCES) return checkDivergence(file, ours, mermaid);
      if (codes.has('SOP014')) {
        expect(codes.has('SOP012'), report(ours)).toBe(false);
        expect(mermaid.ok, 'Mermaid accepts the syntax we report as not supported yet').toBe(true);
        return;
      }
      if (codes.has('SOP013')) {
        expect(mermaid.ok, 'Mermaid rejects same-line comments').toBe(false);
        const stripped = await readWithMermaid(withoutComments(text, ours));
        expect(stripped.ok, 'Mermaid accepts the file without the comments we reported').toBe(true);
        return compare(ours, stripped);
      }
      expect(
        !codes.has('SOP012'),
        mermaid.ok ? `Mermaid accepts it; we report: ${report(ours)}` : `Mermaid rejects it: ${mermaid.error}`,
      ).toBe(mermaid.ok);
      compare(ours, mermaid);
    });
  }
});

function checkDivergence(file: string, ours: FlowchartParseResult, mermaid: MermaidReading): void {
  expect(mermaid.ok).toBe(true);
  if (file === 'diverge-mismatched-arrowheads.mmd') {
    expect(ours.problems.map((p) => p.code)).toEqual(['SOP012']);
    return;
  }
  expect(ours.problems).toEqual([]);
  if (!mermaid.ok || !ours.ast) return;
  const theirs = fromMermaid(mermaid);
  expect(fromAst(ours.ast)).toEqual({ ...theirs, vertices: theirs.vertices.filter((v) => v.id !== '%%') });
}

function compare(ours: FlowchartParseResult, mermaid: MermaidReading): void {
  if (!mermaid.ok || !ours.ast) return;
  expect(fromAst(ours.ast, mermaid)).toEqual(fromMermaid(mermaid));
}

/** Our AST as Mermaid's database would hold it: the last declaration of a node sets its shape and label. */
function fromAst(ast: FlowchartAst, mermaid?: MermaidReading): Graph {
  const vertices = new Map<string, { id: string; shape: string | undefined; label: string }>();
  for (const n of ast.nodes) {
    const seen = vertices.get(n.id);
    if (n.shape === undefined) {
      if (!seen) vertices.set(n.id, { id: n.id, shape: undefined, label: n.id });
      continue;
    }
    vertices.set(n.id, { id: n.id, shape: n.shape, label: comparable(n.label ?? n.id, isMarkdown(mermaid, n.id)) });
  }
  return {
    vertices: [...vertices.values()],
    edges: ast.edges.map((e, i) => ({
      from: e.from,
      to: e.to,
      label: e.label === null ? null : comparable(e.label, mermaid?.ok === true && mermaid.edges[i]?.labelType === 'markdown'),
      stroke: e.stroke,
      arrowStart: e.arrowStart,
      arrowEnd: e.arrowEnd,
    })),
    subgraphs: ast.subgraphs.map((s) => ({ id: s.id, title: s.title ?? s.id })).sort((a, b) => a.id.localeCompare(b.id)),
  };
}

function fromMermaid(reading: MermaidReading & { ok: true }): Graph {
  return {
    vertices: reading.vertices.map((v) => ({
      id: v.id,
      shape: v.type === undefined ? undefined : (SHAPES[v.type] ?? `?${v.type}`),
      label: decode(v.text),
    })),
    edges: reading.edges.map((e) => {
      const [arrowStart, arrowEnd] = arrowheads(e.type);
      return { from: e.start, to: e.end, label: e.text === '' ? null : decode(e.text), stroke: e.stroke, arrowStart, arrowEnd };
    }),
    subgraphs: reading.subgraphs.map((s) => ({ id: s.id, title: s.title })).sort((a, b) => a.id.localeCompare(b.id)),
  };
}

function arrowheads(type: string): [string, string] {
  const head = (t: string): string => ({ arrow_point: 'point', arrow_circle: 'circle', arrow_cross: 'cross' })[t] ?? 'none';
  return type.startsWith('double_') ? [head(type.slice(7)), head(type.slice(7))] : ['none', head(type)];
}

function isMarkdown(mermaid: MermaidReading | undefined, id: string): boolean {
  return mermaid?.ok === true && mermaid.vertices.some((v) => v.id === id && v.labelType === 'markdown');
}

/** Our label in Mermaid's terms: `#quot;` entities as `&quot;`, and a markdown string without its backticks. */
function comparable(label: string, markdown: boolean): string {
  const entities = label.replace(/#(\w+);/g, (_, name: string) => (/^\d+$/.test(name) ? `&#${name};` : `&${name};`));
  return markdown ? entities.replaceAll('`', '') : entities;
}

/** Mermaid hides entities from its lexer with placeholders; its database keeps them. */
function decode(text: string): string {
  return text.replaceAll('ﬂ°°', '&#').replaceAll('ﬂ°', '&').replaceAll('¶ß', ';');
}

function withoutComments(text: string, ours: FlowchartParseResult): string {
  const lines = text.split('\n');
  for (const p of [...ours.problems].reverse()) {
    if (p.code !== 'SOP013') continue;
    const line = lines[p.span.start.line - 1] ?? '';
    lines[p.span.start.line - 1] = line.slice(0, p.span.start.column - 1) + line.slice(p.span.end.column - 1);
  }
  return lines.join('\n');
}

function report(result: FlowchartParseResult): string {
  return result.problems.map((p) => `${p.code} ${p.span.start.line}:${p.span.start.column} ${p.message}`).join('; ') || 'no problems';
}
