/**
 * Logs of an agent that follows any compiled SOP from its system prompt, made from the SOP's golden paths: at each
 * node of the path that offers tools, a call of each of them in order (a read answers with a record whose `status`
 * is the label of the edge the path takes at the next decision, so the data decides the branch; a change answers
 * `{"ok": true}` after the agent asked and the user said yes), with what the user and the agent say around them.
 * Written in the corpus's log formats, one after the other. For `sop discover`'s tests on a SOP other than the
 * retail one, so the miner is not fit to one shape.
 *
 * Each clean conversation may have a planted twin (`PATH_PLANTS`, dealt in turn):
 *   - `skipped_step`: the calls of the node most paths pass (after the entry node) left out;
 *   - `change_first`: the conversation's last change made before anything else;
 *   - `stray_call`: the last change made once more, right after the first call.
 *
 * Deterministic: the same SOP, count and seed give the same bytes.
 */
import type { CompiledSop } from '../../contract/compiled-sop.js';
import { entryOf } from '../../contract/name-table.js';
import { random } from '../../fuzz/random.js';
import { goldenPaths } from '../../generator/paths/golden-paths.js';
import { toolKind } from '../../analysis/discover/tool-kinds.js';
import {
  type Turn,
  tau2Simulation,
  writeAnthropicMessages,
  writeClaudeCode,
  writeOpenaiChat,
  writeOpenaiResponses,
  writeTau2Results,
} from './corpus/index.js';

export const PATH_PLANTS = ['skipped_step', 'change_first', 'stray_call'] as const;
export type PathPlant = (typeof PATH_PLANTS)[number];

export const PATH_FORMATS = ['openai-chat', 'anthropic-messages', 'claude-code', 'openai-responses', 'tau2-results'] as const;
export type PathFormat = (typeof PATH_FORMATS)[number];

export interface PathLog {
  readonly id: string;
  readonly file: string;
  readonly text: string;
  readonly label: 'clean' | PathPlant;
  readonly pairedWith?: string;
  readonly format: PathFormat;
  /** The golden path it walks. */
  readonly path: readonly string[];
}

export interface PathLogOptions {
  readonly count: number;
  readonly seed?: number;
  readonly formats?: readonly PathFormat[];
  /** Plant a twin for every `plantEvery`-th conversation (default 2); 0 plants none. */
  readonly plantEvery?: number;
}

type Act = { readonly user: string } | { readonly say: string } | { readonly call: string; readonly answer: string };

export function goldenPathLogs(sop: CompiledSop, options: PathLogOptions): PathLog[] {
  const { count, seed = 7, formats = PATH_FORMATS, plantEvery = 2 } = options;
  const rng = random(seed);
  const paths = goldenPaths(sop).paths.map((p) => p.nodes);
  const common = mostCommonStep(sop, paths);
  const logs: PathLog[] = [];
  let plants = 0;
  for (let n = 0; n < count; n++) {
    const path = rng.pick(paths);
    const acts = actsOf(sop, path, n);
    const format = formats[n % formats.length]!;
    const base = `h${String(n).padStart(3, '0')}`;
    logs.push(entry(`${base}-clean`, 'clean', acts, format, path, n));
    if (plantEvery === 0 || n % plantEvery !== 0) continue;
    const kind = PATH_PLANTS[plants % PATH_PLANTS.length]!;
    const planted = plant(kind, acts, sop, common);
    if (planted === null) continue;
    plants += 1;
    logs.push({ ...entry(`${base}-${kind}`, kind, planted, format, path, n + 1000), pairedWith: `${base}-clean` });
  }
  return logs;
}

function entry(id: string, label: PathLog['label'], acts: readonly Act[], format: PathFormat, path: readonly string[], n: number): PathLog {
  const turns = acts.map((a): Turn => ('call' in a ? { call: a.call, args: { ticket: `T-${n}` }, answer: { text: a.answer } } : a));
  const text =
    format === 'openai-chat'
      ? writeOpenaiChat(turns, { n })
      : format === 'anthropic-messages'
        ? writeAnthropicMessages(turns, { n })
        : format === 'claude-code'
          ? writeClaudeCode(turns, { n })
          : format === 'openai-responses'
            ? writeOpenaiResponses(turns, { n })
            : writeTau2Results([tau2Simulation(turns, { n, reward: label === 'clean' ? 1 : 0, id })]);
  return { id, file: `${id}${format === 'claude-code' ? '.jsonl' : '.json'}`, text, label, format, path };
}

/** The calls along a path, with a question and a yes before each change and a word from the user before each step. */
function actsOf(sop: CompiledSop, path: readonly string[], n: number): Act[] {
  const acts: Act[] = [{ user: `Hello, I need help (case ${n}).` }];
  for (const [i, node] of path.entries()) {
    const tools = entryOf(sop.toolsByNode, node) ?? [];
    if (tools.length === 0) continue;
    acts.push({ user: `About ${node.toLowerCase().replaceAll('_', ' ')}: here is what you asked for.` });
    for (const tool of tools) {
      if (toolKind(tool) === 'change')
        acts.push({ say: `I will now ${tool.replaceAll('_', ' ')}. Shall I go ahead?` }, { user: 'Yes, go ahead.' });
      acts.push({
        call: tool,
        answer: toolKind(tool) === 'change' ? '{"ok":true}' : JSON.stringify({ found: true, status: branchAfter(sop, path, i) }),
      });
    }
    acts.push({ say: `Done with ${node.toLowerCase().replaceAll('_', ' ')}.` });
  }
  return acts;
}

/** The label of the edge the path takes at the first decision after position `i` (or "none"). */
function branchAfter(sop: CompiledSop, path: readonly string[], i: number): string {
  for (let k = i + 1; k < path.length - 1; k++) {
    if (!sop.decisionNodes.includes(path[k]!)) continue;
    const edge = (entryOf(sop.edges, path[k]!) ?? []).find((e) => e.to === path[k + 1]);
    return edge?.condition ?? 'none';
  }
  return 'none';
}

/** The node with tools, other than the entry node, that most golden paths pass. */
function mostCommonStep(sop: CompiledSop, paths: readonly (readonly string[])[]): string {
  const counts = new Map<string, number>();
  for (const path of paths)
    for (const node of new Set(path))
      if (node !== sop.transitions.entry && (entryOf(sop.toolsByNode, node) ?? []).length > 0)
        counts.set(node, (counts.get(node) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
}

function plant(kind: PathPlant, acts: readonly Act[], sop: CompiledSop, common: string): Act[] | null {
  const changes = acts.flatMap((a, i) => ('call' in a && toolKind(a.call) === 'change' ? [i] : []));
  const last = changes.at(-1);
  switch (kind) {
    case 'skipped_step': {
      const tools = new Set(entryOf(sop.toolsByNode, common) ?? []);
      const kept = acts.filter((a) => !('call' in a && tools.has(a.call)));
      return kept.length === acts.length ? null : kept;
    }
    case 'change_first': {
      if (last === undefined || last === acts.findIndex((a) => 'call' in a)) return null;
      return [acts[0]!, acts[last]!, ...acts.slice(1, last), ...acts.slice(last + 1)];
    }
    case 'stray_call': {
      const first = acts.findIndex((a) => 'call' in a);
      if (last === undefined || last === first) return null;
      return [...acts.slice(0, first + 1), acts[last]!, ...acts.slice(first + 1)];
    }
  }
}
