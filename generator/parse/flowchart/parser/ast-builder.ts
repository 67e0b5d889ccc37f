/**
 * Collects the AST while statements are parsed: node occurrences and edges in source order, and subgraphs with
 * the ids of the nodes written directly inside them. Offsets become block spans here, once.
 *
 * It also keeps what Mermaid's database knows while it parses, because Mermaid's reading depends on it: the ids
 * of the edges so far (an id that names an edge is no node: `e1` after `A e1@--> B` creates nothing, and
 * `e1@{ … }` is that edge's metadata), the subgraphs closed so far (`S@{ … }` is subgraph metadata), and each
 * node's current label (`@{ icon: … }` blanks a label that is still the id).
 */
import type { EdgeOccurrence, FlowchartAst, FlowDirection, LabelType, NodeOccurrence, NodeShape, SubgraphOccurrence } from '../ast.js';
import type { LabelText } from '../semantics/label-text.js';
import type { LinkType } from '../semantics/link-type.js';
import type { LineIndex } from '../source/lines.js';

/** A node as an edge end: its id and where the id is written. */
export interface NodeRef {
  readonly id: string;
  readonly start: number;
  readonly end: number;
}

/** What one occurrence of a node sets. */
export interface Declaration {
  readonly shape?: NodeShape;
  readonly label?: LabelText;
  /**
   * `@{ icon }` or `@{ img }` without a label of its own: blanks the label when it is still the id (after the
   * delimiters' label, if any: `A[A]@{ icon: … }` shows no text either).
   */
  readonly blanksIdLabel?: boolean;
}

export interface LinkInput extends LinkType {
  readonly start: number;
  readonly end: number;
  readonly label: LabelText | null;
  /** The author's edge id (`e1` in `A e1@--> B`). */
  readonly id?: string;
}

export interface SubgraphInput {
  readonly id: string;
  readonly title: string | null;
  readonly start: number;
  readonly end: number;
}

export interface HeaderInput {
  readonly keyword: 'flowchart' | 'graph';
  readonly direction: FlowDirection;
  readonly start: number;
  readonly end: number;
}

export class AstBuilder {
  readonly #lines: LineIndex;
  readonly #nodes: NodeOccurrence[] = [];
  readonly #edges: EdgeOccurrence[] = [];
  readonly #subgraphs: { readonly start: number; readonly value: SubgraphOccurrence }[] = [];
  /** Node ids of the subgraphs being parsed, innermost last. */
  readonly #open: Set<string>[] = [];
  #closed = 0;
  /** Every edge id so far, the author's and Mermaid's generated ones (`L_A_B_0`). */
  readonly #edgeIds = new Set<string>();
  /** How many edges join each (start, end) pair so far, for Mermaid's generated edge ids. */
  readonly #pairs = new Map<string, number>();
  readonly #subgraphIds = new Set<string>();
  /** Each node's label so far (its id, as text, until a label is set). */
  readonly #labels = new Map<string, { readonly value: string; readonly type: LabelType }>();

  constructor(lines: LineIndex) {
    this.#lines = lines;
  }

  /** Whether an id names an edge defined so far: then it is no node. */
  isEdgeId(id: string): boolean {
    return this.#edgeIds.has(id);
  }

  /** Whether an id names a subgraph closed so far: then `@{ … }` after it is the subgraph's metadata. */
  isSubgraphId(id: string): boolean {
    return this.#subgraphIds.has(id);
  }

  /** Records one occurrence of a node: a bare reference, or a declaration (of a shape, a label or both). */
  addNode(node: NodeRef, declaration: Declaration, classes: readonly string[]): void {
    this.#open[this.#open.length - 1]?.add(node.id);
    if (this.#edgeIds.has(node.id)) return;
    let label = declaration.label;
    const current = label ?? this.#labels.get(node.id) ?? { value: node.id, type: 'text' };
    if (declaration.blanksIdLabel && current.value === node.id) label = { value: '', start: node.end, end: node.end, type: current.type };
    if (label) this.#labels.set(node.id, { value: label.value, type: label.type });
    const occurrence: NodeOccurrence = {
      id: node.id,
      idSpan: this.#lines.span(node.start, node.end),
      ...(declaration.shape === undefined ? {} : { shape: declaration.shape }),
      ...(label === undefined ? {} : { label: label.value, labelSpan: this.#lines.span(label.start, label.end), labelType: label.type }),
      classes,
    };
    this.#nodes.push(occurrence);
  }

  /**
   * One edge from every source to every target (`A & B --> C & D` gives four), in Mermaid's order. As in Mermaid,
   * an edge id goes to the edge from the last source to the first target, unless an earlier edge has it.
   */
  addEdges(sources: readonly NodeRef[], targets: readonly NodeRef[], link: LinkInput): void {
    const span = this.#lines.span(link.start, link.end);
    const text = link.label && link.label.value !== '' ? link.label : null;
    const labelled = text ? { labelSpan: this.#lines.span(text.start, text.end), labelType: text.type } : {};
    const { stroke, arrowStart, arrowEnd } = link;
    const lastSource = sources[sources.length - 1]?.id;
    const firstTarget = targets[0]?.id;
    for (const from of sources) {
      const fromSpan = this.#lines.span(from.start, from.end);
      for (const to of targets) {
        const toSpan = this.#lines.span(to.start, to.end);
        const named = link.id !== undefined && from.id === lastSource && to.id === firstTarget && !this.#edgeIds.has(link.id);
        const id = named ? link.id : undefined;
        const generated = this.#countPair(from.id, to.id);
        this.#edgeIds.add(id ?? generated);
        this.#edges.push({
          from: from.id,
          to: to.id,
          ...(id === undefined ? {} : { id }),
          span,
          fromSpan,
          toSpan,
          label: text ? text.value : null,
          ...labelled,
          stroke,
          arrowStart,
          arrowEnd,
        });
      }
    }
  }

  /**
   * Counts an edge between two nodes and returns the id Mermaid generates for it when it has none:
   * `L_<from>_<to>_<n>`, n = 0 for the first edge of the pair, then the number of earlier ones plus one.
   */
  #countPair(from: string, to: string): string {
    const pair = `${from}\n${to}`;
    const count = this.#pairs.get(pair) ?? 0;
    this.#pairs.set(pair, count + 1);
    return `L_${from}_${to}_${count === 0 ? 0 : count + 1}`;
  }

  /** How many edges exist so far (what `linkStyle` indexes count). */
  get edgeCount(): number {
    return this.#edges.length;
  }

  openSubgraph(): void {
    this.#open.push(new Set());
  }

  /**
   * Closes the innermost subgraph. Subgraphs are listed in source order of their `subgraph` line, although Mermaid
   * numbers untitled ones (`subGraph0` …) in the order they close; `generatedId` gives that number.
   */
  closeSubgraph(subgraph: (generatedId: string) => SubgraphInput): void {
    const nodeIds = [...(this.#open.pop() ?? [])];
    const input = subgraph(`subGraph${this.#closed}`);
    this.#closed++;
    this.#subgraphIds.add(input.id);
    this.#subgraphs.push({
      start: input.start,
      value: { id: input.id, title: input.title, span: this.#lines.span(input.start, input.end), nodeIds },
    });
  }

  build(header: HeaderInput): FlowchartAst {
    return {
      keyword: header.keyword,
      direction: header.direction,
      headerSpan: this.#lines.span(header.start, header.end),
      nodes: this.#nodes,
      edges: this.#edges,
      subgraphs: [...this.#subgraphs].sort((a, b) => a.start - b.start).map((s) => s.value),
    };
  }
}
