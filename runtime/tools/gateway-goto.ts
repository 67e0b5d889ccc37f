/**
 * `goto_node` in gateway mode: the same move rule and answers (`goto-node.ts`), plus what only the gateway can
 * know, because the domain calls pass through it:
 *   - going on from a node that requires evidence is refused until one of its tools succeeded during the visit
 *     (`contract/evidence.ts`); the refusal names the calls that would provide it, and `valid_next` lists only
 *     the moves open now (going back, restarting and escalating always are);
 *   - after a move, the evidence and the confirmation passes the run keeps are those of the nodes still on its
 *     path; entering a confirmation step adds a pass (one guarded call, for clients that cannot be asked);
 *     a question put to the user is for the visit it was asked in.
 */
import { evidenceOnPath, goesOn, unmetEvidence } from '../../contract/evidence.js';
import { legalTargets } from '../../contract/transitions.js';
import type { PreparedAgent } from '../agents/prepared-agent.js';
import type { RunState } from '../store/run-store.js';
import type { RunFacts } from './tool-definitions.js';
import { type GotoNodeAnswer, type GotoNodeInput, gotoNode } from './goto-node.js';
import type { ToolOutcome } from './tool-outcome.js';

export function gatewayGotoNode(agent: PreparedAgent, state: RunState, input: GotoNodeInput, _run?: RunFacts): ToolOutcome<GotoNodeAnswer> {
  const records = state.evidence ?? [];
  const unmet = unmetEvidence(agent.sop, state.path, input.node_id, records);
  if (unmet !== undefined) {
    const { node, requirement } = unmet;
    const calls = requirement.tools.join(' or ');
    const about = requirement.about === null ? '' : ` (about the ${requirement.about} this step is for)`;
    const error =
      `Cannot go on from ${node} to ${input.node_id} yet: ${node} requires a successful call of ${calls}${about} during this visit, ` +
      `and none succeeded. Make that call here first.`;
    const validNext = legalTargets(agent.transitions, state.path, state.visits).filter(
      (target) => !goesOn(agent.transitions, state.path, target),
    );
    return { answer: { valid: false, error, current_node: node, valid_next: validNext }, state, isError: false, outcome: 'refused' };
  }
  const moved = gotoNode(agent, state, input);
  if (moved.outcome !== 'ok' || moved.state.path === state.path) return moved;
  return { ...moved, state: afterMove(agent, moved.state, input.node_id) };
}

/** The gateway's part of the state after a move into `target`. */
function afterMove(agent: PreparedAgent, state: RunState, target: string): RunState {
  const { evidence, passes, asked: _visitOver, ...rest } = state;
  const keptEvidence = evidenceOnPath(evidence ?? [], state.path);
  const depth = state.path.length - 1;
  const keptPasses = (passes ?? []).filter((pass) => pass.depth < depth && state.path[pass.depth] === pass.node);
  if (agent.gateway.confirmationSteps.has(target)) keptPasses.push({ node: target, depth });
  return {
    ...rest,
    ...(keptEvidence.length === 0 ? {} : { evidence: keptEvidence }),
    ...(keptPasses.length === 0 ? {} : { passes: keptPasses }),
  };
}
