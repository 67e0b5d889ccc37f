/**
 * The flowchart AST: what our Mermaid flowchart parser understood, with positions. Positions here are
 * relative to the mermaid block (line 1 = first line inside the fence, column 1-based); the markdown stage
 * shifts them to `.md` coordinates. No graph semantics yet (that is the model's job): every occurrence of a
 * node is kept, in source order, so the model can apply "the labelled declaration wins".
 */

export interface BlockPosition {
  readonly line: number;
  readonly column: number;
}

export interface BlockSpan {
  readonly start: BlockPosition;
  /** Exclusive end (the column just after the last character). */
  readonly end: BlockPosition;
}

/** Mermaid's shape names (as in its docs), which become the node `type`. */
export type NodeShape =
  | 'rectangle' // A[text]
  | 'round' // A(text)
  | 'stadium' // A([text])
  | 'subroutine' // A[[text]]
  | 'cylinder' // A[(text)]
  | 'circle' // A((text))
  | 'double-circle' // A(((text)))
  | 'asymmetric' // A>text]
  | 'rhombus' // A{text}
  | 'hexagon' // A{{text}}
  | 'parallelogram' // A[/text/]
  | 'parallelogram-alt' // A[\text\]
  | 'trapezoid' // A[/text\]
  | 'trapezoid-alt'; // A[\text/]

export type EdgeStroke = 'normal' | 'dotted' | 'thick' | 'invisible';
export type ArrowHead = 'none' | 'point' | 'circle' | 'cross';

/** One occurrence of a node id: a declaration with a shape, or a bare reference. */
export interface NodeOccurrence {
  readonly id: string;
  readonly idSpan: BlockSpan;
  /** Present when this occurrence declares a shape (`A[...]`), absent for a bare `A`. */
  readonly shape?: NodeShape;
  /** Label text as Mermaid shows it: quotes removed, entities and markdown strings kept as written. */
  readonly label?: string;
  readonly labelSpan?: BlockSpan;
  /** `:::cls` classes attached at this occurrence. */
  readonly classes: readonly string[];
}

export interface EdgeOccurrence {
  readonly from: string;
  readonly to: string;
  /** The link token (`-->`, `-.->|x|`, `-- text -->` …). */
  readonly span: BlockSpan;
  readonly fromSpan: BlockSpan;
  readonly toSpan: BlockSpan;
  /** Edge text (`|x|` or inline `-- x -->`), trimmed and unquoted; null when there is none. */
  readonly label: string | null;
  readonly labelSpan?: BlockSpan;
  readonly stroke: EdgeStroke;
  readonly arrowStart: ArrowHead;
  readonly arrowEnd: ArrowHead;
}

export interface SubgraphOccurrence {
  readonly id: string;
  readonly title: string | null;
  readonly span: BlockSpan;
  /** Ids of nodes that appear inside it (directly), in source order, without duplicates. */
  readonly nodeIds: readonly string[];
}

export type FlowDirection = 'TB' | 'TD' | 'BT' | 'LR' | 'RL';

export interface FlowchartAst {
  /** `flowchart` or `graph`. */
  readonly keyword: 'flowchart' | 'graph';
  readonly direction: FlowDirection;
  readonly headerSpan: BlockSpan;
  /** Every node occurrence in source order (declarations and references, also those inside edges). */
  readonly nodes: readonly NodeOccurrence[];
  /** Edges in source order; `A --> B --> C` yields two, `A & B --> C` yields two. */
  readonly edges: readonly EdgeOccurrence[];
  readonly subgraphs: readonly SubgraphOccurrence[];
}

/** A problem found by the flowchart parser, in block coordinates. Codes come from the diagnostic catalog. */
export interface FlowchartProblem {
  readonly code: 'SOP012' | 'SOP013' | 'SOP014';
  readonly message: string;
  readonly span: BlockSpan;
  readonly remediation?: string;
}

export interface FlowchartParseResult {
  /** Null only when the text is not a flowchart at all or has a syntax error (then `problems` has an SOP012). */
  readonly ast: FlowchartAst | null;
  readonly problems: readonly FlowchartProblem[];
}
