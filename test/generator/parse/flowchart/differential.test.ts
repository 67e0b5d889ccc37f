/**
 * Differential tests against Mermaid 11 itself: for every corpus file, Mermaid accepts it if and only if we report
 * no SOP012, and when it does, we read the same graph (`graph-views.ts`: node ids in order, shapes, labels as the
 * reader sees them and their type; edges with ends, ids, labels, strokes and arrowheads; subgraph ids and titles).
 * Warnings (SOP018, SOP019) change nothing here: Mermaid reads those files as we do. Deliberate differences are
 * checked as such:
 * - SOP013 (a `%%` comment after a statement): Mermaid rejects the file, and accepts it once the comments we
 *   reported are removed, reading the graph we read;
 * - SOP014 (Mermaid syntax we do not support yet): Mermaid accepts the file and we report no SOP012;
 * - the `diverge-*` files, each with its reason in a `%%` comment at its top and its own check in `DIVERGENCES`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FlowchartParseResult } from '../../../../generator/parse/flowchart/ast.js';
import { parseFlowchart } from '../../../../generator/parse/flowchart/parse-flowchart.js';
import { viewOfAst, viewOfMermaid } from './graph-views.js';
import { loadMermaid, type MermaidReading } from './mermaid-oracle.js';

const CORPUS = new URL('./corpus/', import.meta.url);
const FILES = readdirSync(CORPUS)
  .filter((f) => f.endsWith('.mmd'))
  .sort();

type Check = (ours: FlowchartParseResult, mermaid: MermaidReading) => void;

/** How each deliberate divergence shows (its reason is the comment at the top of the file). */
const DIVERGENCES: Readonly<Record<string, Check>> = {
  // Mermaid draws a node called "%%"; we read an empty comment.
  'diverge-bare-comment-line.mmd': (ours, mermaid) => {
    expect(ours.problems).toEqual([]);
    if (!mermaid.ok || !ours.ast) throw new Error('both read it');
    const theirs = viewOfMermaid(mermaid);
    expect(viewOfAst(ours.ast)).toEqual({ ...theirs, vertices: theirs.vertices.filter((v) => v.id !== '%%') });
  },
  // Mermaid keeps an INVALID edge; we report SOP012.
  'diverge-mismatched-arrowheads.mmd': (ours, mermaid) => {
    expect(mermaid.ok).toBe(true);
    expect(ours.problems.map((p) => p.code)).toEqual(['SOP012']);
  },
  // Mermaid's parser accepts a list as a label, and its renderer fails on it; we report SOP012.
  'diverge-label-not-text.mmd': (ours, mermaid) => {
    expect(mermaid.ok).toBe(true);
    expect(ours.problems.map((p) => [p.code, p.message])).toEqual([['SOP012', 'The label must be text, not a list or a map']]);
  },
};

let readWithMermaid: (text: string) => Promise<MermaidReading>;

beforeAll(async () => {
  readWithMermaid = await loadMermaid();
});

describe('the flowchart parser agrees with Mermaid 11', () => {
  it('has a corpus of 100+ files, the divergences among them documented', () => {
    expect(FILES.length).toBeGreaterThanOrEqual(100);
    for (const file of FILES.filter((f) => f.startsWith('diverge-'))) {
      const text = readFileSync(new URL(file, CORPUS), 'utf8');
      expect(text, file).toMatch(/^%% diverges: /m);
      const sameLineComment = parseFlowchart(text).problems.some((p) => p.code === 'SOP013');
      expect(file in DIVERGENCES || sameLineComment, `${file} needs a check in DIVERGENCES`).toBe(true);
    }
  });

  for (const file of FILES) {
    it(file, async () => {
      const text = readFileSync(new URL(file, CORPUS), 'utf8');
      const ours = parseFlowchart(text);
      const mermaid = await readWithMermaid(text);
      const codes = new Set(ours.problems.map((p) => p.code));
      const divergence = DIVERGENCES[file];
      if (divergence) return divergence(ours, mermaid);
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

function compare(ours: FlowchartParseResult, mermaid: MermaidReading): void {
  if (!mermaid.ok || !ours.ast) return;
  expect(viewOfAst(ours.ast)).toEqual(viewOfMermaid(mermaid));
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
