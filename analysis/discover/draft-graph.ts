/**
 * The draft's flowchart, as nodes and edges: START, the opening's steps, the ROUTE hub, each intent's steps from
 * ROUTE to its own END_* terminal. Steps become nodes that offer their tools; a choice becomes a decision node with
 * an edge per branch (and a "no" edge when the branch may be skipped); a loop becomes a decision after its body
 * with an "again" edge back. Every edge leaving a decision is labelled.
 *
 * Node ids are UPPER_SNAKE, made from the tools and intents: a change's step is named after its tool
 * (`CANCEL_PENDING_ORDER`), the reads before it `READ_<intent>`, the opening's first lookup `AUTH`, a question
 * answered with reads alone `INFO`; decisions `IF_<step>` (may be skipped), `WHICH_<intent>` (branches),
 * `AGAIN_<step>` (a loop). An id taken already gets `_2`, `_3`…
 */
import type { StepTree } from './steps.js';
import { words } from './tool-kinds.js';

export type DraftNodeShape = 'start' | 'step' | 'decision' | 'hub' | 'end';

export interface DraftNode {
  readonly id: string;
  readonly shape: DraftNodeShape;
  /** The Mermaid label (already safe to write between quotes). */
  readonly label: string;
  /** Tool ids the node offers (steps only). */
  readonly tools: readonly number[];
  readonly change: boolean;
  /** The intent it belongs to (an index into the drafted intents), or 'opening', or null (START, ROUTE). */
  readonly intent: number | 'opening' | null;
  /** How many mined traces passed it. */
  readonly weight: number;
}

export interface DraftEdge {
  readonly from: string;
  readonly to: string;
  readonly label: string | null;
  /** Traces that took it (a decision's branch), or null where the draft does not know. */
  readonly weight: number | null;
}

export interface DraftGraph {
  readonly nodes: readonly DraftNode[];
  readonly edges: readonly DraftEdge[];
  /** The node the opening's steps lead to and every intent starts from. */
  readonly hub: string;
  /** Per drafted intent (same order as given), its terminal node. */
  readonly ends: readonly string[];
}

export interface DraftIntent {
  /** UPPER_SNAKE name (`CANCEL_PENDING_ORDER`, `INFO`). */
  readonly name: string;
  /** What ROUTE's edge to it says (`cancel_pending_order`, `a question (reads only)`). */
  readonly label: string;
  /** What its terminal says. */
  readonly done: string;
  readonly steps: StepTree;
  readonly weight: number;
}

/** Mermaid's keywords, which a node id may not be (in any case). */
const KEYWORDS: ReadonlySet<string> = new Set([
  'end',
  'subgraph',
  'graph',
  'flowchart',
  'style',
  'linkstyle',
  'classdef',
  'class',
  'click',
  'call',
  'href',
  'direction',
  'default',
  'interpolate',
]);

export function draftGraph(opening: StepTree | null, intents: readonly DraftIntent[], toolName: (tool: number) => string): DraftGraph {
  const builder = new GraphBuilder(toolName);
  builder.node({ id: 'START', shape: 'start', label: 'Conversation starts', tools: [], change: false, intent: null, weight: 0 });
  const hub = builder.reserve('ROUTE');
  const ends = intents.map((intent) => builder.reserve(`END_${intent.name}`));
  if (opening === null) builder.edge('START', hub, null, null);
  else {
    // The opening's first step is AUTH when it is a lookup (the user found before anything else).
    const first = firstStep(opening);
    const at = builder.edges.length;
    const fragment = builder.fragment(opening, { intent: 'opening', name: 'OPENING', firstRead: first?.change === false ? 'AUTH' : null });
    builder.edge('START', fragment.entry, null, null, at);
    builder.connect(fragment.exits, hub);
  }
  builder.node({
    id: hub,
    shape: intents.length >= 2 ? 'hub' : 'step',
    label: intents.length >= 2 ? 'Intent?' : 'Take the request',
    tools: [],
    change: false,
    intent: null,
    weight: 0,
  });
  for (const [i, intent] of intents.entries()) {
    const only = intent.steps.kind === 'step' && !intent.steps.change;
    const at = builder.edges.length;
    const fragment = builder.fragment(intent.steps, {
      intent: i,
      name: intent.name,
      firstRead: only ? intent.name : `READ_${intent.name}`,
    });
    // The edge into the intent comes first in the flowchart, before the intent's own.
    builder.edge(hub, fragment.entry, intents.length >= 2 ? intent.label : null, intent.weight, at);
    builder.connect(fragment.exits, ends[i]!);
    builder.node({ id: ends[i]!, shape: 'end', label: intent.done, tools: [], change: false, intent: i, weight: intent.weight });
  }
  return { nodes: builder.nodes, edges: builder.edges, hub, ends };
}

interface Exit {
  readonly from: string;
  readonly label: string | null;
  readonly weight: number | null;
}

interface Fragment {
  readonly entry: string;
  readonly exits: readonly Exit[];
}

interface Context {
  readonly intent: number | 'opening';
  /** Names the decisions of this part (`WHICH_<name>`). */
  readonly name: string;
  /** The id of the first read step of this part (`AUTH`, `READ_CANCEL_PENDING_ORDER`, `INFO`). */
  firstRead: string | null;
}

class GraphBuilder {
  readonly nodes: DraftNode[] = [];
  readonly edges: DraftEdge[] = [];
  private readonly taken = new Set<string>();

  constructor(private readonly toolName: (tool: number) => string) {}

  /** An id not taken yet, from `base`: `base`, else `base_2`, `base_3`… */
  reserve(base: string): string {
    let id = KEYWORDS.has(base.toLowerCase()) ? `${base}_STEP` : base;
    for (let n = 2; this.taken.has(id); n++) id = `${base}_${n}`;
    this.taken.add(id);
    return id;
  }

  node(node: DraftNode): void {
    this.taken.add(node.id);
    this.nodes.push(node);
  }

  edge(from: string, to: string, label: string | null, weight: number | null, at: number = this.edges.length): void {
    this.edges.splice(at, 0, { from, to, label, weight });
  }

  connect(exits: readonly Exit[], to: string, at: number = this.edges.length): void {
    for (const [i, exit] of exits.entries()) this.edge(exit.from, to, exit.label, exit.weight, at + i);
  }

  fragment(tree: StepTree, context: Context): Fragment {
    switch (tree.kind) {
      case 'step': {
        const id = this.stepId(tree, context);
        const names = tree.tools.map(this.toolName);
        this.node({
          id,
          shape: 'step',
          label: tree.change ? names.join(', ') : `Look up: ${names.join(', ')}`,
          tools: tree.tools,
          change: tree.change,
          intent: context.intent,
          weight: tree.weight,
        });
        return { entry: id, exits: [{ from: id, label: null, weight: null }] };
      }
      case 'sequence': {
        const parts: Fragment[] = [];
        for (const child of tree.children) {
          // The edges into a part come before the part's own in the flowchart.
          const at = this.edges.length;
          const part = this.fragment(child, context);
          if (parts.length > 0) this.connect(parts.at(-1)!.exits, part.entry, at);
          parts.push(part);
        }
        return { entry: parts[0]!.entry, exits: parts.at(-1)!.exits };
      }
      case 'choice': {
        const single = tree.children.length === 1;
        // A choice between ways is named now; an optional step's decision after the step it may skip, made below.
        const which = single ? null : this.reserve(`WHICH_${context.name}`);
        const nodeAt = this.nodes.length;
        const edgeAt = this.edges.length;
        const parts = tree.children.map((child) => this.fragment(child, context));
        const id = which ?? this.reserve(`IF_${parts[0]!.entry}`);
        const labels = single ? ['yes'] : distinct(tree.children.map((child) => branchLabel(child, this.toolName)));
        this.nodes.splice(nodeAt, 0, {
          id,
          shape: 'decision',
          label: single ? `${toolsOf(tree.children[0]!).map(this.toolName).join(', ')} needed?` : 'Which step next?',
          tools: [],
          change: false,
          intent: context.intent,
          weight: tree.weight,
        });
        // The decision's edges come before its branches' own in the flowchart.
        for (const [i, part] of parts.entries()) this.edge(id, part.entry, labels[i]!, tree.children[i]!.weight, edgeAt + i);
        const exits = parts.flatMap((part) => part.exits);
        if (tree.skip !== undefined) exits.push({ from: id, label: single ? 'no' : 'none of these', weight: tree.skip });
        return { entry: id, exits };
      }
      case 'loop': {
        const body = this.fragment(tree.body, context);
        const again = this.reserve(`AGAIN_${body.entry}`);
        this.node({ id: again, shape: 'decision', label: 'Again?', tools: [], change: false, intent: context.intent, weight: tree.weight });
        this.connect(body.exits, again);
        if (tree.redo === null) this.edge(again, body.entry, 'again', null);
        else {
          const redo = this.fragment(tree.redo, context);
          this.edge(again, redo.entry, 'again', tree.redo.weight);
          this.connect(redo.exits, body.entry);
        }
        return { entry: body.entry, exits: [{ from: again, label: 'done', weight: null }] };
      }
    }
  }

  private stepId(step: Extract<StepTree, { kind: 'step' }>, context: Context): string {
    if (!step.change && context.firstRead !== null) {
      const id = this.reserve(context.firstRead);
      context.firstRead = null;
      return id;
    }
    if (step.change || step.tools.length === 1) return this.reserve(upperSnake(this.toolName(step.tools[0]!)));
    return this.reserve(context.intent === 'opening' ? 'LOOKUP' : `READ_${context.name}`);
  }
}

/** `cancel_pending_order` → `CANCEL_PENDING_ORDER`; `getOrder` → `GET_ORDER`; a name of no letters or digits → `STEP`. */
export function upperSnake(name: string): string {
  const id = words(name).join('_').toUpperCase();
  if (id === '') return 'STEP';
  return /^[0-9]/.test(id) ? `STEP_${id}` : id;
}

function firstStep(tree: StepTree): Extract<StepTree, { kind: 'step' }> | null {
  switch (tree.kind) {
    case 'step':
      return tree;
    case 'sequence':
      return firstStep(tree.children[0]!);
    case 'choice':
      return tree.children.length === 1 && tree.skip === undefined ? firstStep(tree.children[0]!) : null;
    case 'loop':
      return firstStep(tree.body);
  }
}

function toolsOf(tree: StepTree): number[] {
  switch (tree.kind) {
    case 'step':
      return [...tree.tools];
    case 'sequence':
      return toolsOf(tree.children[0]!);
    case 'choice':
      return tree.children.flatMap(toolsOf);
    case 'loop':
      return toolsOf(tree.body);
  }
}

function branchLabel(tree: StepTree, toolName: (tool: number) => string): string {
  const tools = toolsOf(tree).map(toolName);
  return tools.length <= 2 ? tools.join(', ') : `${tools.slice(0, 2).join(', ')}, …`;
}

function distinct(labels: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return labels.map((label) => {
    const n = (seen.get(label) ?? 0) + 1;
    seen.set(label, n);
    return n === 1 ? label : `${label} (${n})`;
  });
}
