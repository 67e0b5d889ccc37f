/**
 * The preview's walk: `goto_node` played from a fresh run through the runtime's own tool functions (the pure
 * `gotoNode` the server calls, on the agent prepared as the server prepares it), so each answer is byte for byte what
 * an agent would receive, and each is counted in o200k tokens when the optional tokenizer is installed. The page
 * sends the moves so far; they are replayed on the SOP as it is now, so a walk survives an edit of the file (the
 * first move the new version refuses is shown refused, with what is legal instead).
 */
import type { CompiledSop } from '../../contract/compiled-sop.js';
import type { CountTokens } from '../../generator/tokens/token-counter.js';
import { prepareAgent } from '../../contract/answers/prepared-agent.js';
import { EMPTY_RUN_STATE } from '../../runtime/store/run-store.js';
import { validNext } from '../../contract/answers/goto-answer.js';
import { gotoNode } from '../../runtime/tools/goto-node.js';
import type { Walk, WalkStep } from './preview-api.js';

/** Longest walk replayed: far more moves than any page makes by hand. */
export const MAX_MOVES = 500;

export function playWalk(sop: CompiledSop, moves: readonly string[], count: CountTokens | null): Walk {
  const agent = prepareAgent(sop);
  let state = EMPTY_RUN_STATE;
  const steps: WalkStep[] = [];
  for (const move of moves.slice(0, MAX_MOVES)) {
    const outcome = gotoNode(agent, state, { node_id: move });
    const answer = outcome.text ?? JSON.stringify(outcome.answer);
    const valid = !outcome.isError && outcome.outcome === 'ok';
    state = outcome.state;
    steps.push({
      move,
      answer,
      valid,
      tokens: count === null ? null : count(answer),
      path: state.path,
      terminal: valid && (agent.nodes.get(move)?.terminal ?? false),
    });
  }
  return { entry: agent.entryNode, steps, next: validNext(agent, state) };
}
