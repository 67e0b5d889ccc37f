/**
 * What the alignment needs of a compiled SOP, indexed once per SOP: node and tool numbers, the tools each node
 * offers, the required nodes (`required-nodes.ts`), the policies as sets of numbers, and the run states.
 *
 * A walk state is what the runtime keeps of a run that the walk depends on, the path and the visit counts, and its moves are exactly the
 * moves `contract/transitions.ts` allows (`legalTargets`, `decideMove`): the alignment never has a rule of its
 * own. A move the rule refuses only because the target has used up its visits is kept too, marked `limit`: the
 * alignment may take it, as a deviation, when the log shows the agent went round once more. Run states are
 * interned as they are met and their moves listed on first use, so a batch over one SOP builds the table once;
 * ids depend on the order states were met, so nothing that must be deterministic may depend on them (ties are
 * broken on `key`, the path itself).
 */
import type { CompiledSop, DataCondition } from '../../contract/compiled-sop.js';
import { goesOn } from '../../contract/run/evidence.js';
import { type RunRules, runRules } from '../../contract/run/rules.js';
import { countVisit, decideMove, enterPath, legalTargets, limitedNodes, NO_VISITS, type Visits } from '../../contract/transitions.js';
import { requiredNodes, type RequiredNode } from './required-nodes.js';

export interface RunMove {
  readonly target: number;
  /** The run state after the move. */
  readonly next: number;
  /** The rule refuses it only because `target` has used up its visits (`max_visits`). */
  readonly limit: boolean;
  /** It goes on from the current node (a successor not on the path): only such a move needs the node's evidence. */
  readonly goesOn: boolean;
  /** The edge's condition over data (`model.conditions`), when it goes on along one; -1 otherwise. */
  readonly condition: number;
}

/** An edge decided by data (`when:`). */
export interface ConditionEdge {
  readonly from: number;
  readonly target: number;
  readonly condition: DataCondition;
}

export interface WalkState {
  readonly id: number;
  /** Node ids from the entry node to the current one; empty before the first move. */
  readonly path: readonly string[];
  readonly visits: Visits;
  /** The current node's number, -1 before the first move. */
  readonly node: number;
  /** Canonical: the path and the visit counts as text. Ties between equal alignments are broken on it. */
  readonly key: string;
  /** Per policy: 1 when the path passes one of its `passes` nodes. */
  readonly passed: Uint8Array;
  moves?: readonly RunMove[];
  /** The moves' next states again, for the search's inner loop. */
  moveNext?: Int32Array;
  /** The part of each move's cost that does not depend on how the run got here (`cost-model.ts`, set on first use). */
  moveBase?: Int32Array;
}

export interface AlignPolicy {
  readonly id: string;
  readonly description: string | null;
  readonly severity: 'error' | 'warning';
  readonly passes: ReadonlySet<number>;
  /** The user's confirmation pattern, compiled; a string when it does not compile; null without confirmation. */
  readonly confirmation: RegExp | string | null;
}

export interface AlignModel {
  readonly sop: CompiledSop;
  /** The SOP's rules as the step function looks them up (`contract/run/`): the gateway's own. */
  readonly rules: RunRules;
  readonly nodes: readonly string[];
  readonly nodeIndex: ReadonlyMap<string, number>;
  readonly tools: readonly string[];
  readonly toolIndex: ReadonlyMap<string, number>;
  /** Per node: the numbers of the tools it offers. */
  readonly offers: readonly ReadonlySet<number>[];
  readonly hasTools: Uint8Array;
  readonly terminal: Uint8Array;
  /** Per node: 1 when it is required and offers tools (passing it without a call is a deviation). */
  readonly requiredWithTools: Uint8Array;
  /** Per node: 1 when every tool it offers is a read (no policy guards it), so that an earlier call of one can stand for the step. */
  readonly readsOnly: Uint8Array;
  /** Per node: the numbers of the tools it offers, in order. */
  readonly offered: readonly (readonly number[])[];
  /** Per node: 1 when it requires evidence from the run, 2 when from the visit (`fresh`), 0 when none. */
  readonly evidenceNode: Uint8Array;
  /** The edges decided by data, in flowchart order. */
  readonly conditions: readonly ConditionEdge[];
  /** Per node: the tools whose call (one that did not fail) passes it: its evidence tools, or all it offers. */
  readonly satisfies: readonly ReadonlySet<number>[];
  readonly required: ReadonlyMap<string, RequiredNode>;
  readonly policies: readonly AlignPolicy[];
  /** Per node: the policies that guard it. Per tool: the policies that name it. */
  readonly guardedBy: readonly (readonly number[])[];
  readonly policiesOfTool: readonly (readonly number[])[];
  /** The state before the first move (also a run after load_graph). */
  readonly start: number;
  state(id: number): WalkState;
  movesOf(state: WalkState): readonly RunMove[];
  /** Run states interned so far. */
  size(): number;
}

/** Past this many run states a model starts over (a pathological SOP must not grow a batch's memory forever). */
const MAX_STATES = 200_000;

const models = new WeakMap<CompiledSop, AlignModel>();

/** The SOP's model, built on first use; started over when it has grown past MAX_STATES (between two transcripts). */
export function alignModel(sop: CompiledSop): AlignModel {
  let model = models.get(sop);
  if (model === undefined || model.size() > MAX_STATES) {
    model = buildModel(sop);
    models.set(sop, model);
  }
  return model;
}

function buildModel(sop: CompiledSop): AlignModel {
  const nodes = sop.nodeIds;
  const nodeIndex = new Map(nodes.map((id, i) => [id, i]));
  const tools = sop.tools;
  const toolIndex = new Map(tools.map((tool, i) => [tool, i]));
  const offers = nodes.map(
    (id) => new Set((sop.toolsByNode[id] ?? []).flatMap((tool) => (toolIndex.has(tool) ? [toolIndex.get(tool)!] : []))),
  );
  const hasTools = Uint8Array.from(offers, (set) => (set.size > 0 ? 1 : 0));
  const terminals = new Set(sop.terminalNodes);
  const terminal = Uint8Array.from(nodes, (id) => (terminals.has(id) ? 1 : 0));
  const required = requiredNodes(sop);
  const requiredWithTools = Uint8Array.from(nodes, (id, i) => (required.has(id) && hasTools[i] === 1 ? 1 : 0));
  const rules = runRules(sop);
  const offered = offers.map((set) => [...set]);
  const readsOnly = Uint8Array.from(offered, (list) => (list.length > 0 && list.every((tool) => !rules.changes.has(tools[tool]!)) ? 1 : 0));
  const evidenceNode = Uint8Array.from(nodes, (id) => {
    const requirement = rules.requirements.get(id);
    return requirement === undefined ? 0 : requirement.fresh === true ? 2 : 1;
  });
  const conditions: ConditionEdge[] = [];
  const conditionAt = new Map<string, number>();
  for (const [from, byTarget] of rules.conditions) {
    for (const [target, condition] of byTarget) {
      const f = nodeIndex.get(from);
      const t = nodeIndex.get(target);
      if (f === undefined || t === undefined) continue;
      conditionAt.set(`${f} ${t}`, conditions.length);
      conditions.push({ from: f, target: t, condition });
    }
  }
  const conditionOf = (from: number, target: number): number => conditionAt.get(`${from} ${target}`) ?? -1;
  const satisfies = nodes.map((id, i) => {
    const evidence = required.get(id)?.evidence;
    return evidence === undefined ? offers[i]! : new Set(evidence.flatMap((tool) => (toolIndex.has(tool) ? [toolIndex.get(tool)!] : [])));
  });
  const policies: AlignPolicy[] = (sop.policies ?? []).map((policy) => ({
    id: policy.id,
    description: policy.description,
    severity: policy.severity,
    passes: new Set(policy.passes.flatMap((node) => (nodeIndex.has(node) ? [nodeIndex.get(node)!] : []))),
    confirmation: policy.confirmation === null ? null : compile(policy.confirmation),
  }));
  const guardedBy = nodes.map(() => [] as number[]);
  const policiesOfTool = tools.map(() => [] as number[]);
  for (const [p, policy] of (sop.policies ?? []).entries()) {
    for (const node of policy.guards) if (nodeIndex.has(node)) guardedBy[nodeIndex.get(node)!]!.push(p);
    for (const tool of policy.tools) if (toolIndex.has(tool)) policiesOfTool[toolIndex.get(tool)!]!.push(p);
  }

  const table = sop.transitions;
  const limited = limitedNodes(table);
  const states: WalkState[] = [];
  const byKey = new Map<string, number>();
  const intern = (path: readonly string[], visits: Visits): number => {
    const key = stateKey(path, visits, limited);
    const known = byKey.get(key);
    if (known !== undefined) return known;
    const passed = new Uint8Array(policies.length);
    for (const [p, policy] of policies.entries()) passed[p] = path.some((node) => policy.passes.has(nodeIndex.get(node) ?? -1)) ? 1 : 0;
    const current = path.at(-1);
    const state: WalkState = {
      id: states.length,
      path,
      visits,
      node: current === undefined ? -1 : (nodeIndex.get(current) ?? -1),
      key,
      passed,
    };
    states.push(state);
    byKey.set(key, state.id);
    return state.id;
  };
  const start = intern([], NO_VISITS);

  const movesOf = (state: WalkState): readonly RunMove[] => {
    if (state.moves !== undefined) return state.moves;
    const moves: RunMove[] = [];
    const legal = legalTargets(table, state.path, state.visits);
    const along = (target: string): Pick<RunMove, 'goesOn' | 'condition'> => {
      const on = goesOn(table, state.path, target);
      return { goesOn: on, condition: on ? conditionOf(state.node, nodeIndex.get(target)!) : -1 };
    };
    for (const target of legal) {
      const verdict = decideMove(table, state.path, target, state.visits);
      if (verdict.ok)
        moves.push({ target: nodeIndex.get(target)!, next: intern(verdict.path, verdict.visits), limit: false, ...along(target) });
    }
    // Moves refused only for the visit limit: the rule's own candidates (successors, entry, hubs on the path).
    if (limited.length > 0 && state.node >= 0) {
      const candidates = new Set<string>([...(table.successors[nodes[state.node]!] ?? []), table.entry, ...table.hubs]);
      for (const target of candidates) {
        if (legal.includes(target)) continue;
        const verdict = decideMove(table, state.path, target, state.visits);
        if (verdict.ok || verdict.reason !== 'visit-limit') continue;
        // Counts past the limit change nothing the rule looks at: kept at the limit, the states stay finitely many.
        const path = enterPath(state.path, target, table.entry);
        const visits = verdict.max === state.visits[target] ? state.visits : countVisit(state.visits, target, limited);
        moves.push({ target: nodeIndex.get(target)!, next: intern(path, visits), limit: true, ...along(target) });
      }
    }
    state.moves = moves;
    state.moveNext = Int32Array.from(moves, (move) => move.next);
    return moves;
  };

  return {
    sop,
    rules,
    nodes,
    nodeIndex,
    tools,
    toolIndex,
    offers,
    hasTools,
    terminal,
    requiredWithTools,
    readsOnly,
    offered,
    evidenceNode,
    conditions,
    satisfies,
    required,
    policies,
    guardedBy,
    policiesOfTool,
    start,
    state: (id) => states[id]!,
    movesOf,
    size: () => states.length,
  };
}

function stateKey(path: readonly string[], visits: Visits, limited: readonly string[]): string {
  const text = path.join('>');
  if (limited.length === 0) return text;
  const counts = limited.map((node) => (Object.hasOwn(visits, node) ? visits[node] : 0)).join(',');
  return `${text}|${counts}`;
}

function compile(pattern: string): RegExp | string {
  try {
    return new RegExp(pattern, 'i');
  } catch (error) {
    return (error as Error).message;
  }
}
