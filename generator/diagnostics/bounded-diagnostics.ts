/**
 * One file's diagnostics, bounded while they are produced: a file broken in a million places is not helped by a
 * million messages, and holding them would cost what compiling never should. Stages push into a `DiagnosticSink`;
 * the compiler gives them a `BoundedDiagnostics`, which keeps at most four times the cap and, when full, drops all
 * but the cap's worth: errors first (a capped file must still fail), then warnings, then infos, each in source
 * order. `result()` returns those, sorted, and one final SOP091 ("… and N more") at the last problem's position,
 * with the severity of the worst diagnostic it stands for.
 */
import { LIMITS } from '../limits.js';
import { compareDiagnostics, type Diagnostic, diagnosticAt, type Severity } from './diagnostic.js';

/** Where a stage puts the diagnostics it finds (an array is one). */
export interface DiagnosticSink {
  push(...diagnostics: Diagnostic[]): unknown;
}

const RANK: Readonly<Record<Severity, number>> = { error: 0, warning: 1, info: 2 };
const byRank = (a: Diagnostic, b: Diagnostic) => RANK[a.severity] - RANK[b.severity] || compareDiagnostics(a, b);

export class BoundedDiagnostics implements DiagnosticSink {
  readonly #max: number;
  #kept: Diagnostic[] = [];
  readonly #dropped: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  #last: Diagnostic | undefined;

  constructor(max: number = LIMITS.diagnosticsPerFile) {
    this.#max = max;
  }

  push(...diagnostics: Diagnostic[]): void {
    for (const d of diagnostics) {
      this.#kept.push(d);
      if (!this.#last || compareDiagnostics(d, this.#last) > 0) this.#last = d;
      if (this.#kept.length >= 4 * this.#max) this.#shrink();
    }
  }

  /** The kept diagnostics in source order, then the SOP091 counting the others, if any. */
  result(): Diagnostic[] {
    this.#shrink();
    const kept = [...this.#kept].sort(compareDiagnostics);
    const left = (['error', 'warning', 'info'] as const).filter((s) => this.#dropped[s] > 0);
    if (left.length === 0) return kept;
    const total = left.reduce((n, s) => n + this.#dropped[s], 0);
    const parts = left.map((s) => `${this.#dropped[s].toLocaleString('en')} ${s}${this.#dropped[s] === 1 ? '' : 's'}`);
    const last = this.#last!;
    const summary = diagnosticAt(
      last.file,
      'SOP091',
      { line: last.line, column: last.column },
      `… and ${total.toLocaleString('en')} more diagnostics in this file, not shown (${parts.join(', ')}).`,
      undefined,
      left[0],
    );
    return [...kept, summary];
  }

  #shrink(): void {
    if (this.#kept.length <= this.#max) return;
    this.#kept.sort(byRank);
    for (const d of this.#kept.slice(this.#max)) this.#dropped[d.severity]++;
    this.#kept.length = this.#max;
  }
}
