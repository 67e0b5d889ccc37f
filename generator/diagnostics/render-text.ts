/**
 * Renders diagnostics like a compiler: `sops/x.md:14:5 error SOP012 message`, a code frame with the line
 * before, the offending line and a caret under the span, and the remediation as `help:`. Colour only when
 * asked (the CLI decides from the terminal), so output in CI logs and tests stays plain.
 *
 * Linear in the sources and the number of diagnostics, with memory for what is printed only: each source is read
 * once per call for the lines its diagnostics need (not indexed whole: five million blank lines would cost 80 MB
 * of offsets), and a frame shows a window of at most `FRAME_WIDTH` characters around the column, so a one-line
 * megabyte file or thousands of diagnostics cost what they print.
 */
import type { Diagnostic } from './diagnostic.js';

export interface RenderOptions {
  /** File path → its text, for code frames. Files not in the map get no frame. */
  readonly sources: ReadonlyMap<string, string>;
  readonly color?: boolean;
}

/** Characters of a source line shown in a frame, and how many of them come before the column. */
const FRAME_WIDTH = 120;
const FRAME_LEAD = 40;

const paint = (on: boolean, code: string, s: string) => (on ? `\x1b[${code}m${s}\x1b[0m` : s);
const SEVERITY_COLOR = { error: '31;1', warning: '33;1', info: '36;1' } as const;

export function renderDiagnostics(diagnostics: readonly Diagnostic[], options: RenderOptions): string {
  const wanted = new Map<string, Set<number>>();
  for (const d of diagnostics) {
    const set = wanted.get(d.file) ?? new Set<number>();
    set.add(d.line - 1).add(d.line);
    wanted.set(d.file, set);
  }
  const lines = new Map<string, SourceLines>();
  for (const [file, numbers] of wanted) {
    const text = options.sources.get(file);
    if (text !== undefined) lines.set(file, sourceLines(text, numbers));
  }
  return diagnostics.map((d) => renderOne(d, lines.get(d.file) ?? null, options.color ?? false)).join('\n\n');
}

export function summarize(diagnostics: readonly Diagnostic[]): string {
  const counts = { error: 0, warning: 0, info: 0 };
  for (const d of diagnostics) counts[d.severity]++;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}${counts.info ? `, ${plural(counts.info, 'info')}` : ''}`;
}

function renderOne(d: Diagnostic, source: SourceLines | null, color: boolean): string {
  const head = `${d.file}:${d.line}:${d.column} ${paint(color, SEVERITY_COLOR[d.severity], d.severity)} ${paint(color, '2', d.code)} ${d.message}`;
  const out = [head];
  if (source) out.push(...codeFrame(source, d, color));
  if (d.remediation) out.push(`  ${paint(color, '32', 'help:')} ${d.remediation}`);
  return out.join('\n');
}

interface SourceLines {
  /** Line `n` (1-based) without its line break, if it was asked for and exists. */
  line(n: number): string | undefined;
}

/** Lines `numbers` of `text`, in one pass (`\r\n`, `\r` and `\n` all end a line; a leading BOM is not part of line 1). */
function sourceLines(text: string, numbers: ReadonlySet<number>): SourceLines {
  const found = new Map<number, string>();
  let line = 1;
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (let i = start; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 10;
    if (c !== 10 && c !== 13) continue;
    if (numbers.has(line)) found.set(line, text.slice(start, i));
    if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
    start = i + 1;
    line++;
  }
  return { line: (n) => found.get(n) };
}

function codeFrame(source: SourceLines, d: Diagnostic, color: boolean): string[] {
  const target = source.line(d.line);
  if (target === undefined) return [];
  const width = String(d.line).length;
  const gutter = (n: number | '') => ` ${String(n).padStart(width)} | `;
  const column = Math.max(1, d.column);
  const from = Math.max(0, Math.min(column - 1 - FRAME_LEAD, target.length - FRAME_WIDTH));
  const out: string[] = [];
  const before = source.line(d.line - 1);
  if (before !== undefined && before.trim() !== '') out.push(paint(color, '2', gutter(d.line - 1) + window(before, from)));
  out.push(gutter(d.line) + window(target, from));
  const sameLineEnd = d.endLine === d.line && d.endColumn !== undefined ? d.endColumn : undefined;
  const shownEnd = Math.min(target.length + 1, from + FRAME_WIDTH + 1);
  const length = Math.max(1, Math.min((sameLineEnd ?? column + 1) - column, shownEnd - column));
  // Keep tabs in the padding so the caret lines up under tab-indented lines.
  const pad = (from > 0 ? ' ' : '') + target.slice(from, column - 1).replace(/[^\t]/g, ' ');
  out.push(gutter('') + pad + paint(color, SEVERITY_COLOR[d.severity], '^'.repeat(length)));
  return out;
}

/** `FRAME_WIDTH` characters of `line` from `from`, with `…` where it was cut. */
function window(line: string, from: number): string {
  const to = from + FRAME_WIDTH;
  return `${from > 0 ? '…' : ''}${line.slice(from, to)}${line.length > to ? '…' : ''}`;
}
