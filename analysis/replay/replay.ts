/**
 * `sop replay` without the command line: reads a transcript, picks the agent it is about, checks it against that
 * compiled SOP and returns the report, or the reason it could not (an unreadable file, no agent to check against).
 * The agent is the one named (`agent`), else the audit log's run's, else the one the transcript's first
 * `load_graph` names, else the bundle's only agent, else the only agent whose tools include every tool of any
 * agent the transcript calls (an agent that never called load_graph is known by its tools).
 *
 * Every transcript gets both views: the conformance of its calls to the SOP by alignment (fitness, deviations,
 * the walk), and the step-by-step checks with their verdict. With goto_node calls the checks follow the declared
 * moves, as the server decided them; without, they follow the walk the alignment inferred.
 */
import type { CompiledSop, SopBundle } from '../../contract/compiled-sop.js';
import { composeSop } from '../../contract/composition.js';
import { answerValue } from '../../contract/run/call-results.js';
import { type ConformanceOptions, conformance } from '../conformance/conformance.js';
import { type ConversationCheck, checkConversation, type Finding, TOOLKIT_TOOLS } from './check-conversation.js';
import type { Conversation } from './conversation.js';
import { readTranscripts, type Transcript } from './read-conversation.js';
import { type ReplayReport, replayReport } from './replay-report.js';

export interface ReplayInput {
  readonly bundle: SopBundle;
  /** The transcript's text and the name to report it under. */
  readonly text: string;
  readonly file: string;
  readonly agent?: string;
  readonly conformance?: ConformanceOptions;
}

export type ReplayOutcome = { readonly ok: true; readonly report: ReplayReport } | { readonly ok: false; readonly error: string };

/** One replayed transcript of a file, with what the file said about it. */
export interface ReplayedTranscript {
  readonly transcript: Transcript;
  readonly outcome: ReplayOutcome;
}

export type ReplayFileOutcome =
  | { readonly ok: true; readonly transcripts: readonly ReplayedTranscript[] }
  | { readonly ok: false; readonly error: string };

/** A file of one transcript; a file of several is an error that says to replay them as a batch. */
export function replay(input: ReplayInput): ReplayOutcome {
  const read = replayFile(input);
  if (!read.ok) return read;
  const [first, ...more] = read.transcripts;
  if (first === undefined) return { ok: false, error: `${input.file}: the file holds no conversation` };
  if (more.length > 0)
    return { ok: false, error: `${input.file}: the file holds ${read.transcripts.length} conversations; replay them as a batch` };
  return first.outcome;
}

/** Every transcript of a file (τ²-bench results and JSON Lines of conversations hold several). */
export function replayFile(input: ReplayInput): ReplayFileOutcome {
  const read = readTranscripts(input.text, knownTools(input.bundle));
  if (!read.ok) return { ok: false, error: `${input.file}: ${read.error}` };
  return {
    ok: true,
    transcripts: read.transcripts.map((transcript) => ({
      transcript,
      outcome: replayTranscript(
        input.bundle,
        transcript,
        transcript.id === undefined ? input.file : `${input.file}#${transcript.id}`,
        input,
      ),
    })),
  };
}

/** Tool names a reader should recognise behind an MCP client's prefix: the toolkit's and every agent's. */
export function knownTools(bundle: SopBundle): ReadonlySet<string> {
  return new Set<string>([...TOOLKIT_TOOLS, ...Object.values(bundle.agents).flatMap((sop) => sop.tools)]);
}

function replayTranscript(
  bundle: SopBundle,
  transcript: Transcript,
  file: string,
  options: { readonly agent?: string; readonly conformance?: ConformanceOptions },
): ReplayOutcome {
  const chosen = chooseAgent(bundle, transcript.conversation, options.agent);
  if (typeof chosen === 'string') return { ok: false, error: chosen };
  const conversation = answersRead(transcript.conversation, chosen);
  const aligned = conformance(chosen, conversation, options.conformance);
  const inferred = aligned.conformance.mode === 'inferred';
  const check = inferred
    ? withAlignmentFindings(checkConversation(chosen, aligned.effective, { inferred: true }), aligned)
    : checkConversation(chosen, conversation);
  const run = conversation.run;
  return {
    ok: true,
    report: replayReport(
      {
        file,
        input: conversation.format,
        reader: conversation.reader ?? 'audit',
        notes: conversation.notes ?? [],
        agent: chosen.meta.agent,
        sourceHash: chosen.sourceHash,
        run: run === undefined ? null : { runId: run.runId, sourceHash: run.sourceHash },
      },
      check,
      { ...aligned.conformance, disagreements: inferred ? [] : disagreements(check, aligned.nodeAt, aligned.stepAt) },
    ),
  };
}

/**
 * An inferred walk's findings besides the step checks: what the gateway would have held its moves for (required
 * steps skipped, with their policy's severity; branches the data contradicts), and one warning for the calls of tools
 * the SOP does not know, which it does not judge.
 */
function withAlignmentFindings(check: ConversationCheck, aligned: ReturnType<typeof conformance>): ConversationCheck {
  const findings: Finding[] = [...check.findings];
  for (const deviation of aligned.conformance.deviations) {
    if (deviation.kind !== 'skipped_required' && deviation.kind !== 'against_data') continue;
    const finding: Finding = {
      severity: deviation.severity,
      rule: deviation.kind,
      step: deviation.step,
      node: deviation.node,
      message: deviation.message,
      at: deviation.at,
    };
    const before = findings.findIndex((f) => f.step === null || (deviation.step !== null && f.step > deviation.step));
    findings.splice(before < 0 ? findings.length : before, 0, finding);
  }
  const unknown = Object.entries(aligned.conformance.unknown_tools);
  if (unknown.length > 0) {
    const calls = unknown.reduce((sum, [, n]) => sum + n, 0);
    findings.push({
      severity: 'warning',
      rule: 'unknown_tools',
      step: null,
      node: null,
      message: `${calls} call${calls === 1 ? '' : 's'} of tools this SOP does not list, not judged: ${unknown.map(([name, n]) => `${name} ×${n}`).join(', ')}`,
      at: null,
    });
  }
  return { ...check, findings };
}

/** Calls the declared moves place at another node than the walk does. */
function disagreements(
  check: ConversationCheck,
  nodeAt: ReadonlyMap<number, string | null>,
  stepAt: ReadonlyMap<number, number>,
): { readonly step: number; readonly tool: string; readonly declared: string | null; readonly inferred: string | null }[] {
  const eventOf = new Map([...stepAt].map(([index, step]) => [step, index]));
  return check.steps.flatMap((step) => {
    if (step.kind !== 'call') return [];
    const index = eventOf.get(step.step);
    if (index === undefined || !nodeAt.has(index)) return [];
    const inferred = nodeAt.get(index)!;
    return inferred === step.from ? [] : [{ step: step.step, tool: step.name, declared: step.from, inferred }];
  });
}

function chooseAgent(bundle: SopBundle, conversation: Conversation, named: string | undefined): CompiledSop | string {
  const names = Object.keys(bundle.agents);
  const byName = (name: string): CompiledSop | undefined => (Object.hasOwn(bundle.agents, name) ? bundle.agents[name] : undefined);
  const wanted = named ?? conversation.run?.agent ?? firstLoadedAgent(bundle, conversation);
  if (wanted !== undefined) {
    const found = byName(wanted);
    return found === undefined
      ? `no agent ${wanted} in the compiled bundle (agents: ${names.join(', ') || 'none'})`
      : expanded(bundle, found);
  }
  if (names.length === 1) return expanded(bundle, byName(names[0]!)!);
  const byTools = agentOfTools(bundle, conversation);
  if (byTools !== undefined) return expanded(bundle, byTools);
  return `the transcript does not say which agent it is about: pass --agent (agents: ${names.join(', ') || 'none'})`;
}

/**
 * The agent as the server serves it: expanded with the SOPs it calls (`contract/composition.ts`), once per bundle and
 * agent: every transcript of a batch then gets the same object, which the alignment's and the checks' caches key on.
 */
function expanded(bundle: SopBundle, sop: CompiledSop): CompiledSop | string {
  const known = expansions.get(bundle)?.get(sop);
  if (known !== undefined) return known;
  const composed = composeSop(sop, (name) => (Object.hasOwn(bundle.agents, name) ? bundle.agents[name] : undefined));
  const result = composed.ok ? composed.sop : `${sop.meta.agent} cannot be expanded with the SOPs it calls: ${composed.error}`;
  let byAgent = expansions.get(bundle);
  if (byAgent === undefined) expansions.set(bundle, (byAgent = new WeakMap()));
  byAgent.set(sop, result);
  return result;
}

const expansions = new WeakMap<SopBundle, WeakMap<CompiledSop, CompiledSop | string>>();

/** Per bundle: its agents, and every tool some agent lists. */
const toolsOfBundles = new WeakMap<SopBundle, { readonly agents: readonly CompiledSop[]; readonly any: ReadonlySet<string> }>();

/** The only agent whose tools include every called tool that some agent lists; undefined when none or several. */
function agentOfTools(bundle: SopBundle, conversation: Conversation): CompiledSop | undefined {
  let tools = toolsOfBundles.get(bundle);
  if (tools === undefined) {
    const agents = Object.values(bundle.agents);
    tools = { agents, any: new Set(agents.flatMap((sop) => sop.tools)) };
    toolsOfBundles.set(bundle, tools);
  }
  const called = new Set<string>();
  for (const event of conversation.events) if (event.kind === 'call' && tools.any.has(event.tool)) called.add(event.tool);
  if (called.size === 0) return undefined;
  const fitting = tools.agents.filter((sop) => [...called].every((tool) => sop.tools.includes(tool)));
  return fitting.length === 1 ? fitting[0] : undefined;
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

/**
 * The conversation with the answers the SOP keeps as evidence read once (their JSON text parsed into `structured`):
 * the alignment and the step checks each give every answer to the step function, which would read it twice.
 */
function answersRead(conversation: Conversation, sop: CompiledSop): Conversation {
  const evidenceTools = new Set<string>();
  for (const requirement of Object.values(sop.evidence ?? {})) for (const tool of requirement?.tools ?? []) evidenceTools.add(tool);
  for (const byTarget of Object.values(sop.conditions ?? {}))
    for (const condition of Object.values(byTarget ?? {})) evidenceTools.add(condition.tool);
  if (evidenceTools.size === 0) return conversation;
  let changed = false;
  const events = conversation.events.map((event) => {
    if (event.kind !== 'call' || event.result === undefined || event.result.structured !== undefined || !evidenceTools.has(event.tool))
      return event;
    changed = true;
    return { ...event, result: { ...event.result, structured: answerValue(event.result) } };
  });
  return changed ? { ...conversation, events } : conversation;
}
