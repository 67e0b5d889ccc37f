/**
 * `sop replay` without the command line: reads a transcript, picks the agent it is about, checks it against that
 * compiled SOP and returns the report, or the reason it could not (an unreadable file, no agent to check against).
 * The agent is the one named (`agent`), else the audit log's run's, else the one the transcript's first
 * `load_graph` names, else the bundle's only agent.
 */
import type { CompiledSop, SopBundle } from '../../../contract/compiled-sop.js';
import { checkConversation, TOOLKIT_TOOLS } from './check-conversation.js';
import type { Conversation } from './conversation.js';
import { readConversation } from './read-conversation.js';
import { type ReplayReport, replayReport } from './replay-report.js';

export interface ReplayInput {
  readonly bundle: SopBundle;
  /** The transcript's text and the name to report it under. */
  readonly text: string;
  readonly file: string;
  readonly agent?: string;
}

export type ReplayOutcome = { readonly ok: true; readonly report: ReplayReport } | { readonly ok: false; readonly error: string };

export function replay(input: ReplayInput): ReplayOutcome {
  const agents = Object.values(input.bundle.agents);
  const knownTools = new Set<string>([...TOOLKIT_TOOLS, ...agents.flatMap((sop) => sop.tools)]);
  const read = readConversation(input.text, knownTools);
  if (!read.ok) return { ok: false, error: `${input.file}: ${read.error}` };
  const chosen = chooseAgent(input.bundle, read.conversation, input.agent);
  if (typeof chosen === 'string') return { ok: false, error: chosen };
  const check = checkConversation(chosen, read.conversation);
  const run = read.conversation.run;
  return {
    ok: true,
    report: replayReport(
      {
        file: input.file,
        input: read.conversation.format,
        agent: chosen.meta.agent,
        sourceHash: chosen.sourceHash,
        run: run === undefined ? null : { runId: run.runId, sourceHash: run.sourceHash },
      },
      check,
    ),
  };
}

function chooseAgent(bundle: SopBundle, conversation: Conversation, named: string | undefined): CompiledSop | string {
  const names = Object.keys(bundle.agents);
  const byName = (name: string): CompiledSop | undefined => (Object.hasOwn(bundle.agents, name) ? bundle.agents[name] : undefined);
  const wanted = named ?? conversation.run?.agent ?? firstLoadedAgent(bundle, conversation);
  if (wanted !== undefined) return byName(wanted) ?? `no agent ${wanted} in the compiled bundle (agents: ${names.join(', ') || 'none'})`;
  if (names.length === 1) return byName(names[0]!)!;
  return `the transcript does not say which agent it is about: pass --agent (agents: ${names.join(', ') || 'none'})`;
}

function firstLoadedAgent(bundle: SopBundle, conversation: Conversation): string | undefined {
  for (const event of conversation.events) {
    if (event.kind !== 'call' || event.tool !== 'load_graph') continue;
    if (typeof event.args?.agent === 'string') return event.args.agent;
    const file = event.args?.sop_file;
    if (typeof file === 'string') {
      const name = file.replaceAll('\\', '/').split('/').at(-1);
      return Object.values(bundle.agents).find((sop) => sop.sourceFile.split('/').at(-1) === name)?.meta.agent;
    }
  }
  return undefined;
}
