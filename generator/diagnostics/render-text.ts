/**
 * Renders diagnostics like a compiler: `sops/x.md:14:5 error SOP012 message`, a code frame with the line
 * before, the offending line and a caret under the span, and the remediation as `help:`. Colour only when
 * asked (the CLI decides from the terminal), so output in CI logs and tests stays plain.
 */
import type { Diagnostic } from './diagnostic.js';

export interface RenderOptions {
  /** File path → its text, for code frames. Files not in the map get no frame. */
  readonly sources: ReadonlyMap<string, string>;
  readonly color?: boolean;
}

const paint = (on: boolean, code: string, s: string) => (on ? `\x1b[${code}m${s}\x1b[0m` : s);
const SEVERITY_COLOR = { error: '31;1', warning: '33;1', info: '36;1' } as const;

export function renderDiagnostic(d: Diagnostic, options: RenderOptions): string {
  const color = options.color ?? false;
  const head = `${d.file}:${d.line}:${d.column} ${paint(color, SEVERITY_COLOR[d.severity], d.severity)} ${paint(color, '2', d.code)} ${d.message}`;
  const lines = [head];
  const text = options.sources.get(d.file);
  if (text !== undefined) lines.push(...codeFrame(text, d, color));
  if (d.remediation) lines.push(`  ${paint(color, '32', 'help:')} ${d.remediation}`);
  return lines.join('\n');
}

export function renderDiagnostics(diagnostics: readonly Diagnostic[], options: RenderOptions): string {
  return diagnostics.map((d) => renderDiagnostic(d, options)).join('\n\n');
}

export function summarize(diagnostics: readonly Diagnostic[]): string {
  const count = (s: Diagnostic['severity']) => diagnostics.filter((d) => d.severity === s).length;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const infos = count('info');
  return `${plural(count('error'), 'error')}, ${plural(count('warning'), 'warning')}${infos ? `, ${plural(infos, 'info')}` : ''}`;
}

function codeFrame(text: string, d: Diagnostic, color: boolean): string[] {
  const all = text.replace(/\r\n?/g, '\n').split('\n');
  const target = all[d.line - 1];
  if (target === undefined) return [];
  const width = String(d.line).length;
  const gutter = (n: number | '') => ` ${String(n).padStart(width)} | `;
  const out: string[] = [];
  const before = all[d.line - 2];
  if (before !== undefined && before.trim() !== '') out.push(paint(color, '2', gutter(d.line - 1) + before));
  out.push(gutter(d.line) + target);
  const start = Math.max(1, d.column);
  const sameLineEnd = d.endLine === d.line && d.endColumn !== undefined ? d.endColumn : undefined;
  const length = Math.max(1, Math.min((sameLineEnd ?? start + 1) - start, target.length - start + 1));
  // Keep tabs in the padding so the caret lines up under tab-indented lines.
  const pad = target.slice(0, start - 1).replace(/[^\t]/g, ' ');
  out.push(gutter('') + pad + paint(color, SEVERITY_COLOR[d.severity], '^'.repeat(length)));
  return out;
}
