/**
 * `goto_node` in gateway mode: the same move rule and answers (`goto-node.ts`), plus what only the gateway can
 * know, because the domain calls pass through it:
 *   - going on from a node that requires evidence is refused until one of its tools succeeded during the visit
 *     (`contract/evidence.ts`); the refusal names the calls that would provide it, and `valid_next` lists only
 *     the moves open now (going back, restarting and escalating always are);
 *   - after a move, the evidence and the confirmation passes the run keeps are those of the nodes still on its
 *     path; entering a confirmation step adds a pass (one guarded call, for clients that cannot be asked);
 *     a question put to the user is for the visit it was asked in;
 *   - sub-flows: a run is served its agent expanded with the SOPs it calls, so a frame's evidence and passes are
 *     about its nodes at their positions in the one path; when a call ends, its evidence goes to the sub-flow node.
 */
import { QUALIFIER } from '../../contract/composition.js';
import { type EvidenceRecord, evidenceOnPath, goesOn, unmetEvidence } from '../../contract/evidence.js';
import { entryOf } from '../../contract/name-table.js';
import { legalTargets } from '../../contract/transitions.js';
import type { PreparedAgent } from '../agents/prepared-agent.js';
import type { RunState } from '../store/run-store.js';
import type { RunFacts } from './tool-definitions.js';
import { type GotoNodeAnswer, type GotoNodeInput, gotoNode, resolveTarget } from './goto-node.js';
import type { ToolOutcome } from './tool-outcome.js';

export function gatewayGotoNode(agent: PreparedAgent, state: RunState, input: GotoNodeInput, _run?: RunFacts): ToolOutcome<GotoNodeAnswer> {
  const records = state.evidence ?? [];
  const target = resolveTarget(agent, state, input.node_id);
  const unmet = unmetEvidence(agent.sop, state.path, target, records);
  if (unmet !== undefined) {
    const { node, requirement } = unmet;
    const calls = requirement.tools.join(' or ');
    const about = requirement.about === null ? '' : ` (about the ${requirement.about} this step is for)`;
    const error =
      `Cannot go on from ${node} to ${target} yet: ${node} requires a successful call of ${calls}${about} during this visit, ` +
      `and none succeeded. Make that call here first.`;
    const validNext = legalTargets(agent.transitions, state.path, state.visits, state.forks).filter(
      (next) => !goesOn(agent.transitions, state.path, next),
    );
    return { answer: { valid: false, error, current_node: node, valid_next: validNext }, state, isError: false, outcome: 'refused' };
  }
  const moved = gotoNode(agent, state, input);
  if (moved.outcome !== 'ok' || moved.state.path === state.path) return moved;
  return { ...moved, state: afterMove(agent, state.path, moved.state, moved.state.path.at(-1)!) };
}

/**
 * The gateway's part of the state after a move into `target`. A call that ended hands the evidence its nodes
 * gathered to its sub-flow node, which stays on the path: what the authentication proved binds the caller as long as
 * the call is on the path, as it would had the steps been the caller's own.
 */
function afterMove(agent: PreparedAgent, before: readonly string[], state: RunState, target: string): RunState {
  const { evidence, passes, asked: _visitOver, ...rest } = state;
  const call = returnedCall(agent, before, state.path);
  const carried =
    call === undefined
      ? (evidence ?? [])
      : (evidence ?? []).map((record) =>
          record.node.startsWith(`${call}${QUALIFIER}`) ? { ...record, node: call, depth: state.path.lastIndexOf(call) } : record,
        );
  const keptEvidence = dedupe(evidenceOnPath(carried, state.path));
  const depth = state.path.length - 1;
  const keptPasses = (passes ?? []).filter((pass) => pass.depth < depth && state.path[pass.depth] === pass.node);
  if (agent.gateway.confirmationSteps.has(target)) keptPasses.push({ node: target, depth });
  return {
    ...rest,
    ...(keptEvidence.length === 0 ? {} : { evidence: keptEvidence }),
    ...(keptPasses.length === 0 ? {} : { passes: keptPasses }),
  };
}

/** The sub-flow node whose call the move from `before` to `after` ended from its terminal, if it did. */
function returnedCall(agent: PreparedAgent, before: readonly string[], after: readonly string[]): string | undefined {
  const from = before.at(-1);
  const call = from === undefined ? undefined : entryOf(agent.transitions.returns, from);
  return call !== undefined && after.includes(call) && !after.includes(from!) ? call : undefined;
}

/** The same evidence twice is kept once. */
function dedupe(records: readonly EvidenceRecord[]): EvidenceRecord[] {
  const seen = new Set<string>();
  return records.filter((record) => {
    const key = JSON.stringify([record.node, record.depth, record.tool, record.about?.name, record.about?.value]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
