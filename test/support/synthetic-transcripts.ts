/**
 * Transcripts of an agent that walks a SOP, made from the walk: at each node it enters, the agent moves there
 * (`goto_node`, when it declares its moves) and calls the node's tool, asking the user and hearing "Yes." before a
 * call a confirmation policy guards. As a list of acts, so a test can plant a deviation (drop a call, move one,
 * drop a "yes", go round once more) before turning it into chat messages.
 */
import { requirementOf } from '../../contract/run/evidence.js';
import type { CompiledSop } from '../../contract/compiled-sop.js';
import { call, type ChatStep, say, user } from './chat-transcripts.js';

export type Act =
  | { readonly act: 'move'; readonly node: string }
  | { readonly act: 'call'; readonly node: string; readonly tool: string }
  | { readonly act: 'say'; readonly text: string }
  | { readonly act: 'user'; readonly text: string };

/** The tool an agent calls at `node`: one a confirmation policy guards (the node's purpose), else its first; or none. */
export function toolAt(sop: CompiledSop, node: string): string | null {
  const tools = sop.toolsByNode[node] ?? [];
  const guarded = tools.find((tool) => confirmationGuards(sop, tool));
  // A node that requires evidence is passed by a call of its evidence tools, as a conforming agent makes.
  const evidence = requirementOf(sop, node)?.tools[0];
  return guarded ?? evidence ?? tools[0] ?? null;
}

export function confirmationGuards(sop: CompiledSop, tool: string): boolean {
  return (sop.policies ?? []).some((p) => p.confirmation !== null && p.tools.includes(tool));
}

export function actsOfWalk(sop: CompiledSop, walk: readonly string[]): Act[] {
  const acts: Act[] = [];
  for (const node of walk) {
    acts.push({ act: 'move', node });
    const tool = toolAt(sop, node);
    if (tool === null) continue;
    if (confirmationGuards(sop, tool))
      acts.push({ act: 'say', text: `To confirm: ${tool}. Shall I? Yes or no?` }, { act: 'user', text: 'Yes.' });
    acts.push({ act: 'call', node, tool });
  }
  return acts;
}

/** The acts as chat steps; `declare` keeps the moves as goto_node calls, else they are left out (inferred walk). */
export function chatStepsOf(acts: readonly Act[], declare: boolean): ChatStep[] {
  return acts.flatMap((a): ChatStep[] => {
    if (a.act === 'move') return declare ? [call('goto_node', { node_id: a.node })] : [];
    if (a.act === 'call') return [call(a.tool, {})];
    return [a.act === 'say' ? say(a.text) : user(a.text)];
  });
}

/** The step number `sop replay` gives the act at `index` (moves count only when declared). */
export function stepOf(acts: readonly Act[], index: number, declare: boolean): number {
  let step = 0;
  for (const [i, a] of acts.entries()) {
    if (a.act === 'call' || (declare && a.act === 'move')) step += 1;
    if (i === index) return step;
  }
  throw new Error(`act ${index} is not a step`);
}
