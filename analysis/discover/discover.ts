/**
 * `sop discover` without the command line: the logs in, an editable SOP draft and its report out. The stages, each
 * in its own module:
 *
 *   read the logs (`read-logs.ts`), keep their domain calls (`observed-log.ts`); when their tools' names carry a
 *     client's prefix the names alone tell (`tool-prefixes.ts`), read what was kept again without it
 *     → the opening every conversation shares (`opening.ts`) and the requests after it, grouped by intent (`intents.ts`)
 *     → a process tree per group and for the opening (`inductive-miner.ts`), turned into steps (`steps.ts`)
 *     → the flowchart (`draft-graph.ts`) and the rules the logs kept (`draft-rules.ts`)
 *     → the SOP text (`write-sop.ts`), compiled in memory (`compile-draft.ts`), refused when it would not build
 *     → the logs read again and scored against it (`draft-fit.ts`) and, with `--against`, against the written SOP
 *       (`practice.ts`).
 *
 * Deterministic: the same logs give the same draft (inputs in name order, tools numbered by name, every tie broken
 * by name or id). Bounded: the logs are read twice (once more, mostly from memory, when their tools carry a
 * client's prefix), one file at a time, and what is kept is a few bytes per call.
 */
import type { CompiledSop } from '../../contract/compiled-sop.js';
import type { Diagnostic } from '../../generator/diagnostics/diagnostic.js';
import type { ConformanceOptions } from '../conformance/conformance.js';
import type { OutcomeTable } from '../replay/batch-outcomes.js';
import { TOOLKIT_TOOLS } from '../replay/check-conversation.js';
import { type Conversation, knownToolName } from '../replay/conversation.js';
import { compileDraft } from './compile-draft.js';
import { type DiscoverReport, discoverReport } from './discover-report.js';
import { DraftFit } from './draft-fit.js';
import { type DraftIntent, draftGraph, upperSnake } from './draft-graph.js';
import { draftRules } from './draft-rules.js';
import { eventLog } from './event-log.js';
import { DEFAULT_NOISE, mineTree } from './inductive-miner.js';
import { groupIntents, INFO, type Segment } from './intents.js';
import { type ObservedConversation, ObservedLog } from './observed-log.js';
import { findOpening } from './opening.js';
import { Practice } from './practice.js';
import { KeptLogs, readLogs } from './read-logs.js';
import { stepsOf } from './steps.js';
import { inferToolPrefixes, type Unprefixed } from './tool-prefixes.js';
import { type DraftFacts, writeSop } from './write-sop.js';

export interface DiscoverInput {
  readonly inputs: readonly string[];
  /** Transcript names are shown relative to it. */
  readonly root: string;
  /** The draft's agent name. */
  readonly agent: string;
  /** The project path the draft is (or would be) written to, as its diagnostics name it. */
  readonly file: string;
  /** IMf's noise threshold, in [0, 1] (default DEFAULT_NOISE). */
  readonly noise?: number;
  readonly outcomes?: { readonly table: OutcomeTable; readonly name: string };
  /** Mine only the conversations that succeeded (by `outcomes` or τ²-bench rewards). */
  readonly onlySuccesses?: boolean;
  /** The written SOP to compare practice with (compiled), and its path as shown. */
  readonly against?: { readonly sop: CompiledSop; readonly file: string };
  readonly conformance?: ConformanceOptions;
  /** What the first pass keeps for the second at most, estimated in bytes (default KEPT_BYTES); 0 reads twice. */
  readonly keptBytes?: number;
  /** Told how the passes over the logs go (every 100 files). */
  readonly progress?: (message: string) => void;
}

export type DiscoverOutcome =
  | { readonly ok: true; readonly report: DiscoverReport; readonly draft: string }
  | { readonly ok: false; readonly error: string; readonly diagnostics?: readonly Diagnostic[]; readonly draft?: string };

/**
 * The conversation with its tools named as a reader told of `known` names them (`mcp__retail-tools__cancel_pending_order`
 * is `cancel_pending_order` once the draft offers it): what the first pass kept was read knowing fewer tools. A name
 * whose prefix was inferred (`unprefixed`) is the tool mined for it.
 */
function withToolNames(conversation: Conversation, known: ReadonlySet<string>, unprefixed: ReadonlyMap<string, Unprefixed>): Conversation {
  let changed = false;
  const events = conversation.events.map((event) => {
    if (event.kind !== 'call') return event;
    const tool = unprefixed.get(event.tool)?.tool ?? knownToolName(event.tool, known);
    if (tool === event.tool) return event;
    changed = true;
    return { ...event, tool };
  });
  return changed ? { ...conversation, events } : conversation;
}

export function discover(input: DiscoverInput): DiscoverOutcome {
  const noise = input.noise ?? DEFAULT_NOISE;
  const known = new Set<string>([...TOOLKIT_TOOLS, ...(input.against?.sop.tools ?? [])]);
  let log = new ObservedLog(known);
  const kept = new KeptLogs(input.keptBytes);
  const first = readLogs(
    {
      inputs: input.inputs,
      root: input.root,
      known,
      keep: kept,
      ...(input.outcomes === undefined ? {} : { outcomes: input.outcomes.table }),
      progress: (done, files) => input.progress?.(`read ${done}/${files} files, ${log.conversations.length} conversations`),
    },
    (c) => log.add(c.name, c.transcript, c.success),
  );
  if (!first.ok) return first;
  let superseded = log.finish();
  // Tools named with a client's prefix (`mcp_retail-tools_get_order_details`) are mined as the tools they stand for.
  // Their names decide what the first pass kept of them (a read's answer, the entities it named), so the
  // conversations are observed again, from what was kept (the files that did not fit are read again).
  const unprefixed = inferToolPrefixes(log.tools);
  if (unprefixed.size > 0) {
    const again = new ObservedLog(known, unprefixed);
    const reread = readLogs(
      {
        inputs: input.inputs,
        root: input.root,
        known,
        kept,
        ...(input.outcomes === undefined ? {} : { outcomes: input.outcomes.table }),
        progress: (done, files) => input.progress?.(`read ${done}/${files} files again, tool prefixes taken off`),
      },
      (c) => again.add(c.name, c.transcript, c.success),
    );
    if (!reread.ok) return reread;
    log = again;
    superseded = log.finish();
  }
  // The conversations mined, and where each conversation read stands among them (-1: not mined).
  const mined: ObservedConversation[] = [];
  const minedIndex = Int32Array.from(log.conversations, (c) => {
    if (input.onlySuccesses === true && c.success !== true) return -1;
    mined.push(c);
    return mined.length - 1;
  });
  const where = input.inputs.join(', ');
  if (log.conversations.length === 0) return { ok: false, error: `no conversation in ${where}` };
  if (mined.length === 0)
    return { ok: false, error: `none of the ${log.conversations.length} conversations succeeded (--only-successes): nothing to mine` };
  if (mined.every((c) => c.calls.length === 0))
    return { ok: false, error: `the ${mined.length} conversations mined call no domain tool: nothing to mine` };

  const opening = findOpening(mined, log.kinds, noise);
  const intents = groupIntents(mined, opening.ends, log.kinds, noise);
  const name = (tool: number): string => log.tools[tool]!;
  const openingSteps =
    opening.tools.length === 0
      ? null
      : stepsOf(mineTree(eventLog(mined.map((c, i) => ({ trace: c.calls.subarray(0, opening.ends[i]), count: 1 }))), noise), log.kinds);
  const drafted: DraftIntent[] = [];
  const groupOf = new Map<number, number>();
  for (const group of intents.groups) {
    const tree = mineTree(
      eventLog(group.segments.map((s) => ({ trace: mined[s.conversation]!.calls.subarray(s.start, s.end), count: 1 }))),
      noise,
    );
    const steps = stepsOf(tree, log.kinds);
    if (steps === null) continue;
    groupOf.set(group.intent, drafted.length);
    const tool = group.intent === INFO ? null : name(group.intent);
    drafted.push({
      name: tool === null ? 'INFO' : upperSnake(tool),
      label: tool ?? 'a question (reads only)',
      done: tool === null ? 'Question answered' : `Done: ${tool}`,
      steps,
      weight: group.segments.length,
    });
  }
  if (drafted.length === 0 && openingSteps === null) return { ok: false, error: `no request in ${where} was seen often enough to draft` };

  const graph = draftGraph(openingSteps, drafted, name);
  const rules = draftRules(
    graph,
    {
      conversations: mined,
      tools: log.tools,
      readArguments: log.readArguments,
      fieldValues: log.fields.values,
      before: log.fields.before,
      successesOnly: input.onlySuccesses === true,
    },
    opening.ends,
    noise,
  );
  const segmentsOf = new Map<number, Segment[]>();
  for (const group of intents.groups)
    for (const s of group.segments) segmentsOf.set(s.conversation, [...(segmentsOf.get(s.conversation) ?? []), s]);
  const partOf = (conversation: number, call: number): number | 'opening' | undefined => {
    if (call < opening.ends[conversation]!) return 'opening';
    const segment = segmentsOf.get(conversation)?.find((s) => s.start <= call && call < s.end);
    return segment === undefined ? undefined : groupOf.get(segment.intent);
  };
  const calls = new Map<number | 'opening', Map<number, number>>();
  const requests = new Map<number | 'opening', number>();
  const tally = (part: number | 'opening', trace: ArrayLike<number>) => {
    const counts = calls.get(part) ?? new Map<number, number>();
    for (let k = 0; k < trace.length; k++) counts.set(trace[k]!, (counts.get(trace[k]!) ?? 0) + 1);
    calls.set(part, counts);
    requests.set(part, (requests.get(part) ?? 0) + 1);
  };
  for (const [i, c] of mined.entries()) if (opening.ends[i]! > 0) tally('opening', c.calls.subarray(0, opening.ends[i]));
  for (const group of intents.groups) {
    const part = groupOf.get(group.intent);
    if (part !== undefined) for (const s of group.segments) tally(part, mined[s.conversation]!.calls.subarray(s.start, s.end));
  }
  const facts: DraftFacts = {
    agent: input.agent,
    conversations: mined.length,
    noise,
    tools: log.tools,
    calls,
    requests,
    servers: [...log.servers].sort(),
    example: (tools, part) => {
      for (const tool of tools)
        for (const example of log.examples.get(name(tool)) ?? []) {
          const k = minedIndex[example.conversation]!;
          if (k >= 0 && partOf(k, example.call) === part) return example;
        }
      return undefined;
    },
  };
  const draft = writeSop(graph, rules, facts);
  const compiled = compileDraft(input.file, draft);
  if (!compiled.ok) return { ok: false, error: compiled.error, diagnostics: compiled.diagnostics, draft };

  const fit = new DraftFit(compiled.sop, input.conformance);
  const practice = input.against === undefined ? undefined : new Practice(input.against.sop, input.against.file, input.conformance);
  const dropped = new Set(superseded);
  const scored = new Set([...known, ...compiled.sop.tools]);
  const second = readLogs(
    {
      inputs: input.inputs,
      root: input.root,
      known: scored,
      kept,
      ...(input.outcomes === undefined ? {} : { outcomes: input.outcomes.table }),
      progress: (done, files) => input.progress?.(`scored ${done}/${files} files`),
    },
    (c) => {
      if (dropped.has(c.name)) return;
      const conversation = withToolNames(c.transcript.conversation, scored, unprefixed);
      fit.add(c.name, conversation, input.onlySuccesses !== true || c.success === true, c.success);
      practice?.add(c.name, conversation);
    },
  );
  if (!second.ok) return second;

  return {
    ok: true,
    draft,
    report: discoverReport({
      agent: input.agent,
      noise,
      onlySuccesses: input.onlySuccesses === true,
      log,
      mined: mined.length,
      superseded,
      outcomes: input.outcomes,
      matchedKeys: first.problems.matchedKeys,
      graph,
      intents,
      drafted,
      rules,
      warnings: compiled.warnings,
      fit: fit.summary(),
      practice: practice?.summary(),
      problems: first.problems,
    }),
  };
}
