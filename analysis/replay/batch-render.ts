/**
 * A batch summary (`batch-summary.ts`) for people (a table, the totals, where agents leave the procedure, how
 * conformance relates to success) and for spreadsheets (CSV, RFC 4180: one row per transcript, one column per
 * deviation kind). JSON is the summary itself (`sop-replay-batch/1`).
 */
import { DEVIATION_KINDS, type DeviationKind } from '../conformance/cost-model.js';
import type { BatchRow, BatchSummary } from './batch-summary.js';

export function renderBatchText(summary: BatchSummary): string {
  const t = summary.totals;
  const header = ['transcript', 'agent', 'fitness', 'verdict', 'terminal', 'steps', 'outcome', 'deviations'];
  const rows = summary.transcripts.map((row) => [
    row.transcript,
    row.agent ?? '-',
    row.fitness === null ? '-' : row.fitness.toFixed(4),
    row.verdict,
    row.terminal ?? '-',
    row.steps === null ? '-' : String(row.steps),
    row.outcome === null ? '-' : row.outcome ? 'success' : 'failure',
    row.error ?? deviationsText(row),
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const lines = [line(header), ...rows.map(line), ''];
  lines.push(
    `${t.transcripts} transcript${t.transcripts === 1 ? '' : 's'}: ${t.passed} passed, ${t.failed} failed` +
      (t.errors > 0 ? `, ${t.errors} could not be replayed` : '') +
      `; mean fitness ${t.mean_fitness === null ? '-' : t.mean_fitness.toFixed(4)}; ended on a terminal node: ${t.terminal_reached}`,
  );
  const kinds = DEVIATION_KINDS.filter((kind) => t.by_kind[kind].deviations > 0);
  lines.push(
    `deviations by kind: ${
      kinds.length === 0
        ? 'none'
        : kinds.map((kind) => `${kind} ${t.by_kind[kind].deviations} (in ${t.by_kind[kind].transcripts})`).join(', ')
    }`,
  );
  if (t.by_node.length > 0) {
    lines.push('where agents leave the procedure (deviations by node, most first):');
    for (const node of t.by_node) {
      const detail = (Object.entries(node.by_kind) as [DeviationKind, number][]).map(([kind, n]) => `${kind} ${n}`).join(', ');
      lines.push(
        `  ${node.node ?? '(before the SOP)'}  ${node.deviations} in ${node.transcripts} transcript${node.transcripts === 1 ? '' : 's'}: ${detail}`,
      );
    }
  }
  const o = summary.outcomes;
  if (o !== null) {
    const fmt = (v: number | null): string => (v === null ? '-' : v.toFixed(4));
    lines.push(
      `outcomes (${o.source}): ${plural(o.successes, 'success', 'successes')}, mean fitness ${fmt(o.mean_fitness_success)}; ` +
        `${plural(o.failures, 'failure', 'failures')}, mean fitness ${fmt(o.mean_fitness_failure)}; ${o.unknown} without an outcome; ` +
        `AUC of fitness for success ${o.auc === null ? '- (needs successes and failures)' : o.auc.toFixed(4)}`,
    );
    if (o.unmatched_keys.length > 0)
      lines.push(
        `  ${o.unmatched_keys.length} key${o.unmatched_keys.length === 1 ? '' : 's'} named no transcript: ${o.unmatched_keys.slice(0, 10).join(', ')}${o.unmatched_keys.length > 10 ? ', …' : ''}`,
      );
  }
  for (const s of summary.superseded) lines.push(`superseded: ${s.transcript} (continued in ${s.by})`);
  for (const s of summary.skipped) lines.push(`skipped: ${s.file} (${s.reason})`);
  return `${lines.join('\n')}\n`;
}

const CSV_COLUMNS = [
  'transcript',
  'file',
  'agent',
  'reader',
  'mode',
  'verdict',
  'fitness',
  'cost',
  'worst_cost',
  'steps',
  'terminal',
  'undetermined_steps',
  'exact',
  'outcome',
  ...DEVIATION_KINDS,
  'error',
] as const;

export function renderBatchCsv(summary: BatchSummary): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const row of summary.transcripts) {
    lines.push(CSV_COLUMNS.map((column) => csvCell(cellOf(row, column))).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

function cellOf(row: BatchRow, column: (typeof CSV_COLUMNS)[number]): string {
  if ((DEVIATION_KINDS as readonly string[]).includes(column)) {
    const n = row.deviations?.[column as DeviationKind];
    return n === undefined ? '' : String(n);
  }
  const value = row[column as keyof BatchRow];
  return value === null || value === undefined ? '' : String(value);
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function csvCell(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function deviationsText(row: BatchRow): string {
  if (row.deviations === null) return '';
  const kinds = DEVIATION_KINDS.filter((kind) => row.deviations![kind] > 0);
  return kinds.length === 0 ? 'none' : kinds.map((kind) => `${kind} ${row.deviations![kind]}`).join(', ');
}
