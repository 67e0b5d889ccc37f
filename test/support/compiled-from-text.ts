/**
 * A CompiledSop made from SOP markdown in a test, exactly as `sop build` makes the bundle's: compile, outline,
 * compiled data. Throws on a SOP with errors (a test's SOP is meant to be valid).
 */
import type { CompiledSop } from '../../contract/compiled-sop.js';
import { compileSop } from '../../generator/compile-sop.js';
import { compiledSopOf } from '../../generator/emit/compiled-data.js';
import { outlineSop } from '../../generator/emit/outline.js';

export function compiledFromText(text: string, file = 'sops/test.md'): CompiledSop {
  const compiled = compileSop(file, text);
  const errors = compiled.diagnostics.filter((d) => d.severity === 'error');
  if (compiled.model === null || compiled.facts === null || errors.length > 0)
    throw new Error(`the test SOP does not compile: ${errors.map((d) => `${d.code} ${d.message}`).join('; ')}`);
  return compiledSopOf(outlineSop(compiled.model, compiled.facts));
}
