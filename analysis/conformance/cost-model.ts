/**
 * The cost model of the alignment: what each kind of deviation costs, and the charges of one move. Process
 * mining's alignments (pm4py, Carmona et al., "Conformance Checking", 2018) charge nothing for a synchronous move
 * and one unit for a move on the model only or on the log only; silent transitions are free. Adapted to a SOP, and
 * charged by the gateway's own rules (`contract/run/`) wherever the transcript shows what they read:
 *
 *   - a call at a node that offers the tool is synchronous: 0;
 *   - moving into a node without a call is a silent step: 0 (decision nodes, nodes without tools); the walk always
 *     follows the runtime's rule (`contract/transitions.ts`), hubs and restarts included;
 *   - `unexpected_call` (a move on the log only): a call the current node does not offer: 1;
 *   - `step_without_call`: leaving a node that offers tools without calling any of them during the visit: 0.5. What a
 *     reader of the SOP calls a skipped step, on any SOP, declared evidence or not; half a unit, because a step's
 *     tools may be optional (a user who gives the address needs no lookup). A step that offers only reads is not
 *     skipped when one of them found something earlier in the run: real agents read first and decide after;
 *   - `skipped_required`: going on from a node that requires evidence without it (a call of its evidence tools that
 *     found something, earlier in the run, or during the visit when `fresh`; the gateway refuses that move), or
 *     leaving a node a policy requires (`required-nodes.ts`) without a call of its tools: 1, instead of the half;
 *   - `against_data`: going on along an edge decided by data (`when:`) when no answer read before satisfies its
 *     condition (nothing read, or what was read says otherwise; the gateway refuses that move): 1. Among walks of
 *     the same cost this makes the alignment take the branch the data says;
 *   - `unproven_entity`: a change naming an entity (`order_id`) the run never read, where it read others: 1;
 *   - `unsettled_change`: a change repeated after one of unknown outcome, with no read between: 1;
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
 * A transcript that shows no domain calls (an audit log of a server without the gateway) is never charged for a step
 * left without a call; one that keeps no answers is never charged `against_data`, and its calls count as found.
 * Among alignments of the same cost, an inferred walk prefers the one that leaves the fewest calls unexplained (log
 * moves), then the fewest moves, as pm4py prefers it with a tiny cost on silent moves; a declared walk prefers the
 * fewest moves (it stays with what the agent declared). Ties beyond that are broken by the order of the search.
 *
 * Fitness = 1 − cost / worst cost, where the worst cost is what the same calls cost when nothing explains them: each
 * event a move on the log only, with the run before its first move (every call `unexpected_call` plus every policy
 * naming its tool plus its own evidence charges; every goto_node `declared_move_off_walk`). That alignment always
 * exists, so 0 ≤ fitness ≤ 1; it is pm4py's `1 − cost / (|trace| log moves + the empty trace's cost)`, the empty
 * trace costing 0 here because a walk need not reach a terminal node (whether it did is reported apart).
 */
import type { AlignModel, RunMove, WalkState } from './align-model.js';
import type { CallFacts, PositionFacts } from './trace-facts.js';

export type DeviationKind =
  | 'unexpected_call'
  | 'step_without_call'
  | 'skipped_required'
  | 'against_data'
  | 'unproven_entity'
  | 'unsettled_change'
  | 'policy'
  | 'before_confirmation'
  | 'unconfirmed_call'
  | 'visit_limit'
  | 'undeclared_move'
  | 'declared_move_off_walk';

export const DEVIATION_KINDS: readonly DeviationKind[] = [
  'unexpected_call',
  'step_without_call',
  'skipped_required',
  'against_data',
  'unproven_entity',
  'unsettled_change',
  'policy',
  'before_confirmation',
  'unconfirmed_call',
  'visit_limit',
  'undeclared_move',
  'declared_move_off_walk',
];

export const COSTS: Readonly<Record<DeviationKind, number>> = Object.freeze({
  unexpected_call: 1,
  step_without_call: 0.5,
  skipped_required: 1,
  against_data: 1,
  unproven_entity: 1,
  unsettled_change: 1,
  policy: 1,
  before_confirmation: 1,
  unconfirmed_call: 1,
  visit_limit: 1,
  undeclared_move: 1,
  declared_move_off_walk: 1,
});

/** One charge of a move: its kind and, where it has one, the policy (index into `model.policies`) or the data condition. */
export interface Charge {
  readonly kind: DeviationKind;
  readonly policy?: number;
  readonly condition?: number;
}

/** What the transcript lets a move's charges see: whether it shows the calls and their answers, and what they proved by then. */
export interface MoveView {
  readonly observesCalls: boolean;
  readonly answers: boolean;
  readonly facts: PositionFacts;
}

/**
 * What a move from `from` costs: a move no goto_node declared (`undeclared`), leaving its node (`leavingCost`), going
 * along an edge the data contradicts, then what entering the target costs (`enterCost`). Pushes the charges on `out`.
 */
export function moveCost(
  model: AlignModel,
  from: WalkState,
  called: boolean,
  move: RunMove,
  undeclared: boolean,
  view: MoveView,
  out?: Charge[],
): number {
  let cost = 0;
  if (undeclared) {
    cost += COSTS.undeclared_move;
    out?.push({ kind: 'undeclared_move' });
  }
  return cost + leavingCost(model, from, called, move, view, out) + enterCost(model, move, out);
}

/**
 * What leaving `from` by `move` costs, besides entering the target: going on without the node's evidence, leaving a
 * required node or a node with tools without a call, and going along an edge the data read so far contradicts.
 */
export function leavingCost(model: AlignModel, from: WalkState, called: boolean, move: RunMove, view: MoveView, out?: Charge[]): number {
  const kind = leavingKind(model, from, called, move.goesOn, view);
  let cost = 0;
  if (kind !== null) {
    cost += COSTS[kind];
    out?.push({ kind });
  }
  if (againstData(move, view)) {
    cost += COSTS.against_data;
    out?.push({ kind: 'against_data', condition: move.condition });
  }
  return cost;
}

/** What leaving the node of `from` (on, or back) is charged as, or null: the part of `leavingCost` a move's target does not change. */
export function leavingKind(
  model: AlignModel,
  from: WalkState,
  called: boolean,
  goesOn: boolean,
  view: MoveView,
): 'skipped_required' | 'step_without_call' | null {
  const node = from.node;
  if (node < 0 || called || !view.observesCalls) return null;
  const evidence = model.evidenceNode[node]!;
  if (evidence !== 0 && goesOn) return evidence === 2 || view.facts.met[node] !== 1 ? 'skipped_required' : null;
  if (evidence === 0 && model.requiredWithTools[node] === 1) return 'skipped_required';
  return model.hasTools[node] === 1 && !readBefore(model, node, view.facts) ? 'step_without_call' : null;
}

/** Whether a move goes along an edge decided by data that no answer read before satisfies (and the transcript shows answers). */
export function againstData(move: RunMove, view: MoveView): boolean {
  return move.condition >= 0 && view.answers && view.facts.holds[move.condition] !== 1;
}

/** Whether a node of reads only had one of its tools find something earlier: the agent read first and decides now. */
function readBefore(model: AlignModel, node: number, facts: PositionFacts): boolean {
  if (model.readsOnly[node] !== 1) return false;
  for (const tool of model.offered[node]!) if (facts.read[tool] === 1) return true;
  return false;
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

/** What a call of `tool` costs at `at`: nothing where the node offers it, else a log move; plus its policies and its evidence charges. */
export function callCost(model: AlignModel, at: WalkState, tool: number, facts: CallFacts | undefined, out?: Charge[]): number {
  let cost = evidenceCost(facts, out);
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

export function offers(model: AlignModel, at: WalkState, tool: number): boolean {
  return at.node >= 0 && model.offers[at.node]!.has(tool);
}

/** What the evidence rules charge a call wherever it is made: an entity never read, a change repeated blindly. */
export function evidenceCost(facts: CallFacts | undefined, out?: Charge[]): number {
  if (facts === undefined) return 0;
  let cost = 0;
  if (facts.unproven !== undefined) {
    cost += COSTS.unproven_entity;
    out?.push({ kind: 'unproven_entity' });
  }
  if (facts.unsettled !== undefined) {
    cost += COSTS.unsettled_change;
    out?.push({ kind: 'unsettled_change' });
  }
  return cost;
}

/** The worst cost of a call of `tool`: a log move before any move, every policy naming it broken, its evidence charges. */
export function worstCallCost(model: AlignModel, tool: number, facts: CallFacts | undefined): number {
  return (
    evidenceCost(facts) +
    COSTS.unexpected_call +
    model.policiesOfTool[tool]!.reduce(
      (sum, p) => sum + COSTS[model.policies[p]!.confirmation === null ? 'policy' : 'before_confirmation'],
      0,
    )
  );
}
