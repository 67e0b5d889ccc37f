/**
 * Caps one file's diagnostics: a file broken in 30,000 places is not helped by 30,000 messages, and printing them
 * costs what the compile never should. Errors are kept first (a capped file must still fail), then warnings, then
 * infos, each in source order; what is left out is counted in one final SOP091 at the last problem's position,
 * with the severity of the worst diagnostic it stands for.
 */
import { LIMITS } from '../limits.js';
import { compareDiagnostics, type Diagnostic, diagnosticAt } from './diagnostic.js';

const RANK = { error: 0, warning: 1, info: 2 } as const;

/** @param diagnostics one file's diagnostics, in any order; returns them sorted, capped at `max` plus a SOP091. */
export function capDiagnostics(diagnostics: readonly Diagnostic[], max: number = LIMITS.diagnosticsPerFile): Diagnostic[] {
  const sorted = [...diagnostics].sort(compareDiagnostics);
  if (sorted.length <= max) return sorted;
  const byRank = [...sorted].sort((a, b) => RANK[a.severity] - RANK[b.severity] || compareDiagnostics(a, b));
  const kept = new Set(byRank.slice(0, max));
  const left = byRank.slice(max);
  const counts = { error: 0, warning: 0, info: 0 };
  for (const d of left) counts[d.severity]++;
  const parts = (['error', 'warning', 'info'] as const)
    .filter((s) => counts[s] > 0)
    .map((s) => `${counts[s].toLocaleString('en')} ${s}${counts[s] === 1 ? '' : 's'}`);
  const last = sorted.at(-1)!;
  const summary = diagnosticAt(
    last.file,
    'SOP091',
    { line: last.line, column: last.column },
    `… and ${left.length.toLocaleString('en')} more diagnostics in this file, not shown (${parts.join(', ')}).`,
    undefined,
    left[0]!.severity,
  );
  return [...sorted.filter((d) => kept.has(d)), summary];
}
