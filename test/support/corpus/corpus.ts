/**
 * The corpus: conversations of the retail SOP with the real domain server's answers, clean ones and, paired with
 * each (from the same seed), one with a planted deviation, in both modes (inferred, declared) and written in each
 * log format the replay reads. Deterministic: the same options give the same bytes.
 *
 * `count` clean conversations are drawn; the n-th gets the planted kind `kinds[n % (kinds.length + 1)]`, the last
 * slot none (a clean conversation alone), so every kind appears once `count` reaches `kinds.length`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CompiledSop, SopBundle } from '../../../contract/compiled-sop.js';
import { random } from '../../../fuzz/random.js';
import type { Act } from './acts.js';
import { assemble } from './assemble.js';
import { changesData } from './intents.js';
import { type ConversationSpec, type Pattern, planConversation } from './plan.js';
import { DECLARED_ONLY, type Label, PLANTED_KINDS, type PlantedKind, plantInActs, plantInPlan } from './plant.js';
import { type CorpusCall, type Mode, record } from './record.js';
import { openRetailDomain } from './retail-domain.js';
import { type Customer, customersOf } from './seed-facts.js';
import { writeAnthropicMessages } from './writers/anthropic-messages.js';
import { writeClaudeCode } from './writers/claude-code.js';
import { writeOpenaiChat } from './writers/openai-chat.js';
import { writeOpenaiResponses } from './writers/openai-responses.js';
import { tau2Simulation, writeTau2Results, writeTau2Simulation } from './writers/tau2.js';
import type { Turn } from './writers/turns.js';
import { walksOf } from './walks.js';

export const FORMATS = ['openai-chat', 'tau2-simulation', 'tau2-results', 'anthropic-messages', 'claude-code', 'openai-responses'] as const;
export type Format = (typeof FORMATS)[number];
export const MODES: readonly Mode[] = ['inferred', 'declared'];

export interface CorpusOptions {
  readonly seed?: number;
  /** Clean conversations drawn (each with its planted pair, but one in `kinds.length + 1`); default 30. */
  readonly count?: number;
  readonly modes?: readonly Mode[];
  readonly formats?: readonly Format[];
  /** The planted kinds, in the order they are dealt; default all (`PLANTED_KINDS`). */
  readonly kinds?: readonly PlantedKind[];
  /** The compiled retail SOP; default the repository's (`generated/sop-bundle.json`). */
  readonly sop?: CompiledSop;
}

export interface CorpusEntry {
  /** `c007-against_data-declared-claude-code`: the conversation, its label, mode and format. */
  readonly id: string;
  /** The clean conversation drawn: its planted pair has the same `base`. */
  readonly base: number;
  readonly label: Label;
  /** For a planted conversation: the id of the clean one it came from, in the same mode and format. */
  readonly pairedWith?: string;
  readonly mode: Mode;
  readonly format: Format;
  /** A file name for the text (`.jsonl` for a Claude Code log). */
  readonly file: string;
  readonly text: string;
  /** Every call in order, with what it answered (domain calls: the server's answer; toolkit calls: see `record.ts`). */
  readonly calls: readonly CorpusCall[];
  /** As τ²-bench rewards a task: 1 when the database ends as its clean pair's does (always, for a clean one), else 0. */
  readonly reward: number;
  readonly pattern: Pattern;
  readonly user: string;
}

const DEFAULT_COUNT = 30;
/** Draws before a slot's kind is given up on (it fits no plan drawn). */
const ATTEMPTS = 64;

export function corpus(options: CorpusOptions = {}): CorpusEntry[] {
  const { seed = 1, count = DEFAULT_COUNT, modes = MODES, formats = FORMATS, kinds = PLANTED_KINDS } = options;
  const sop = options.sop ?? repositoryRetailSop();
  const walks = walksOf(sop);
  const data = openRetailDomain().data();
  const customers = customersOf(data);
  const bases = random(seed);
  const entries: CorpusEntry[] = [];
  for (let base = 0; base < count; base++) {
    const baseSeed = Math.floor(bases.next() * 2 ** 32);
    const kind = kinds[base % (kinds.length + 1)];
    const drawn = draw(baseSeed, kind, sop, walks, data, customers);
    const conversations: { label: Label; acts: readonly Act[]; spec: ConversationSpec }[] = [{ label: 'clean', ...drawn.clean }];
    if (drawn.planted !== undefined && kind !== undefined) conversations.push({ label: kind, ...drawn.planted });
    for (const mode of modes) {
      let cleanDatabase = '';
      for (const { label, acts, spec } of conversations) {
        if (label !== 'clean' && DECLARED_ONLY.has(label) && mode !== 'declared') continue;
        const n = base * 4 + (label === 'clean' ? 0 : 2) + (mode === 'declared' ? 1 : 0);
        const conversation = `c${String(base).padStart(3, '0')}-${label}-${mode}`;
        const recorded = record(acts, mode, sop, `run_corpus_${conversation}`);
        if (label === 'clean') cleanDatabase = recorded.database;
        const reward = recorded.database === cleanDatabase ? 1 : 0;
        for (const format of formats) {
          const id = `${conversation}-${format}`;
          entries.push({
            id,
            base,
            label,
            ...(label === 'clean' ? {} : { pairedWith: `c${String(base).padStart(3, '0')}-clean-${mode}-${format}` }),
            mode,
            format,
            file: `${id}${format === 'claude-code' ? '.jsonl' : '.json'}`,
            text: write(format, recorded.turns, n, reward, id),
            calls: recorded.calls,
            reward,
            pattern: spec.pattern,
            user: spec.customer.userId,
          });
        }
      }
    }
  }
  return entries;
}

function write(format: Format, turns: readonly Turn[], n: number, reward: number, id: string): string {
  switch (format) {
    case 'openai-chat':
      return writeOpenaiChat(turns, { n });
    case 'tau2-simulation':
      return writeTau2Simulation(turns, { n, reward, id });
    case 'tau2-results':
      return writeTau2Results([tau2Simulation(turns, { n, reward, id })]);
    case 'anthropic-messages':
      return writeAnthropicMessages(turns, { n });
    case 'claude-code':
      return writeClaudeCode(turns, { n });
    case 'openai-responses':
      return writeOpenaiResponses(turns, { n });
  }
}

interface Drawn {
  readonly clean: { readonly acts: readonly Act[]; readonly spec: ConversationSpec };
  readonly planted?: { readonly acts: readonly Act[]; readonly spec: ConversationSpec };
}

/**
 * A clean plan from the base's seed whose every call the server answers as planned (each change done, each lookup
 * found but a failed one planted on purpose), and the kind planted in it; drawn again (the next seeds of the base)
 * while the kind does not apply. A kind that fits no plan in `ATTEMPTS` draws leaves the clean one alone.
 */
function draw(
  baseSeed: number,
  kind: PlantedKind | undefined,
  sop: CompiledSop,
  walks: ReturnType<typeof walksOf>,
  data: ReturnType<ReturnType<typeof openRetailDomain>['data']>,
  customers: readonly Customer[],
): Drawn {
  let fallback: Drawn['clean'] | undefined;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const rng = random((baseSeed + attempt * 0x9e3779b9) >>> 0);
    const spec = planConversation(rng, data, customers);
    const acts = assemble(spec, sop, walks);
    if (!answersAsPlanned(acts, sop)) continue;
    fallback ??= { acts, spec };
    if (kind === undefined) return { clean: { acts, spec } };
    if (kind !== 'no_auth' && kind !== 'empty_lookup' && !spec.intents.some(changesData)) continue;
    const plantRng = random((baseSeed ^ 0x5bd1e995) + attempt);
    const plantedSpec = plantInPlan(kind, spec, data, plantRng);
    if (plantedSpec === null) continue;
    const plantedActs = plantInActs(kind, plantedSpec === spec ? acts : assemble(plantedSpec, sop, walks), plantedSpec, plantRng);
    if (plantedActs === null) continue;
    return { clean: { acts, spec }, planted: { acts: plantedActs, spec: plantedSpec } };
  }
  if (fallback === undefined) throw new Error(`no plan of seed ${baseSeed} is answered as planned`);
  return { clean: fallback };
}

/** Whether every call succeeded, but for a failed lookup the plan retries on purpose (once, and the retry finds the user). */
function answersAsPlanned(acts: readonly Act[], sop: CompiledSop): boolean {
  const planned = acts.filter((a) => a.act === 'call');
  const { calls } = record(acts, 'inferred', sop, 'run_check');
  const isLookup = (i: number) => planned[i]?.act === 'call' && planned[i].role === 'lookup';
  let failedLookups = 0;
  for (const [i, call] of calls.entries()) {
    if (call.result.isError !== true) continue;
    if (!isLookup(i)) return false;
    failedLookups += 1;
  }
  return failedLookups <= 1 && calls.findLast((_call, i) => isLookup(i))?.result.isError !== true;
}

let repositorySop: CompiledSop | undefined;

/** The repository's compiled retail SOP (`generated/sop-bundle.json`), from the source tree or from dist/. */
export function repositoryRetailSop(): CompiledSop {
  if (repositorySop !== undefined) return repositorySop;
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [3, 4].map((up) => join(here, ...Array<string>(up).fill('..'), 'generated', 'sop-bundle.json'));
  const found = candidates.find((candidate) => existsSync(candidate));
  if (found === undefined) throw new Error(`generated/sop-bundle.json not found (looked at ${candidates.join(', ')})`);
  const sop = (JSON.parse(readFileSync(found, 'utf8')) as SopBundle).agents.retail_customer_support;
  if (sop === undefined) throw new Error(`${found} has no agent retail_customer_support`);
  repositorySop = sop;
  return sop;
}
