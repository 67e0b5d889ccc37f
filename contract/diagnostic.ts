/**
 * A diagnostic is a value, never a thrown string: every compiler stage returns the problems it found next to
 * its result, the CLI renders them as text or JSON, and the runtime's validate tool answers with them. Shaped
 * after vfile-message (reason, place, rule id, severity), with positions always 1-based in the `.md` file, also
 * for problems inside YAML or Mermaid. The JSON rendering is the standard validation result of seed 003.
 */

export type Severity = 'error' | 'warning' | 'info';

/** A position inside the `.md` file (1-based line and column). */
export interface SourcePosition {
  readonly line: number;
  readonly column: number;
}

export interface SourceSpan {
  readonly start: SourcePosition;
  readonly end: SourcePosition;
}

export interface Diagnostic<Code extends string = string> {
  /** Stable code (`SOP012`); the compiler's registry (`generator/diagnostics/codes.ts`) lists them all. */
  readonly code: Code;
  readonly severity: Severity;
  readonly message: string;
  /** Path of the SOP as given to the compiler, relative to the project (`sops/retail.md`). */
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly endLine?: number;
  readonly endColumn?: number;
  /** What the author should change, e.g. "Did you mean `COLLECT_CANCEL`?". */
  readonly remediation?: string;
}

/** One entry of `details` in a validation result: a diagnostic, with errors called `critical` as in seed 003. */
export interface ValidationDetail {
  readonly severity: 'critical' | 'warning' | 'info';
  readonly code: string;
  readonly message: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly endLine?: number;
  readonly endColumn?: number;
  readonly remediation?: string;
}

/** The standard validation result (seed 003): `sop build --format json`, and the validate tool's answer. */
export interface ValidationResult {
  readonly status: 'pass' | 'warning' | 'fail';
  readonly message: string;
  readonly details: readonly ValidationDetail[];
  readonly metadata: {
    readonly execution_time: number;
    readonly scope: string;
    readonly version: string;
    readonly timestamp: string;
    readonly [key: string]: unknown;
  };
}
