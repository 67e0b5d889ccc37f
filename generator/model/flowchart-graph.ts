/**
 * The flowchart's nodes and edges, from the AST, with the SOP format's reading of Mermaid:
 * - a node's first appearance fixes its order; each of its properties (shape, label) keeps the value its last
 *   declaration set, as in Mermaid, with a warning when two declarations disagree (SOP015);
 * - `<-->` links run both ways, and invisible `~~~` links are layout only, so they are not transitions;
 * - a subgraph is a grouping, never a state: an edge to or from a subgraph id, or a node declared with one, is
 *   an error at its position (SOP017), since the format does not say what a transition to a group would mean
 *   (Mermaid draws the edge to the group's border). Naming a subgraph id alone (`S`, or `S@{ … }` metadata) only
 *   groups or styles it, and makes no node;
 * - an edge id is no node either: an edge to `e1` after `A e1@--> B` is an error (SOP017); Mermaid 11 creates no
 *   node for it and fails to draw the chart;
 * - `style X`, `class X name` and `click X` that name no node, subgraph or edge are warned about (SOP026): `style`
 *   makes Mermaid draw a new node `X` the SOP does not have, the others do nothing. Most often an old id after a
 *   rename.
 */
import type { EdgeStyle } from '../../contract/compiled-sop.js';
import { suggester } from '../diagnostics/closest-match.js';
import { diagnosticAt, type Diagnostic, type SourceSpan } from '../diagnostics/diagnostic.js';
import type { BlockSpan, EdgeOccurrence } from '../parse/flowchart/ast.js';
import type { ParsedFlowchart } from '../parse/parse-sop.js';
import type { ModelEdge, ModelNode } from './sop-model.js';

export interface FlowchartGraph {
  readonly nodes: readonly ModelNode[];
  readonly edges: readonly ModelEdge[];
  readonly diagnostics: readonly Diagnostic[];
}

/** Builds the nodes and edges of one file's flowchart. */
export function flowchartGraph(file: string, flowchart: ParsedFlowchart): FlowchartGraph {
  const diagnostics: Diagnostic[] = [];
  const subgraphs = new Map(flowchart.ast.subgraphs.map((s) => [s.id, s.span]));
  const nodes = buildNodes(file, flowchart, subgraphs, diagnostics);
  const ids = new Set(nodes.map((n) => n.id));
  const notANode = (id: string, span: BlockSpan): boolean => {
    if (ids.has(id)) return false;
    diagnostics.push(notANodeDiagnostic(file, flowchart, id, span, subgraphs.get(id)));
    return true;
  };
  const edges: ModelEdge[] = [];
  for (const e of flowchart.ast.edges) {
    const fromBad = notANode(e.from, e.fromSpan);
    const toBad = notANode(e.to, e.toSpan);
    if (!fromBad && !toBad) edges.push(...modelEdges(e, flowchart));
  }
  diagnostics.push(...styledStrangers(file, flowchart, ids, subgraphs));
  return { nodes, edges, diagnostics };
}

/** SOP026: ids in `style`, `class` and `click` statements that are no node, subgraph or edge of the chart. */
function styledStrangers(
  file: string,
  flowchart: ParsedFlowchart,
  nodeIds: ReadonlySet<string>,
  subgraphs: ReadonlyMap<string, BlockSpan>,
): Diagnostic[] {
  const edgeIds = new Set(flowchart.ast.edges.flatMap((e) => (e.id === undefined ? [] : [e.id])));
  const strangers = flowchart.ast.styled.filter((ref) => !nodeIds.has(ref.id) && !subgraphs.has(ref.id) && !edgeIds.has(ref.id));
  if (strangers.length === 0) return [];
  const like = suggester([...nodeIds]);
  return strangers.map((ref) =>
    diagnosticAt(
      file,
      'SOP026',
      flowchart.toFile(ref.span),
      ref.statement === 'style'
        ? `\`style ${ref.id}\` names no node of the flowchart: Mermaid draws a new, unconnected node \`${ref.id}\` for it, which the SOP does not have.`
        : `\`${ref.statement} ${ref.id}\` names no node of the flowchart, so it does nothing.`,
      like.suggestion(ref.id, 'node id'),
    ),
  );
}

interface NodeState {
  node: ModelNode;
  shapeSet: boolean;
  labelSet: boolean;
}

function buildNodes(file: string, flowchart: ParsedFlowchart, subgraphs: ReadonlyMap<string, BlockSpan>, diagnostics: Diagnostic[]) {
  const byId = new Map<string, NodeState>();
  for (const occ of flowchart.ast.nodes) {
    const span = flowchart.toFile(occ.idSpan);
    const declares = occ.shape !== undefined || occ.label !== undefined;
    const subgraph = subgraphs.get(occ.id);
    if (subgraph) {
      if (declares) {
        const at = where(flowchart.toFile(subgraph));
        diagnostics.push(
          diagnosticAt(
            file,
            'SOP017',
            span,
            `\`${occ.id}\` is the id of the subgraph at ${at}, so Mermaid draws the subgraph here and this node's shape and label are lost.`,
            `Give the node or the subgraph another id (\`subgraph ${occ.id}_group [Title]\`).`,
          ),
        );
      }
      continue;
    }
    let state = byId.get(occ.id);
    if (!state) {
      state = { node: { id: occ.id, type: 'rectangle', description: occ.id, declared: false, span }, shapeSet: false, labelSet: false };
      byId.set(occ.id, state);
    }
    if (!declares) continue;
    const { node } = state;
    const shapeDiffers = occ.shape !== undefined && state.shapeSet && node.type !== occ.shape;
    const labelDiffers = occ.label !== undefined && state.labelSet && node.description !== occ.label;
    if (shapeDiffers || labelDiffers) {
      const first = node.span.start;
      diagnostics.push(
        diagnosticAt(
          file,
          'SOP015',
          span,
          `Node \`${occ.id}\` is declared again with a different ${shapeDiffers ? 'shape' : 'label'} (first declared at ${first.line}:${first.column}); this declaration wins.`,
          'Declare each node once with its shape and label, and refer to it by id elsewhere.',
        ),
      );
    }
    state.node = {
      ...node,
      type: occ.shape ?? node.type,
      description: occ.label ?? node.description,
      declared: true,
      // Where it is first declared (or first referenced, for a node never declared).
      span: node.declared ? node.span : span,
    };
    state.shapeSet ||= occ.shape !== undefined;
    state.labelSet ||= occ.label !== undefined;
  }
  return [...byId.values()].map((s) => s.node);
}

function notANodeDiagnostic(
  file: string,
  flowchart: ParsedFlowchart,
  id: string,
  span: BlockSpan,
  subgraph: BlockSpan | undefined,
): Diagnostic {
  const at = flowchart.toFile(span);
  if (subgraph) {
    return diagnosticAt(
      file,
      'SOP017',
      at,
      `\`${id}\` is the subgraph at ${where(flowchart.toFile(subgraph))}, not a node: Mermaid draws this edge to the subgraph's border, and the SOP format gives a transition to or from a group of nodes no meaning.`,
      `Link to a node inside the subgraph instead; if \`${id}\` is meant to be a node of its own, give the subgraph another id (\`subgraph ${id}_group [Title]\`).`,
    );
  }
  const edge = flowchart.ast.edges.find((e) => e.id === id);
  const which = edge ? `the edge at ${where(flowchart.toFile(edge.span))}` : 'an edge';
  return diagnosticAt(
    file,
    'SOP017',
    at,
    `\`${id}\` is the id of ${which}, not a node: Mermaid 11 creates no node for it and fails to draw the chart.`,
    'Link to a node, and give edges ids that no node uses (edge ids and node ids share one namespace in Mermaid).',
  );
}

const STYLE: Record<EdgeOccurrence['stroke'], EdgeStyle | null> = { normal: 'solid', dotted: 'dotted', thick: 'thick', invisible: null };

function modelEdges(e: EdgeOccurrence, flowchart: ParsedFlowchart): ModelEdge[] {
  const style = STYLE[e.stroke];
  if (style === null) return [];
  const base = {
    condition: e.label,
    style,
    stroke: e.stroke,
    arrowStart: e.arrowStart,
    arrowEnd: e.arrowEnd,
    span: flowchart.toFile(e.span),
  };
  const forward = { from: e.from, to: e.to, ...base };
  return e.arrowStart !== 'none' && e.arrowEnd !== 'none' && e.from !== e.to ? [forward, { from: e.to, to: e.from, ...base }] : [forward];
}

function where(span: SourceSpan): string {
  return `${span.start.line}:${span.start.column}`;
}
