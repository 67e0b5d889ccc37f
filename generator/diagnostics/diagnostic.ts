/**
 * A diagnostic is a value, never a thrown string: every stage returns the problems it found next to its
 * result, and the CLI decides how to render them. Shaped after vfile-message (reason, place, rule id,
 * severity), with positions always 1-based in the `.md` file, also for problems inside YAML or Mermaid.
 */
import type { Diagnostic as AnyDiagnostic, Severity, SourcePosition, SourceSpan } from '../../contract/diagnostic.js';
import { type DiagnosticCode, DIAGNOSTIC_CODES } from './codes.js';

export type { Severity, SourcePosition, SourceSpan } from '../../contract/diagnostic.js';

/** A diagnostic of this compiler: the contract's shape, with a code from the registry. */
export type Diagnostic = AnyDiagnostic<DiagnosticCode>;

/** Longest message or remediation kept: a message quoting a megabyte of the file must not become a megabyte. */
const MAX_TEXT = 1_000;

/**
 * Builds a diagnostic at a span, defaulting severity and remediation from the registry, so every diagnostic says
 * what to change even where the finding site has nothing more specific to say.
 */
export function diagnosticAt(
  file: string,
  code: DiagnosticCode,
  span: SourceSpan | SourcePosition,
  message: string,
  remediation?: string,
  severity?: Severity,
): Diagnostic {
  const start = 'start' in span ? span.start : span;
  const end = 'start' in span ? span.end : undefined;
  return {
    code,
    severity: severity ?? defaultSeverity(code),
    message: bounded(message),
    file,
    line: start.line,
    column: start.column,
    ...(end ? { endLine: end.line, endColumn: end.column } : {}),
    remediation: bounded(remediation ?? DIAGNOSTIC_CODES[code].remediation),
  };
}

function bounded(text: string): string {
  return text.length <= MAX_TEXT ? text : `${text.slice(0, MAX_TEXT - 1)}…`;
}

export function defaultSeverity(code: DiagnosticCode): Severity {
  return DIAGNOSTIC_CODES[code].severity;
}

export const hasErrors = (diagnostics: readonly Diagnostic[]): boolean => diagnostics.some((d) => d.severity === 'error');

/** Stable order for output: file, line, column, code. */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return (
    (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
    a.line - b.line ||
    a.column - b.column ||
    (a.code < b.code ? -1 : a.code > b.code ? 1 : 0)
  );
}

/**
 * The diagnostic for a compiler bug met while compiling one file (SOP090): the file fails, the others still build.
 * It names the error, not its stack: the author needs to know it is not their mistake, the report needs the file.
 */
export function internalErrorDiagnostic(file: string, error: unknown): Diagnostic {
  const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return diagnosticAt(file, 'SOP090', { line: 1, column: 1 }, `The compiler failed on this file: ${what}`);
}
