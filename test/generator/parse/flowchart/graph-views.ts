/**
 * Our AST and Mermaid's database, both as the graph a reader of the chart sees, so the differential tests can
 * compare them with one `toEqual`: vertices in Mermaid's order (first appearance) with the shape, label and label
 * type their last declaration set; edges with ends, author's id, label, stroke and arrowheads; subgraphs by id.
 * Mermaid's shape types are turned into ours through the same catalog the parser uses, whose grouping of names
 * is itself checked against Mermaid's shape table (`shape-catalog.test.ts`).
 */
import type { FlowchartAst, NodeShape } from '../../../../generator/parse/flowchart/ast.js';
import { shapeTypeOf } from '../../../../generator/parse/flowchart/semantics/shape-catalog.js';
import type { MermaidReading } from './mermaid-oracle.js';

export interface GraphView {
  readonly vertices: readonly { id: string; shape: string | undefined; label: string; labelType: string }[];
  readonly edges: readonly {
    from: string;
    to: string;
    id: string | undefined;
    label: string | null;
    labelType: string | undefined;
    stroke: string;
    arrowStart: string;
    arrowEnd: string;
  }[];
  readonly subgraphs: readonly { id: string; title: string }[];
}

/** The `type` Mermaid's classic syntax gives each shape, as our node type. */
export const CLASSIC: Readonly<Record<string, NodeShape>> = {
  square: 'rectangle',
  rect: 'rectangle',
  round: 'round',
  stadium: 'stadium',
  subroutine: 'subroutine',
  cylinder: 'cylinder',
  circle: 'circle',
  doublecircle: 'double-circle',
  ellipse: 'ellipse',
  odd: 'asymmetric',
  diamond: 'rhombus',
  hexagon: 'hexagon',
  lean_right: 'parallelogram',
  lean_left: 'parallelogram-alt',
  trapezoid: 'trapezoid',
  inv_trapezoid: 'trapezoid-alt',
};

export function viewOfAst(ast: FlowchartAst): GraphView {
  const vertices = new Map<string, { id: string; shape: string | undefined; label: string; labelType: string }>();
  for (const n of ast.nodes) {
    const seen = vertices.get(n.id) ?? { id: n.id, shape: undefined, label: n.id, labelType: 'text' };
    vertices.set(n.id, {
      id: n.id,
      shape: n.shape ?? seen.shape,
      label: n.label ?? seen.label,
      labelType: n.labelType ?? seen.labelType,
    });
  }
  return {
    vertices: [...vertices.values()],
    edges: ast.edges.map((e) => ({
      from: e.from,
      to: e.to,
      id: e.id,
      label: e.label,
      labelType: e.label === null ? undefined : e.labelType,
      stroke: e.stroke,
      arrowStart: e.arrowStart,
      arrowEnd: e.arrowEnd,
    })),
    subgraphs: ast.subgraphs.map((s) => ({ id: s.id, title: s.title ?? s.id })).sort((a, b) => a.id.localeCompare(b.id)),
  };
}

export function viewOfMermaid(reading: MermaidReading & { ok: true }): GraphView {
  return {
    vertices: reading.vertices.map((v) => ({
      id: v.id,
      shape: v.type === undefined ? undefined : (CLASSIC[v.type] ?? shapeTypeOf(v.type) ?? `?${v.type}`),
      label: v.text,
      labelType: v.labelType,
    })),
    edges: reading.edges.map((e) => {
      const [arrowStart, arrowEnd] = arrowheads(e.type);
      const label = e.text === '' ? null : e.text;
      return {
        from: e.start,
        to: e.end,
        id: e.id,
        label,
        labelType: label === null ? undefined : e.labelType,
        stroke: e.stroke,
        arrowStart,
        arrowEnd,
      };
    }),
    subgraphs: reading.subgraphs.map((s) => ({ id: asWritten(s.id), title: s.title })).sort((a, b) => a.id.localeCompare(b.id)),
  };
}

/**
 * An id as the author wrote it. Mermaid keeps the placeholders of entity codes in ids (`subgraph Q#amp;A` has the
 * id `Qﬂ°amp¶ßA`); ids are never shown, and no node id can hold an entity code, so we keep the written form.
 */
function asWritten(id: string): string {
  return id.replace(/\uFB02\u00B0(\u00B0?)(\w+)\u00B6\u00DF/g, '#$2;');
}

function arrowheads(type: string): [string, string] {
  const head = (t: string): string => ({ arrow_point: 'point', arrow_circle: 'circle', arrow_cross: 'cross' })[t] ?? 'none';
  return type.startsWith('double_') ? [head(type.slice(7)), head(type.slice(7))] : ['none', head(type)];
}
