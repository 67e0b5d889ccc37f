/**
 * The shape catalog against Mermaid's own shape table: we accept exactly the names `@{ shape: … }` accepts, and two
 * names share a node type exactly when Mermaid draws them with the same function, with one deliberate exception
 * (`choice` is a `rhombus`: a decision is whatever Mermaid draws as a rhombus). The shapes of the classic syntax
 * get the type of the function Mermaid draws them with.
 */
import { beforeAll, expect, it } from 'vitest';
import type { NodeShape } from '../../../../../generator/parse/flowchart/ast.js';
import { SHAPE_NAMES, shapeTypeOf } from '../../../../../generator/parse/flowchart/semantics/shape-catalog.js';
import { CLASSIC } from '../graph-views.js';
import { loadMermaid, loadMermaidShapes } from '../mermaid-oracle.js';

let shapes: ReadonlyMap<string, unknown>;

beforeAll(async () => {
  await loadMermaid();
  shapes = await loadMermaidShapes();
});

/** What Mermaid's flowchart accepts in `@{ shape: … }` (FlowDB.addVertex refuses upper case and `_`). */
const accepted = (): string[] => [...shapes.keys()].filter((name) => name === name.toLowerCase() && !name.includes('_'));

it('accepts exactly the shape names Mermaid accepts', () => {
  expect([...SHAPE_NAMES].sort()).toEqual(accepted().sort());
  expect(SHAPE_NAMES).toHaveLength(147);
});

it('gives two names one type exactly when Mermaid draws them alike, choice (a rhombus) aside', () => {
  const typesByDrawing = new Map<unknown, Set<NodeShape | undefined>>();
  const drawingsByType = new Map<NodeShape | undefined, Set<unknown>>();
  for (const name of accepted()) {
    const drawing = shapes.get(name);
    const type = shapeTypeOf(name);
    typesByDrawing.set(drawing, (typesByDrawing.get(drawing) ?? new Set()).add(type));
    drawingsByType.set(type, (drawingsByType.get(type) ?? new Set()).add(drawing));
  }
  expect([...typesByDrawing.values()].filter((types) => types.size > 1)).toEqual([]);
  const merged = [...drawingsByType.entries()].filter(([, drawings]) => drawings.size > 1).map(([type]) => type);
  expect(merged).toEqual(['rhombus']);
  expect(shapes.get('choice')).not.toBe(shapes.get('diamond'));
});

it('types the classic syntax by the shape Mermaid draws for it; (-ellipse-) has none', () => {
  // Mermaid's FlowDB.getTypeFromVertex: `square` and `round` are drawn as squareRect and roundedRect.
  const drawn: Record<string, string> = { square: 'squareRect', round: 'roundedRect' };
  for (const [mermaidType, ours] of Object.entries(CLASSIC)) {
    const drawing = shapes.get(drawn[mermaidType] ?? mermaidType);
    if (ours === 'ellipse') {
      expect(drawing, 'Mermaid 11 cannot draw (-ellipse-)').toBeUndefined();
      continue;
    }
    const sameDrawing = SHAPE_NAMES.filter((name) => shapes.get(name) === drawing).map(shapeTypeOf);
    expect(new Set(sameDrawing), mermaidType).toEqual(new Set([ours]));
  }
});
