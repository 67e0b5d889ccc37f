/**
 * Collects the AST while statements are parsed: node occurrences and edges in source order, and subgraphs with
 * the ids of the nodes written directly inside them. Offsets become block spans here, once.
 *
 * It also keeps what Mermaid's database knows while it parses, because Mermaid's reading depends on it: the ids
 * of the edges so far (an id that names an edge is no node: `e1` after `A e1@--> B` creates nothing, and
 * `e1@{ … }` is that edge's metadata), the subgraphs closed so far (`S@{ … }` is subgraph metadata), and each
 * node's current label (`@{ icon: … }` blanks a label that is still the id).
 *
 * Optional AST fields are always present (undefined when absent): objects of one shape keep large charts fast.
 */
import type {
  EdgeOccurrence,
  FlowchartAst,
  FlowDirection,
  NodeOccurrence,
  NodeShape,
  StyledReference,
  SubgraphOccurrence,
} from '../ast.js';
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
  readonly #styled: StyledReference[] = [];
  readonly #subgraphs: { readonly start: number; readonly value: SubgraphOccurrence }[] = [];
  /** Node ids of the subgraphs being parsed, innermost last. */
  readonly #open: Set<string>[] = [];
  #closed = 0;
  /** The authors' edge ids so far. */
  readonly #edgeIds = new Set<string>();
  /** How many edges join each (from, to) pair so far: Mermaid's generated edge ids (`L_A_B_0`) follow from it. */
  readonly #pairs = new Map<string, Map<string, number>>();
  /** The edges (`from\nto\nk`, the k-th of their pair) that took an author's id, so have no generated one. */
  readonly #named = new Set<string>();
  readonly #subgraphIds = new Set<string>();
  /** The last occurrence of each node that set its label. */
  readonly #labelled = new Map<string, NodeOccurrence>();

  constructor(lines: LineIndex) {
    this.#lines = lines;
  }

  /** Whether an id names an edge defined so far (the author's id or Mermaid's generated one): then it is no node. */
  isEdgeId(id: string): boolean {
    return this.#edgeIds.has(id) || this.#isGeneratedId(id);
  }

  /** Whether an id names a subgraph closed so far: then `@{ … }` after it is the subgraph's metadata. */
  isSubgraphId(id: string): boolean {
    return this.#subgraphIds.has(id);
  }

  /** Records one occurrence of a node: a bare reference, or a declaration (of a shape, a label or both). */
  addNode(node: NodeRef, declaration: Declaration, classes: readonly string[]): void {
    this.#open[this.#open.length - 1]?.add(node.id);
    if (this.isEdgeId(node.id)) return;
    let label = declaration.label;
    if (declaration.blanksIdLabel) {
      const current = this.#labelled.get(node.id);
      const value = label?.value ?? current?.label ?? node.id;
      if (value === node.id) label = { value: '', start: node.end, end: node.end, type: label?.type ?? current?.labelType ?? 'text' };
    }
    const occurrence: NodeOccurrence = {
      id: node.id,
      idSpan: this.#lines.span(node.start, node.end),
      shape: declaration.shape,
      label: label?.value,
      labelSpan: label ? this.#lines.span(label.start, label.end) : undefined,
      labelType: label?.type,
      classes,
    };
    if (label) this.#labelled.set(node.id, occurrence);
    this.#nodes.push(occurrence);
  }

  /**
   * One edge from every source to every target (`A & B --> C & D` gives four), in Mermaid's order. As in Mermaid,
   * an edge id goes to the edge from the last source to the first target, unless an earlier edge has it.
   */
  addEdges(sources: readonly NodeRef[], targets: readonly NodeRef[], link: LinkInput): void {
    const span = this.#lines.span(link.start, link.end);
    const text = link.label && link.label.value !== '' ? link.label : null;
    const labelSpan = text ? this.#lines.span(text.start, text.end) : undefined;
    const { stroke, arrowStart, arrowEnd } = link;
    const lastSource = sources[sources.length - 1]?.id;
    const firstTarget = targets[0]?.id;
    for (const from of sources) {
      const fromSpan = this.#lines.span(from.start, from.end);
      for (const to of targets) {
        const named = link.id !== undefined && from.id === lastSource && to.id === firstTarget && !this.isEdgeId(link.id);
        const k = this.#countPair(from.id, to.id);
        if (named) {
          this.#edgeIds.add(link.id as string);
          this.#named.add(`${from.id}\n${to.id}\n${k}`);
        }
        this.#edges.push({
          from: from.id,
          to: to.id,
          id: named ? link.id : undefined,
          span,
          fromSpan,
          toSpan: this.#lines.span(to.start, to.end),
          label: text ? text.value : null,
          labelSpan,
          labelType: text?.type,
          stroke,
          arrowStart,
          arrowEnd,
        });
      }
    }
  }

  /** Counts an edge between two nodes; returns how many joined them before. */
  #countPair(from: string, to: string): number {
    let targets = this.#pairs.get(from);
    if (!targets) this.#pairs.set(from, (targets = new Map()));
    const k = targets.get(to) ?? 0;
    targets.set(to, k + 1);
    return k;
  }

  /**
   * Whether an id is one Mermaid generated for an edge without one: `L_<from>_<to>_<n>`, where the k-th edge of a
   * pair gets n = 0 for k = 0 and n = k + 1 after. Only ids of that form are looked at (from and to may hold `_`,
   * so each split is tried).
   */
  #isGeneratedId(id: string): boolean {
    if (!id.startsWith('L_')) return false;
    const last = id.lastIndexOf('_');
    const n = Number(id.slice(last + 1));
    if (last < 3 || !/^\d+$/.test(id.slice(last + 1)) || n === 1) return false;
    const k = n === 0 ? 0 : n - 1;
    const pair = id.slice(2, last);
    for (let cut = pair.indexOf('_'); cut !== -1; cut = pair.indexOf('_', cut + 1)) {
      const from = pair.slice(0, cut);
      const to = pair.slice(cut + 1);
      if (k < (this.#pairs.get(from)?.get(to) ?? 0) && !this.#named.has(`${from}\n${to}\n${k}`)) return true;
    }
    return false;
  }

  /** Records a node id a `style`, `class` or `click` statement names. */
  addStyled(ref: NodeRef, statement: StyledReference['statement']): void {
    this.#styled.push({ id: ref.id, span: this.#lines.span(ref.start, ref.end), statement });
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
      styled: this.#styled,
    };
  }
}
