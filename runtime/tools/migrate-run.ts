/**
 * Whether a run may move to a new version of its SOP, and its state once it has: pure, the run's state and the new
 * version (expanded with the SOPs it calls, as served) in, a decision out. `sop runs migrate` and `sop serve
 * --migrate-runs` commit it (`service/run-migration.ts`).
 *
 * A run moves when, with the new version's declared renames applied to every id it holds (`renames`, the called
 * SOPs' included, qualified):
 *   - every node of its path is a node of the new version, and the path is a walk the new version allows: the entry
 *     node first, then each step an edge, an escalation move of a visit limit, or the way on from a call's terminal;
 *   - every todo's completion node is a terminal of the new version, and every fork record names a fork (and its
 *     branches) of the new version at the same place on the path;
 *   - the new version's policies hold on the path: a node of it that a policy guards has one of the policy's `passes`
 *     nodes at or before it. A confirmation step the new version requires before the run's current node, that the
 *     run never passed, keeps the run on its version.
 * Otherwise it stays, and the decision says why. The visit counts, evidence, confirmation passes and a pending
 * question keep their positions (the path keeps its length), renamed.
 */
import type { CompiledSop } from '../../contract/compiled-sop.js';
import { passesOnPath } from '../../contract/composition.js';
import { entryOf, hasEntry } from '../../contract/name-table.js';
import { forkRuleOf } from '../../contract/transitions.js';
import type { RunState } from '../store/run-store.js';

export type MigrationDecision =
  | {
      readonly ok: true;
      readonly state: RunState;
      /** The renames the run needed: old id → new id. */
      readonly renamed: readonly (readonly [string, string])[];
    }
  | { readonly ok: false; readonly reason: string };

/**
 * `state` (of a run that started on `startedOn`) moved to `target`, whose version is `target.sourceHash`, or why it
 * cannot be.
 */
export function decideMigration(state: RunState, startedOn: string, target: CompiledSop): MigrationDecision {
  const used = new Map<string, string>();
  const rename = (id: string): string => {
    const renamed = entryOf(target.renames, id);
    if (renamed === undefined) return id;
    used.set(id, renamed);
    return renamed;
  };
  const table = target.transitions;
  const isNode = (id: string) => hasEntry(table.successors, id);
  const path = state.path.map(rename);
  const missing = path.find((id) => !isNode(id));
  if (missing !== undefined) {
    const old = state.path[path.indexOf(missing)];
    return {
      ok: false,
      reason: `${old} is on its path, and the new version has no such node (nor a rename of it: renames: {${old}: NEW_ID})`,
    };
  }
  if (path.length > 0 && path[0] !== table.entry) {
    return { ok: false, reason: `its path starts at ${path[0]}, and the new version's entry node is ${table.entry}` };
  }
  // A step the new version requires before a node of the path (a confirmation, say) is the reason to give first:
  // a walk of the new version passes it, so the step the path made instead is no walk of it either.
  const broken = brokenPolicy(target, path);
  if (broken !== undefined) return { ok: false, reason: broken };
  for (let i = 1; i < path.length; i++) {
    if (!isStep(target, path[i - 1]!, path[i]!)) {
      return { ok: false, reason: `its path steps from ${path[i - 1]} to ${path[i]}, which the new version does not allow` };
    }
  }
  const terminals = new Set(target.terminalNodes);
  const todos = state.todos.map((todo) =>
    todo.completion_node === undefined ? todo : { ...todo, completion_node: rename(todo.completion_node) },
  );
  const lost = todos.find((todo) => todo.completion_node !== undefined && !terminals.has(todo.completion_node));
  if (lost !== undefined) {
    return {
      ok: false,
      reason: `its todo "${lost.content}" completes at ${lost.completion_node}, which is no terminal node of the new version`,
    };
  }
  const forks = (state.forks ?? []).map((record) => ({
    ...record,
    fork: rename(record.fork),
    done: record.done.map((done) => ({ ...done, branch: rename(done.branch) })),
  }));
  for (const record of forks) {
    const rule = forkRuleOf(table, record.fork);
    if (rule === undefined || path[record.depth] !== record.fork || record.done.some((done) => !rule.branches.includes(done.branch))) {
      return { ok: false, reason: `it is inside fork ${record.fork}, which the new version does not have as it was` };
    }
  }
  const visits = Object.fromEntries(
    Object.entries(state.visits).flatMap(([node, count]) => {
      const id = rename(node);
      return isNode(id) ? [[id, count]] : [];
    }),
  );
  const { pinned: _before, evidence, passes, asked, narrowed, forks: _records, ...rest } = state;
  const moved: RunState = {
    ...rest,
    path,
    todos,
    visits,
    ...(evidence === undefined ? {} : { evidence: evidence.map((record) => ({ ...record, node: rename(record.node) })) }),
    ...(passes === undefined ? {} : { passes: passes.map((pass) => ({ ...pass, node: rename(pass.node) })) }),
    ...(narrowed === undefined ? {} : { narrowed: narrowed.map((entry) => ({ ...entry, node: rename(entry.node) })) }),
    ...(asked === undefined ? {} : { asked: { ...asked, node: rename(asked.node) } }),
    ...(forks.length === 0 ? {} : { forks }),
    ...(target.sourceHash === startedOn ? {} : { pinned: target.sourceHash }),
  };
  return { ok: true, state: moved, renamed: [...used] };
}

/** Whether the new version allows the step `from` → `to` of a path: an edge, an escalation move, a call's way on. */
function isStep(sop: CompiledSop, from: string, to: string): boolean {
  const table = sop.transitions;
  const ways = (node: string): string[] => {
    const successors = entryOf(table.successors, node) ?? [];
    const limited = [...successors, ...(node === table.entry || table.hubs.includes(node) ? [node] : [])];
    const escalations = limited.flatMap((next) => {
      const limit = entryOf(table.limits, next);
      return limit === undefined ? [] : [limit.escalation];
    });
    return [...successors, ...escalations];
  };
  if (ways(from).includes(to)) return true;
  // A call that ended: the path goes from its sub-flow node to where one of its terminals leads.
  return Object.entries(table.returns ?? {}).some(([terminal, call]) => call === from && ways(terminal).includes(to));
}

/**
 * The first policy of the new version that the path breaks, said as the reason the run stays; undefined if none.
 * A call that ended counts as passed where it ended (`passesOnPath`).
 */
function brokenPolicy(sop: CompiledSop, path: readonly string[]): string | undefined {
  for (const policy of sop.policies ?? []) {
    for (const [i, node] of path.entries()) {
      if (!policy.guards.includes(node) || passesOnPath(sop.transitions, policy.passes, path.slice(0, i + 1))) continue;
      const step = policy.confirmation === null ? 'a step' : 'a confirmation step';
      return `the new version requires ${step} (${policy.passes.join(', ')}, policy ${policy.id}) before ${node}, which its path never passed: it keeps its version`;
    }
  }
  return undefined;
}
