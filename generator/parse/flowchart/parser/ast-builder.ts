/**
 * Collects the AST while statements are parsed: node occurrences and edges in source order, and subgraphs with
 * the ids of the nodes written directly inside them. Offsets become block spans here, once.
 */
import type { EdgeOccurrence, FlowchartAst, FlowDirection, NodeOccurrence, NodeShape, SubgraphOccurrence } from '../ast.js';
import type { LabelText } from '../semantics/label-text.js';
import type { LineIndex } from '../source/lines.js';
import type { LinkType } from '../semantics/link-type.js';

/** A node as an edge end: its id and where the id is written. */
export interface NodeRef {
  readonly id: string;
  readonly start: number;
  readonly end: number;
}

export interface LinkInput extends LinkType {
  readonly start: number;
  readonly end: number;
  readonly label: LabelText | null;
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

  constructor(lines: LineIndex) {
    this.#lines = lines;
  }

  /** Records one occurrence of a node: a bare reference, or a declaration with a shape (and its label). */
  addNode(node: NodeRef, shape: NodeShape | undefined, label: LabelText | undefined, classes: readonly string[]): void {
    const idSpan = this.#lines.span(node.start, node.end);
    let occurrence: NodeOccurrence;
    if (shape === undefined) occurrence = { id: node.id, idSpan, classes };
    else if (label === undefined) occurrence = { id: node.id, idSpan, shape, classes };
    else occurrence = { id: node.id, idSpan, shape, label: label.value, labelSpan: this.#lines.span(label.start, label.end), classes };
    this.#nodes.push(occurrence);
    this.#open[this.#open.length - 1]?.add(node.id);
  }

  /** One edge from every source to every target (`A & B --> C & D` gives four), in Mermaid's order. */
  addEdges(sources: readonly NodeRef[], targets: readonly NodeRef[], link: LinkInput): void {
    const span = this.#lines.span(link.start, link.end);
    const labelSpan = link.label ? this.#lines.span(link.label.start, link.label.end) : undefined;
    const label = link.label && link.label.value !== '' ? link.label.value : null;
    const { stroke, arrowStart, arrowEnd } = link;
    for (const from of sources) {
      const fromSpan = this.#lines.span(from.start, from.end);
      for (const to of targets) {
        const toSpan = this.#lines.span(to.start, to.end);
        this.#edges.push(
          label !== null && labelSpan
            ? { from: from.id, to: to.id, span, fromSpan, toSpan, label, labelSpan, stroke, arrowStart, arrowEnd }
            : { from: from.id, to: to.id, span, fromSpan, toSpan, label, stroke, arrowStart, arrowEnd },
        );
      }
    }
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
