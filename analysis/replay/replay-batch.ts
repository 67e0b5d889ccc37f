/**
 * `sop replay FILES… | DIR`: replays many transcripts in one run and summarises them (`batch-summary.ts`).
 *
 * A folder is read recursively, in name order, for `*.json` and `*.jsonl` files; a Claude Code project folder's
 * side folders (`subagents`, `tool-results`) are left out, and so is any file in a folder that holds no
 * conversation (a τ²-bench `results.json` index, the outcomes file itself), listed as skipped. A file named on the
 * command line must hold one. One file may hold several transcripts (τ²-bench results, JSON Lines of
 * conversations); each is a row.
 *
 * Claude Code session logs that continue one another are scored once: a log whose lines another log repeats (a
 * resumed session copies them) is superseded by it; a log whose first line's parent is another log's last line is
 * read after that log, as one conversation, and the earlier log is superseded.
 *
 * One file at a time: its text, its reports and its transcripts are dropped once its rows are made, so memory grows
 * by a row per transcript, whatever the transcripts weigh.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { SopBundle } from '../../contract/compiled-sop.js';
import type { ConformanceOptions } from '../conformance/conformance.js';
import { outcomeKeys, outcomeOf, type OutcomeTable } from './batch-outcomes.js';
import { type BatchSummary, errorRow, type ScoredRow, scoredRow, summarize } from './batch-summary.js';
import type { ClaudeSession } from './read-claude-code.js';
import { replayFile, type ReplayedTranscript } from './replay.js';

export interface BatchInput {
  readonly bundle: SopBundle;
  /** Paths are shown relative to it (the app root). */
  readonly root: string;
  /** Files and folders, as given. */
  readonly inputs: readonly string[];
  readonly agent?: string;
  readonly outcomes?: { readonly table: OutcomeTable; readonly name: string };
  readonly conformance?: ConformanceOptions;
  /** Told after every `progressEvery` files (and never otherwise). */
  readonly progress?: (done: number, files: number, transcripts: number) => void;
  readonly progressEvery?: number;
}

export type BatchOutcome = { readonly ok: true; readonly summary: BatchSummary } | { readonly ok: false; readonly error: string };

const SIDE_FOLDERS = new Set(['subagents', 'tool-results', 'node_modules', '.git']);

interface Listed {
  readonly path: string;
  /** Found in a folder (a file there that holds no conversation is skipped, not an error). */
  readonly found: boolean;
}

export function listInputs(
  inputs: readonly string[],
): { readonly ok: true; readonly files: readonly Listed[] } | { readonly ok: false; readonly error: string } {
  const files: Listed[] = [];
  for (const input of inputs) {
    let stat: ReturnType<typeof statSync>;
    try {
      stat = statSync(resolve(input));
    } catch (error) {
      return { ok: false, error: `cannot read ${input} (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
    }
    if (stat.isDirectory()) for (const path of walk(resolve(input))) files.push({ path, found: true });
    else files.push({ path: resolve(input), found: false });
  }
  return { ok: true, files };
}

function* walk(dir: string): Generator<string> {
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SIDE_FOLDERS.has(entry.name)) yield* walk(path);
    } else if (/\.jsonl?$/i.test(entry.name)) yield path;
  }
}

/** What a scored Claude Code log needs to be joined or dropped later. */
interface SessionRow {
  readonly index: number;
  readonly path: string;
  readonly session: ClaudeSession;
}

export function replayBatch(input: BatchInput): BatchOutcome {
  const listed = listInputs(input.inputs);
  if (!listed.ok) return listed;
  const rows: ScoredRow[] = [];
  const sessions: SessionRow[] = [];
  const skipped: { file: string; reason: string }[] = [];
  const matchedKeys = new Set<string>();
  let anyOutcome = false;
  const shownOf = (path: string): string => relative(input.root, path).split(sep).join('/');
  const every = input.progressEvery ?? 100;

  const rowsOf = (path: string, replayed: readonly ReplayedTranscript[]): ScoredRow[] => {
    const shown = shownOf(path);
    return replayed.map(({ transcript, outcome }) => {
      const name = transcript.id === undefined ? shown : `${shown}#${transcript.id}`;
      if (!outcome.ok) return errorRow(name, shown, outcome.error);
      const id = transcript.id ?? transcript.session?.id ?? undefined;
      const { outcome: success, key } = outcomeOf(input.outcomes?.table, outcomeKeys(shown, transcript.id, id), transcript.reward);
      if (key !== null) matchedKeys.add(key);
      if (success !== null) anyOutcome = true;
      return scoredRow(name, shown, outcome.report, success);
    });
  };

  for (const [done, file] of listed.files.entries()) {
    const shown = shownOf(file.path);
    let text: string;
    try {
      text = readFileSync(file.path, 'utf8');
    } catch (error) {
      rows.push(errorRow(shown, shown, `cannot read ${shown} (${(error as NodeJS.ErrnoException).code ?? String(error)})`));
      continue;
    }
    const replayed = replayFile({ bundle: input.bundle, text, file: shown, ...options(input) });
    if (!replayed.ok) {
      if (file.found && /holds no conversation|neither JSON nor JSON Lines/.test(replayed.error))
        skipped.push({ file: shown, reason: replayed.error.slice(shown.length + 2) });
      else rows.push(errorRow(shown, shown, replayed.error));
    } else {
      for (const [k, row] of rowsOf(file.path, replayed.transcripts).entries()) {
        const session = replayed.transcripts[k]!.transcript.session;
        if (session !== undefined && row.row.verdict !== 'error') sessions.push({ index: rows.length, path: file.path, session });
        rows.push(row);
      }
    }
    if (input.progress !== undefined && (done + 1) % every === 0) input.progress(done + 1, listed.files.length, rows.length);
  }

  const superseded = joinSessions(sessions, rows, (paths) => {
    const text = paths.map((path) => readFileSync(path, 'utf8').trimEnd()).join('\n');
    const last = paths.at(-1)!;
    const replayed = replayFile({ bundle: input.bundle, text, file: shownOf(last), ...options(input) });
    return replayed.ok ? rowsOf(last, replayed.transcripts)[0]! : errorRow(shownOf(last), shownOf(last), replayed.error);
  });
  const kept = rows.filter((_, index) => !superseded.has(index));
  const unmatched = input.outcomes === undefined ? [] : [...input.outcomes.table.keys()].filter((key) => !matchedKeys.has(key)).sort();
  const source = input.outcomes !== undefined ? `--outcomes ${input.outcomes.name}` : anyOutcome ? 'the τ²-bench rewards' : null;
  return {
    ok: true,
    summary: summarize({
      rows: kept,
      superseded: [...superseded].map(([index, by]) => ({ transcript: rows[index]!.row.transcript, by: rows[by]!.row.transcript })),
      skipped,
      outcomeSource: source,
      unmatchedKeys: unmatched,
      nodeOrder: Object.values(input.bundle.agents).flatMap((sop) => sop.nodeIds),
    }),
  };
}

function options(input: BatchInput): { agent?: string; conformance?: ConformanceOptions } {
  return {
    ...(input.agent === undefined ? {} : { agent: input.agent }),
    ...(input.conformance === undefined ? {} : { conformance: input.conformance }),
  };
}

/**
 * Claude Code logs that continue one another: returns the superseded rows (index → the row that continues them),
 * after replacing each row that continues another log by the replay of the logs joined (`rescore`).
 */
function joinSessions(
  sessions: readonly SessionRow[],
  rows: ScoredRow[],
  rescore: (paths: readonly string[]) => ScoredRow,
): Map<number, number> {
  const superseded = new Map<number, number>();
  const byId = new Map<string, SessionRow>();
  const byLeaf = new Map<string, SessionRow>();
  for (const s of sessions) {
    if (s.session.id !== null) byId.set(s.session.id, s);
    if (s.session.leaf !== null) byLeaf.set(s.session.leaf, s);
  }
  // A resumed session repeats the lines of the sessions it resumed.
  for (const s of sessions) {
    for (const id of s.session.resumes) {
      const earlier = byId.get(id);
      if (earlier !== undefined && earlier !== s) superseded.set(earlier.index, s.index);
    }
  }
  // A session whose thread starts under another log's last line continues it: read them as one.
  for (const s of sessions) {
    const chain: SessionRow[] = [s];
    for (let at = s; at.session.continues !== null; ) {
      const earlier = byLeaf.get(at.session.continues);
      if (earlier === undefined || chain.includes(earlier)) break;
      chain.unshift(earlier);
      at = earlier;
    }
    if (chain.length === 1) continue;
    for (const earlier of chain.slice(0, -1)) superseded.set(earlier.index, s.index);
    rows[s.index] = rescore(chain.map((c) => c.path));
  }
  // A row that continues into another is superseded by the last one of its chain.
  for (const [index, by] of superseded) {
    let last = by;
    while (superseded.has(last) && superseded.get(last) !== index) last = superseded.get(last)!;
    superseded.set(index, last);
  }
  return superseded;
}
