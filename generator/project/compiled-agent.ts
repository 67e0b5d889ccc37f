/**
 * The agent a compiled SOP makes (`CompiledSop`, what the bundle would hold for it), made in memory from its model
 * without loading the emitter (ts-morph): for the preview's walk and for token budgets measured while editing.
 */
import type { CompiledSop } from '../../contract/compiled-sop.js';
import type { CompiledFile } from '../compile-sop.js';
import { hasErrors } from '../diagnostics/diagnostic.js';
import { compiledSopOf } from '../emit/compiled-data.js';
import { outlineSop } from '../emit/outline.js';

export type CompiledAgent = { readonly ok: true; readonly sop: CompiledSop } | { readonly ok: false; readonly error: unknown };

/**
 * The agent a compiled file makes, as the bundle would hold it. Not ok, with `error: null`, when the file has errors
 * of its own (nothing is emitted for it); with the error when the emitter fails on it (a compiler bug: SOP090).
 */
export function compiledAgentOf(compiled: CompiledFile): CompiledAgent {
  if (compiled.model === null || compiled.facts === null || hasErrors(compiled.diagnostics)) return { ok: false, error: null };
  try {
    return { ok: true, sop: compiledSopOf(outlineSop(compiled.model, compiled.facts)) };
  } catch (error) {
    return { ok: false, error };
  }
}
