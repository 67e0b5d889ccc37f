/**
 * The bench's output: one row per figure, printed as a table and written to `bench/results.json`.
 * A row compares a measured `value` with a `floor` (what the same work costs without us: a no-op SDK server,
 * Node's own start-up, the hand-written equivalent, …); `goal` is written like `"<= 1.3"` and applies to the
 * ratio, or to the value when a row has no floor to divide by (`goalOn`). A figure without a value is `null`
 * with a `note` saying why (left out of a quick run, or its row failed, which fails the bench), never met.
 */
import os from 'node:os';
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { round } from './stats.js';

export type Goal = `<= ${number}` | `>= ${number}`;

export interface Row {
  readonly name: string;
  readonly value: number | null;
  readonly floor: number | null;
  /** value ÷ floor. */
  readonly ratio: number | null;
  readonly goal: Goal;
  readonly met: boolean;
  /** What the goal is compared with. */
  readonly goalOn: 'ratio' | 'value';
  /** Unit of `value` and `floor`. */
  readonly unit: string;
  readonly note?: string;
}

export interface RowInput {
  readonly name: string;
  readonly value: number | null;
  readonly floor?: number | null;
  readonly goal: Goal;
  readonly goalOn?: 'ratio' | 'value';
  readonly unit: string;
  readonly note?: string;
}

/** Builds a row: computes the ratio and whether the goal is met. */
export function row(input: RowInput): Row {
  const floor = input.floor ?? null;
  const ratio = input.value !== null && floor !== null && floor !== 0 ? input.value / floor : null;
  const goalOn = input.goalOn ?? 'ratio';
  const compared = goalOn === 'ratio' ? ratio : input.value;
  const [op, limitText] = input.goal.split(' ') as ['<=' | '>=', string];
  const limit = Number(limitText);
  const met = compared !== null && Number.isFinite(compared) && (op === '<=' ? compared <= limit : compared >= limit);
  return {
    name: input.name,
    value: input.value === null ? null : round(input.value),
    floor: floor === null ? null : round(floor),
    ratio: ratio === null ? null : round(ratio),
    goal: input.goal,
    met,
    goalOn,
    unit: input.unit,
    ...(input.note ? { note: input.note } : {}),
  };
}

/** What a row's note starts with when quick mode left it out (the only null a passing bench may hold). */
export const QUICK_SKIP = 'skipped in quick mode';
/** What a row's note starts with when it could not run (the bench then exits with 1). */
export const FAILED = 'failed';

/** A figure without a value: skipped in quick mode, or its row failed; `note` says which and why. */
export function unmeasured(input: Pick<RowInput, 'name' | 'goal' | 'goalOn' | 'unit'>, note: string): Row {
  return row({ ...input, value: null, floor: null, note });
}

/** A figure quick mode leaves out, and why (slow, or needs an engine the smoke run does not start). */
export function skippedInQuickMode(input: Pick<RowInput, 'name' | 'goal' | 'goalOn' | 'unit'>, why: string): Row {
  return unmeasured(input, `${QUICK_SKIP}: ${why}`);
}

function cell(value: number | null): string {
  return value === null ? '–' : String(value);
}

/** The markdown table printed by `npm run bench` and pasted into the README. */
export function renderTable(rows: readonly Row[]): string {
  const header = ['row', 'value', 'floor', 'ratio', 'goal', 'met'];
  const lines = rows.map((r) => [
    r.name,
    r.value === null ? '–' : `${r.value} ${r.unit}`,
    r.floor === null ? '–' : `${r.floor} ${r.unit}`,
    cell(r.ratio),
    `${r.goalOn} ${r.goal}`,
    r.value === null ? 'n/a' : r.met ? 'yes' : 'NO',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] as string).length)));
  const fmt = (cells: readonly string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i] as number)).join(' | ')} |`;
  const out = [fmt(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...lines.map(fmt)];
  const notes = rows.filter((r) => r.note).map((r) => `- ${r.name}: ${r.note}`);
  return [...out, ...(notes.length > 0 ? ['', 'Notes:', ...notes] : [])].join('\n');
}

export const RESULTS_FORMAT = 'sop-bench/1';

/** What a results file says of the run besides its rows: when, on what, under which load. */
export interface RunFacts {
  readonly startedAt: number;
  readonly loadAtStart: readonly number[];
  readonly quick: boolean;
}

export function writeResults(file: string, rows: readonly Row[], run: RunFacts): void {
  const cpus = os.cpus();
  const results = {
    format: RESULTS_FORMAT,
    ran_at: new Date(run.startedAt).toISOString(),
    node: process.version,
    machine: {
      platform: `${os.platform()} ${os.arch()}`,
      cpus: cpus.length,
      cpu_model: cpus[0]?.model ?? null,
      memory_mb: Math.round(os.totalmem() / 2 ** 20),
    },
    load: { start: run.loadAtStart.map(round2), end: os.loadavg().map(round2) },
    quick: run.quick,
    rows,
  };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
