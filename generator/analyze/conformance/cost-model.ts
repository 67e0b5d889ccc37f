/**
 * The cost model of the alignment: what each kind of deviation costs, and the charges of one move. Process
 * mining's alignments (pm4py, Carmona et al., "Conformance Checking", 2018) charge nothing for a synchronous move
 * and one unit for a move on the model only or on the log only; silent transitions are free. Adapted to a SOP:
 *
 *   - a call at a node that offers the tool is synchronous: 0;
 *   - moving into a node without a call is a silent step: 0 (decision nodes, nodes without tools, and nodes whose
 *     tools are optional); the walk always follows the runtime's rule (`contract/transitions.ts`), hubs and restarts
 *     included, so a loop through a hub is as legal here as on the server;
 *   - `unexpected_call` (a move on the log only): a call the current node does not offer: 1;
 *   - `skipped_required` (a move on the model only through a required node, `required-nodes.ts`): leaving a required
 *     node that offers tools without having called one of them during the visit: 1;
 *   - `policy`: entering a node a policy guards, or calling a tool it names, with none of its `passes` nodes on the
 *     run's path: 1 per policy;
 *   - `before_confirmation`: the same for a policy with `confirmation` (a mutating call before its confirmation
 *     step): 1 per policy;
 *   - `unconfirmed_call`: a call such a policy guards, made at its confirmation step, without the user's explicit
 *     yes there (read from what was said, after the walk is chosen; chat transcripts only): 1;
 *   - `visit_limit`: a move into a node that has used up its `max_visits` (the run should have escalated): 1;
 *   - with `goto_node` calls in the transcript (they anchor the walk), `undeclared_move`: a move the agent did not
 *     declare with goto_node: 1; and `declared_move_off_walk`: a goto_node the walk does not take there (the rule
 *     refuses it, or the calls around it contradict it): 1.
 * Equal costs make the counts readable (cost = number of deviations) and none of them cheap enough to hide another.
 * Among alignments of the same cost, an inferred walk prefers the one that leaves the fewest calls unexplained (log
 * moves), then the fewest moves, as pm4py prefers it with a tiny cost on silent moves; a declared walk prefers the
 * fewest moves (it stays with what the agent declared). Ties beyond that are broken by the order of the search.
 *
 * Fitness = 1 − cost / worst cost, where the worst cost is what the same calls cost when nothing explains them: each
 * event a move on the log only, with the run before its first move (every call `unexpected_call` plus every policy
 * naming its tool; every goto_node `declared_move_off_walk`). That alignment always exists, so 0 ≤ fitness ≤ 1; it
 * is pm4py's `1 − cost / (|trace| log moves + the empty trace's cost)`, the empty trace costing 0 here because a walk
 * need not reach a terminal node (whether it did is reported apart).
 */
import type { AlignModel, RunMove, RunState } from './align-model.js';

export type DeviationKind =
  | 'unexpected_call'
  | 'skipped_required'
  | 'policy'
  | 'before_confirmation'
  | 'unconfirmed_call'
  | 'visit_limit'
  | 'undeclared_move'
  | 'declared_move_off_walk';

export const DEVIATION_KINDS: readonly DeviationKind[] = [
  'unexpected_call',
  'skipped_required',
  'policy',
  'before_confirmation',
  'unconfirmed_call',
  'visit_limit',
  'undeclared_move',
  'declared_move_off_walk',
];

export const COSTS: Readonly<Record<DeviationKind, number>> = Object.freeze({
  unexpected_call: 1,
  skipped_required: 1,
  policy: 1,
  before_confirmation: 1,
  unconfirmed_call: 1,
  visit_limit: 1,
  undeclared_move: 1,
  declared_move_off_walk: 1,
});

/** One charge of a move: its kind and, where it has one, the policy (index into `model.policies`). */
export interface Charge {
  readonly kind: DeviationKind;
  readonly policy?: number;
}

/**
 * What a move from `from` costs: a move no goto_node declared (`undeclared`), leaving a required node without a
 * call, then what entering the target costs (`enterCost`). Pushes the charges on `out`.
 */
export function moveCost(model: AlignModel, from: RunState, called: boolean, move: RunMove, undeclared: boolean, out?: Charge[]): number {
  let cost = 0;
  if (undeclared) {
    cost += COSTS.undeclared_move;
    out?.push({ kind: 'undeclared_move' });
  }
  if (from.node >= 0 && model.requiredWithTools[from.node] === 1 && !called) {
    cost += COSTS.skipped_required;
    out?.push({ kind: 'skipped_required' });
  }
  return cost + enterCost(model, move, out);
}

/** What entering a move's target costs wherever the run came from: a visit limit passed, policies it breaks. */
export function enterCost(model: AlignModel, move: RunMove, out?: Charge[]): number {
  let cost = 0;
  if (move.limit) {
    cost += COSTS.visit_limit;
    out?.push({ kind: 'visit_limit' });
  }
  const guards = model.guardedBy[move.target]!;
  if (guards.length > 0) {
    const next = model.state(move.next);
    for (const p of guards) {
      if (next.passed[p] === 1) continue;
      const kind = model.policies[p]!.confirmation === null ? 'policy' : 'before_confirmation';
      cost += COSTS[kind];
      out?.push({ kind, policy: p });
    }
  }
  return cost;
}

/** What a call of `tool` costs at `at`: nothing where the node offers it, else a log move; plus its policies. */
export function callCost(model: AlignModel, at: RunState, tool: number, out?: Charge[]): number {
  let cost = 0;
  if (!offers(model, at, tool)) {
    cost += COSTS.unexpected_call;
    out?.push({ kind: 'unexpected_call' });
  }
  for (const p of model.policiesOfTool[tool]!) {
    if (at.passed[p] === 1) continue;
    const kind = model.policies[p]!.confirmation === null ? 'policy' : 'before_confirmation';
    cost += COSTS[kind];
    out?.push({ kind, policy: p });
  }
  return cost;
}

export function offers(model: AlignModel, at: RunState, tool: number): boolean {
  return at.node >= 0 && model.offers[at.node]!.has(tool);
}

/** The worst cost of a call of `tool`: a log move before any move, every policy naming it broken. */
export function worstCallCost(model: AlignModel, tool: number): number {
  return (
    COSTS.unexpected_call +
    model.policiesOfTool[tool]!.reduce(
      (sum, p) => sum + COSTS[model.policies[p]!.confirmation === null ? 'policy' : 'before_confirmation'],
      0,
    )
  );
}
