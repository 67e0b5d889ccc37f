/**
 * The draft compiled in memory exactly as `sop build` would compile the file (`compileSop`, then the agent the
 * bundle would hold for it), so that the logs are scored against what the team will build, and a draft that would
 * not build is refused rather than written. Warnings are kept for the report.
 */
import type { CompiledSop } from '../../contract/compiled-sop.js';
import { compiledAgentOf } from '../../generator/project/compiled-agent.js';
import { compileSop } from '../../generator/compile-sop.js';
import type { Diagnostic } from '../../generator/diagnostics/diagnostic.js';

export type CompiledDraft =
  | { readonly ok: true; readonly sop: CompiledSop; readonly warnings: readonly Diagnostic[] }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[]; readonly error: string };

/** `file` is the project path the draft is (or would be) written to, as diagnostics name it. */
export function compileDraft(file: string, text: string): CompiledDraft {
  const compiled = compileSop(file, text);
  const errors = compiled.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0)
    return {
      ok: false,
      diagnostics: compiled.diagnostics,
      error: `the draft does not compile (${errors.length} error${errors.length === 1 ? '' : 's'}, first: ${errors[0]!.code} ${errors[0]!.message})`,
    };
  const agent = compiledAgentOf(compiled);
  if (!agent.ok)
    return { ok: false, diagnostics: compiled.diagnostics, error: `the draft cannot be compiled into an agent: ${String(agent.error)}` };
  return { ok: true, sop: agent.sop, warnings: compiled.diagnostics.filter((d) => d.severity !== 'info') };
}

/** A written SOP, compiled alone (`--against FILE`); one that calls sub-flows needs its project and is refused. */
export function compileWritten(
  file: string,
  text: string,
): { readonly ok: true; readonly sop: CompiledSop } | { readonly ok: false; readonly error: string } {
  const compiled = compileSop(file, text);
  const errors = compiled.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0)
    return { ok: false, error: `${file} does not compile: ${errors[0]!.code} ${errors[0]!.message} (line ${errors[0]!.line})` };
  const agent = compiledAgentOf(compiled);
  if (!agent.ok) return { ok: false, error: `${file} cannot be compiled into an agent: ${String(agent.error)}` };
  if (agent.sop.subflows !== undefined)
    return {
      ok: false,
      error: `${file} calls other SOPs (sub-flows); --against reads one SOP on its own: compare against a SOP without them`,
    };
  return { ok: true, sop: agent.sop };
}
