/**
 * Reads a run's audit log, as `sop runs show RUN --format json` prints it (`{store, run, audit}`), into a
 * `Conversation`. An audit log holds the calls the SOP server answered (load_graph, goto_node, todo, inspect) with
 * their outcome; it holds neither what the user and the agent said nor the domain tools, which other servers
 * answer, so a replay of it checks the moves, the visit limits and the terminal, and says what it could not check.
 */
import type { Conversation, ConversationEvent } from './conversation.js';

export type AuditRead = { readonly ok: true; readonly conversation: Conversation } | { readonly ok: false; readonly error: string };

export function readAudit(value: { readonly run: unknown; readonly audit: unknown }): AuditRead {
  const run = value.run as Record<string, unknown> | null;
  if (run === null || typeof run !== 'object' || typeof run.agent !== 'string' || typeof run.sourceHash !== 'string') {
    return { ok: false, error: '`run` is not a run of `sop runs show --format json` (it needs agent and sourceHash)' };
  }
  if (!Array.isArray(value.audit)) return { ok: false, error: '`audit` is not a list of audit entries' };
  const events: ConversationEvent[] = [];
  for (const [index, entry] of value.audit.entries()) {
    const e = entry as Record<string, unknown> | null;
    if (e === null || typeof e !== 'object' || typeof e.seq !== 'number' || typeof e.tool !== 'string' || typeof e.outcome !== 'string') {
      return { ok: false, error: `audit entry ${index} is not an audit entry (it needs seq, tool and outcome)` };
    }
    const input = e.input;
    const args = input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : null;
    events.push({
      kind: 'call',
      tool: e.tool,
      args,
      ...(args === null ? { argsProblem: 'the recorded input is not an object' } : {}),
      ...(e.tool === 'goto_node' ? { recorded: { valid: e.outcome === 'ok' } } : {}),
      place: { seq: e.seq },
    });
  }
  return {
    ok: true,
    conversation: {
      format: 'audit',
      events,
      run: { runId: typeof run.runId === 'string' ? run.runId : '', agent: run.agent, sourceHash: run.sourceHash },
    },
  };
}
