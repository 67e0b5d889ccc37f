/**
 * The `--format json` result, in the shape of the standard validation result of seed 003: `status`
 * (pass | warning | fail), `message`, `details[]` (severity critical | warning | info, message, file, line,
 * column, remediation, plus our stable `code`) and `metadata` (execution_time in seconds, scope, version,
 * timestamp). Errors map to `critical`, the seed's name for "must fix". `status` says what the exit code says:
 * a build that fails for another reason than a diagnostic (stale output under `--check`, no SOP to build) passes
 * that reason in `failures`, and is a `fail` too.
 */
import type { ValidationResult } from '../../contract/diagnostic.js';
import type { Diagnostic } from './diagnostic.js';
import { summarize } from './render-text.js';

export function toValidationResult(
  diagnostics: readonly Diagnostic[],
  meta: {
    seconds: number;
    scope: string;
    version: string;
    now: Date;
    /** Why the build fails besides its diagnostics, one sentence each. */
    failures?: readonly string[];
    extra?: Record<string, unknown>;
  },
): ValidationResult {
  const failures = meta.failures ?? [];
  const errors = diagnostics.some((d) => d.severity === 'error');
  const warnings = diagnostics.some((d) => d.severity === 'warning');
  const status = errors || failures.length > 0 ? 'fail' : warnings ? 'warning' : 'pass';
  const message =
    status === 'pass'
      ? 'SOP validation passed'
      : status === 'warning'
        ? `SOP validation passed with ${summarize(diagnostics)}`
        : `SOP validation failed: ${[summarize(diagnostics), ...failures].join('; ')}`;
  return {
    status,
    message,
    details: diagnostics.map((d) => ({
      severity: d.severity === 'error' ? 'critical' : d.severity,
      code: d.code,
      message: d.message,
      file: d.file,
      line: d.line,
      column: d.column,
      ...(d.endLine !== undefined ? { endLine: d.endLine, endColumn: d.endColumn } : {}),
      ...(d.remediation ? { remediation: d.remediation } : {}),
    })),
    metadata: {
      execution_time: Math.round(meta.seconds * 1e6) / 1e6,
      scope: meta.scope,
      version: meta.version,
      timestamp: meta.now.toISOString(),
      ...meta.extra,
    },
  };
}
