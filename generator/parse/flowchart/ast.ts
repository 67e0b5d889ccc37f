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

/**
 * The node `type`: Mermaid's name of the shape it draws (see `semantics/shape-catalog.ts` for the names
 * `@{ shape: … }` accepts for each).
 */
export type NodeShape =
  // The shapes of the classic syntax (and their `@{ shape: … }` names).
  | 'rectangle' // A[text], @{ shape: rect }
  | 'round' // A(text), @{ shape: rounded }
  | 'stadium' // A([text])
  | 'subroutine' // A[[text]], @{ shape: fr-rect }
  | 'cylinder' // A[(text)], @{ shape: cyl }
  | 'circle' // A((text))
  | 'double-circle' // A(((text))), @{ shape: dbl-circ }
  | 'asymmetric' // A>text], @{ shape: odd }
  | 'rhombus' // A{text}, @{ shape: diamond } (a decision)
  | 'hexagon' // A{{text}}, @{ shape: hex }
  | 'parallelogram' // A[/text/], @{ shape: lean-r }
  | 'parallelogram-alt' // A[\text\], @{ shape: lean-l }
  | 'trapezoid' // A[/text\], @{ shape: trap-b }
  | 'trapezoid-alt' // A[\text/], @{ shape: trap-t }
  | 'ellipse' // A(-text-): Mermaid 11 reads it but cannot draw it
  // Mermaid 11's other shapes, only written as @{ shape: … }.
  | 'data-store'
  | 'folder'
  | 'bucket'
  | 'console'
  | 'browser'
  | 'person'
  | 'bang'
  | 'cloud'
  | 'text'
  | 'notched-rectangle'
  | 'lined-rectangle'
  | 'small-circle'
  | 'framed-circle'
  | 'filled-rectangle'
  | 'hourglass'
  | 'curly-brace'
  | 'curly-brace-right'
  | 'curly-braces'
  | 'lightning-bolt'
  | 'document'
  | 'half-rounded-rectangle'
  | 'horizontal-cylinder'
  | 'lined-cylinder'
  | 'curved-trapezoid'
  | 'divided-rectangle'
  | 'triangle'
  | 'window-pane'
  | 'filled-circle'
  | 'trapezoidal-pentagon'
  | 'flipped-triangle'
  | 'sloped-rectangle'
  | 'stacked-document'
  | 'stacked-rectangle'
  | 'bow-tie-rectangle'
  | 'crossed-circle'
  | 'tagged-document'
  | 'tagged-rectangle'
  | 'flag'
  | 'lined-document'
  // Undocumented shapes Mermaid accepts.
  | 'state'
  | 'note'
  | 'composite'
  | 'icon'
  | 'anchor';

export type EdgeStroke = 'normal' | 'dotted' | 'thick' | 'invisible';
export type ArrowHead = 'none' | 'point' | 'circle' | 'cross';

/**
 * How Mermaid reads a label: plain `text`, a quoted `string`, or `markdown` (a markdown string `"`…`"`, and a
 * label set with `@{ label: … }` unless its `labelType` says otherwise). A markdown label is drawn as markdown.
 */
export type LabelType = 'text' | 'string' | 'markdown';

/**
 * One occurrence of a node id: a bare reference, or a declaration that sets its shape, its label or both
 * (`A[text]` sets both; `A@{ shape: diamond }` only the shape, `A@{ label: "x" }` only the label). As in
 * Mermaid, each property keeps the value its last declaration set.
 */
export interface NodeOccurrence {
  readonly id: string;
  readonly idSpan: BlockSpan;
  /** The shape this occurrence sets, if any. */
  readonly shape?: NodeShape;
  /**
   * The label this occurrence sets, as Mermaid shows it: quotes and the backticks of a markdown string removed,
   * entity codes (`#quot;`, `#35;`) decoded; HTML kept as written.
   */
  readonly label?: string;
  readonly labelSpan?: BlockSpan;
  readonly labelType?: LabelType;
  /** `:::cls` classes attached at this occurrence. */
  readonly classes: readonly string[];
}

export interface EdgeOccurrence {
  readonly from: string;
  readonly to: string;
  /** The author's edge id (`A e1@--> B`), on the edge Mermaid gives it to: absent on the others. */
  readonly id?: string;
  /** The link token (`-->`, `-.->|x|`, `-- text -->` …), with the edge id if there is one. */
  readonly span: BlockSpan;
  readonly fromSpan: BlockSpan;
  readonly toSpan: BlockSpan;
  /** Edge text (`|x|` or inline `-- x -->`), read like a node label; null when there is none. */
  readonly label: string | null;
  readonly labelSpan?: BlockSpan;
  readonly labelType?: LabelType;
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

/**
 * A node id named by a styling or interaction statement (`style A …`, `class A,B name`, `click A …`). These do not
 * change the graph as the SOP reads it, but renaming a node must rename them too, or the style stays on the old id.
 */
export interface StyledReference {
  readonly id: string;
  readonly span: BlockSpan;
  readonly statement: 'style' | 'class' | 'click';
}

export type FlowDirection = 'TB' | 'TD' | 'BT' | 'LR' | 'RL';

export interface FlowchartAst {
  /** `flowchart` or `graph`. */
  readonly keyword: 'flowchart' | 'graph';
  readonly direction: FlowDirection;
  readonly headerSpan: BlockSpan;
  /**
   * Every node occurrence in source order (declarations and references, also those inside edges). A reference to
   * an edge id (`e1` after `A e1@--> B`) is no node, as in Mermaid; neither is `@{ … }` metadata for an edge or a
   * subgraph.
   */
  readonly nodes: readonly NodeOccurrence[];
  /** Edges in source order; `A --> B --> C` yields two, `A & B --> C` yields two. */
  readonly edges: readonly EdgeOccurrence[];
  readonly subgraphs: readonly SubgraphOccurrence[];
  /** Node ids in `style`, `class` and `click` statements, in source order. */
  readonly styled: readonly StyledReference[];
}

/** A problem found by the flowchart parser, in block coordinates. Codes come from the diagnostic catalog. */
export interface FlowchartProblem {
  readonly code: 'SOP012' | 'SOP013' | 'SOP014' | 'SOP018' | 'SOP019';
  readonly message: string;
  readonly span: BlockSpan;
  readonly remediation?: string;
}

export interface FlowchartParseResult {
  /** Null only when the text is not a flowchart at all or has a syntax error (then `problems` has an SOP012). */
  readonly ast: FlowchartAst | null;
  readonly problems: readonly FlowchartProblem[];
}
