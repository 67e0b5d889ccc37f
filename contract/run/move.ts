/**
 * A move (`goto_node`) decided on a run: by the one transition rule (`../transitions.ts`, through `../frames.ts` for
 * sub-flows), and, when the run sees its domain calls (`domainCalls`: the gateway, or a replay of a conversation whose
 * calls it reads), by what those calls proved:
 *   - **evidence**: going on from a node that requires evidence waits for a call that found it (`evidence.ts`);
 *   - **data**: a move along an edge decided by data (`when:`) needs the answers its condition reads, and at least
 *     one entity whose answer satisfies it (`conditions.ts`); when only some do (order A pending, B delivered), the
 *     run remembers which (`narrowed`), and later changes must name one of them.
 * A refusal says why and what the agent can do: the moves that would be accepted now, the call to make, the branch
 * the data allows. After a move the confirmation passes and the narrowings still on the path are kept, entering a
 * confirmation step adds a pass, and a question put to the user is dropped (it was for the visit it was asked in);
 * evidence stays for the run.
 *
 * Pure and browser-safe.
 */
import { branchData, shownValue } from './conditions.js';
import { decideMoveIntoCalls, resolveInFrame } from '../frames.js';
import {
  countVisit,
  enterPath,
  type ForkProgress,
  legalTargets,
  limitedNodes,
  type MoveAccepted,
  type MoveRefusal,
  type Outcome,
} from '../transitions.js';
import { goesOn, requirementMet } from './evidence.js';
import type { MoveRules } from './rules.js';
import type { ConfirmationPass, Narrowing, RunState } from './state.js';
import type { CompiledPolicy, DataCondition } from '../compiled-sop.js';
import { passesOnPath } from '../frames.js';

/** Why a move is refused: the transition rule's reasons, then what the domain calls proved (gateway mode). */
export type MoveRule = MoveRefusal['reason'] | 'evidence' | 'data';

export interface MoveOptions {
  /** The run sees its domain calls (the gateway, or a replay that reads them): evidence and data decide moves too. */
  readonly domainCalls: boolean;
}

export type MoveDecision =
  | {
      readonly kind: 'moved';
      readonly verdict: MoveAccepted;
      /** The node the move ended on (into a sub-flow node: the called SOP's entry node). */
      readonly node: string;
      /** What the node left decided the run's changes may be about (its evidence's entities, a data branch's). */
      readonly narrowed: readonly Narrowing[];
      /** Policies that guard the node entered with none of their `passes` nodes on the path (never, on a run the rule built). */
      readonly broken: readonly CompiledPolicy[];
    }
  | {
      readonly kind: 'refused';
      readonly rule: MoveRule;
      /** What the agent is told. */
      readonly error: string;
      readonly current: string | null;
      /** The moves that would be accepted now. */
      readonly validNext: readonly string[];
      /** The escalation node, when the target has used up its visits. */
      readonly escalateTo?: string;
      /** A move only evidence or data refuse: what the transition rule alone decides (a replay applies it when it happened). */
      readonly plain?: MoveAccepted;
    }
  | { readonly kind: 'unknown-node'; readonly typed: string; readonly error: string };

/** The node a `node_id` names for this run: itself, else (inside a sub-flow) that id in the frame the run is in, outward. */
export function resolveTarget(rules: MoveRules, path: readonly string[], typed: string): string {
  return resolveInFrame(typed, path.at(-1), (id) => rules.nodes.has(id));
}

export function decideMove(
  rules: MoveRules,
  state: RunState,
  typed: string,
  outcome: Outcome | undefined,
  options: MoveOptions,
): { readonly decision: MoveDecision; readonly state: RunState } {
  const target = resolveTarget(rules, state.path, typed);
  if (!rules.nodes.has(target)) return { decision: unknownNode(rules, typed), state };
  const table = rules.sop.transitions;
  const verdict = decideMoveIntoCalls(table, state.path, target, rules.callEntry, state.visits, state.forks, outcome);
  if (!verdict.ok) {
    const validNext = options.domainCalls ? allowedTargets(rules, state) : legalTargets(table, state.path, state.visits, state.forks);
    return { decision: ruleRefusal(rules, state, target, verdict, validNext), state };
  }
  let narrowed: readonly Narrowing[] = NO_NARROWING;
  if (options.domainCalls) {
    const held = domainRefusal(rules, state, target);
    if ('rule' in held) {
      return { decision: { ...held, current: state.path.at(-1) ?? null, validNext: allowedTargets(rules, state), plain: verdict }, state };
    }
    narrowed = held.narrowed;
  }
  const next = applyMove(rules, state, verdict, narrowed, options);
  const node = verdict.path.at(-1)!;
  return { decision: { kind: 'moved', verdict, node, narrowed, broken: brokenPolicies(rules, verdict.path, node) }, state: next };
}

/**
 * The state after a move the rule refuses only for a visit limit, taken anyway: an inferred walk that went round once
 * more than the SOP allows (a replay scores it; a server never moves so).
 */
export function forceMove(rules: MoveRules, state: RunState, target: string): RunState {
  const table = rules.sop.transitions;
  const path = enterPath(state.path, target, table.entry);
  return { ...state, path, visits: countVisit(state.visits, target, limitedNodes(table)) };
}

/** The state after an accepted move: path, visits and forks, and (gateway mode) the passes and narrowings on the path. */
export function applyMove(
  rules: MoveRules,
  state: RunState,
  verdict: MoveAccepted,
  narrowed: readonly Narrowing[],
  options: MoveOptions,
): RunState {
  const { path, visits } = verdict;
  const forks = verdict.forks === undefined ? state.forks : verdict.forks;
  if (path === state.path && visits === state.visits && (verdict.forks === undefined || sameRecords(verdict.forks, state.forks ?? []))) {
    return state;
  }
  const moved = withForks({ ...state, path, visits }, forks);
  if (!options.domainCalls || path === state.path) return moved;
  const { passes, asked: _visitOver, narrowed: earlier, ...rest } = moved;
  const depth = path.length - 1;
  const onPath = (entry: { readonly node: string; readonly depth: number }) => entry.depth < depth && path[entry.depth] === entry.node;
  const keptPasses: ConfirmationPass[] = (passes ?? []).filter(onPath);
  const target = path.at(-1)!;
  if (rules.confirmationSteps.has(target)) keptPasses.push({ node: target, depth });
  const keptNarrowed: Narrowing[] = (earlier ?? []).filter((entry) => entry.depth < path.length && path[entry.depth] === entry.node);
  for (const entry of narrowed) if (path[entry.depth] === entry.node) keptNarrowed.push(entry);
  return {
    ...rest,
    ...(keptNarrowed.length === 0 ? {} : { narrowed: keptNarrowed }),
    ...(keptPasses.length === 0 ? {} : { passes: keptPasses }),
  };
}

/** Every target a move would be accepted to now (gateway mode): the rule's legal targets that evidence and data allow. */
export function allowedTargets(rules: MoveRules, state: RunState): string[] {
  const legal = legalTargets(rules.sop.transitions, state.path, state.visits, state.forks);
  return legal.filter((target) => !('rule' in domainRefusal(rules, state, target)));
}

type DomainHold =
  | { readonly kind: 'refused'; readonly rule: 'evidence' | 'data'; readonly error: string }
  | { readonly narrowed: readonly Narrowing[] };

const NO_NARROWING: readonly Narrowing[] = Object.freeze([]);

/**
 * What the domain calls say of a move the rule allows: held back for evidence or data, or going on with what the node
 * left decided the changes may be about (the entities its evidence read, those a data branch holds for).
 */
function domainRefusal(rules: MoveRules, state: RunState, target: string): DomainHold {
  const records = state.evidence ?? [];
  const current = state.path.at(-1);
  if (current === undefined || !goesOn(rules.sop.transitions, state.path, target)) return { narrowed: NO_NARROWING };
  const depth = state.path.length - 1;
  const narrowed: Narrowing[] = [];
  const requirement = rules.requirements.get(current);
  if (requirement !== undefined && !requirementMet(requirement, current, state.path, records)) {
    const node = current;
    const calls = requirement.tools.join(' or ');
    const about = requirement.about === null ? '' : ` (about the ${requirement.about} this step is for)`;
    const when = requirement.fresh === true ? 'during this visit' : 'in this run';
    return {
      kind: 'refused',
      rule: 'evidence',
      error:
        `Cannot go on from ${node} to ${target} yet: ${node} requires a call of ${calls}${about} that found it ${when}, ` +
        `and none has. Make that call here first.`,
    };
  }
  if (requirement?.about != null) {
    const name = requirement.about;
    const values = [
      ...new Set(
        records.flatMap((record) =>
          record.about?.name === name && requirementMet(requirement, current, state.path, [record]) ? [record.about.value] : [],
        ),
      ),
    ];
    if (values.length > 0) narrowed.push({ node: current, depth, name, values, why: `the ${name} read for ${current}` });
  }
  const condition = rules.conditions.get(current)?.get(target);
  if (condition === undefined) return { narrowed };
  const read = branchData(condition, records);
  const holding = read.filter((value) => value.holds);
  if (holding.length === 0) {
    return { kind: 'refused', rule: 'data', error: dataRefusal(rules, current, target, condition, read, records) };
  }
  const name = holding[0]?.entity?.name;
  if (name !== undefined) {
    const values = holding.flatMap((value) => (value.entity === null ? [] : [value.entity.value]));
    narrowed.push({ node: current, depth, name, values, why: condition.text });
  }
  return { narrowed };
}

function dataRefusal(
  rules: MoveRules,
  node: string,
  target: string,
  condition: DataCondition,
  read: ReturnType<typeof branchData>,
  records: NonNullable<RunState['evidence']>,
): string {
  const needs = `Cannot go to ${target} from ${node}: that branch needs ${condition.text}`;
  if (read.length === 0) {
    const offered = rules.offeredAt.get(condition.tool) ?? [];
    return (
      `${needs}, and no answer of ${condition.tool} was read in this run. Read it first: call ${condition.tool}` +
      `${offered.length === 0 ? '' : ` (offered at ${offered.join(', ')})`}, then decide here.`
    );
  }
  const field = condition.field.join('.');
  const values = read
    .map(
      (value) =>
        `${value.entity === null ? '' : `${value.entity.name} ${JSON.stringify(value.entity.value)}: `}${field} = ${shownValue(value.value)}`,
    )
    .join('; ');
  const allowed = [...(rules.conditions.get(node) ?? new Map<string, DataCondition>())]
    .filter(([other, otherCondition]) => other !== target && branchData(otherCondition, records).some((value) => value.holds))
    .map(([other, otherCondition]) => `${other} (${otherCondition.text})`);
  return `${needs}, and ${condition.tool} answered ${values}.` + (allowed.length === 0 ? '' : ` The data allows ${allowed.join(', ')}.`);
}

function ruleRefusal(
  rules: MoveRules,
  state: RunState,
  target: string,
  verdict: MoveRefusal,
  validNext: readonly string[],
): Extract<MoveDecision, { kind: 'refused' }> {
  const current = state.path.at(-1) ?? null;
  const base = { kind: 'refused' as const, rule: verdict.reason, current, validNext };
  if (verdict.reason === 'branch-done') {
    return { ...base, error: `Branch ${target} of fork ${verdict.fork} is done: take a branch still open, or wait for the join.` };
  }
  if (verdict.reason === 'join-outcome') {
    return {
      ...base,
      error: `Cannot go to ${target} from ${verdict.join}: the join ${verdict.outcome}, and ${target} is for a join that did not.`,
    };
  }
  if (verdict.reason === 'visit-limit') {
    const times = verdict.max === 1 ? 'once' : `${verdict.max} times`;
    return {
      ...base,
      escalateTo: verdict.escalation,
      error:
        `Cannot reach ${target} from ${current ?? 'the start'}: ${target} has been visited ${times}, its limit (max_visits: ${verdict.max}). ` +
        `Go to ${verdict.escalation}, the escalation node.`,
    };
  }
  return {
    ...base,
    error:
      current === null
        ? `Cannot reach ${target} before the conversation has started: go to ${rules.sop.transitions.entry} first`
        : `Cannot reach ${target} from ${current}`,
  };
}

function unknownNode(rules: MoveRules, typed: string): Extract<MoveDecision, { kind: 'unknown-node' }> {
  const lower = typed.toLowerCase();
  const near = rules.sop.nodeIds.find((id) => id.toLowerCase() === lower);
  const hint = near === undefined ? '' : ` Did you mean ${near}?`;
  return { kind: 'unknown-node', typed, error: `Node not found: ${typed}.${hint} Valid nodes: [${rules.sop.nodeIds.join(', ')}]` };
}

/** The policies guarding `node` whose `passes` nodes the path (the node included) does not have. */
function brokenPolicies(rules: MoveRules, path: readonly string[], node: string): readonly CompiledPolicy[] {
  const guarding = rules.policiesOfNode.get(node);
  if (guarding === undefined) return NONE;
  return guarding.filter((policy) => !passesOnPath(rules.sop.transitions, policy.passes, path));
}

const NONE: readonly CompiledPolicy[] = Object.freeze([]);

function withForks(state: RunState, forks: readonly ForkProgress[] | undefined): RunState {
  const { forks: _old, ...rest } = state;
  return forks === undefined || forks.length === 0 ? rest : { ...rest, forks };
}

function sameRecords(a: readonly ForkProgress[], b: readonly ForkProgress[]): boolean {
  return a.length === b.length && JSON.stringify(a) === JSON.stringify(b);
}
