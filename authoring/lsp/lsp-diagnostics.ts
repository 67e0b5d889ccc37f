/**
 * The compiler's diagnostics as LSP diagnostics: the same range, severity, code and message, the remediation as a
 * `help:` line (what `sop build` prints under its code frame), and the code linked to the section of the format's
 * documentation that states the rule (`codeDescription`).
 */
import { type Diagnostic as LspDiagnostic, DiagnosticSeverity } from 'vscode-languageserver';
import { DIAGNOSTIC_CODES } from '../../generator/diagnostics/codes.js';
import type { Diagnostic } from '../../generator/diagnostics/diagnostic.js';
import { toRange } from './lsp-ranges.js';

const SEVERITY = { error: DiagnosticSeverity.Error, warning: DiagnosticSeverity.Warning, info: DiagnosticSeverity.Information } as const;

export function toLspDiagnostic(d: Diagnostic, docsUrl: string | null): LspDiagnostic {
  const start = { line: d.line, column: d.column };
  const end = d.endLine !== undefined && d.endColumn !== undefined ? { line: d.endLine, column: d.endColumn } : start;
  const info = Object.hasOwn(DIAGNOSTIC_CODES, d.code) ? DIAGNOSTIC_CODES[d.code] : undefined;
  return {
    range: toRange({ start, end }),
    severity: SEVERITY[d.severity],
    code: d.code,
    ...(docsUrl !== null && info !== undefined ? { codeDescription: { href: `${docsUrl}#${info.docs}` } } : {}),
    source: 'sop',
    message: d.remediation ? `${d.message}\nhelp: ${d.remediation}` : d.message,
  };
}
