/**
 * Compiles one SOP file's text: parse → model → check. Pure (the caller reads the file), never throws on bad
 * input: every problem is a diagnostic. Emitting is separate (`emit/`), because it needs every SOP of the
 * project (index, registry) and because a file with errors must not be emitted at all.
 */
import { checkSop } from './check/check-sop.js';
import { compareDiagnostics, type Diagnostic } from './diagnostics/diagnostic.js';
import { buildModel } from './model/build-model.js';
import { deriveGraphFacts } from './model/graph-facts.js';
import type { GraphFacts, SopModel } from './model/sop-model.js';
import { parseSop } from './parse/parse-sop.js';
import { hashSource } from '../contract/source-hash.js';

export interface CompiledFile {
  readonly file: string;
  readonly sourceHash: string;
  /** Null when the file is too broken to model (no frontmatter, no flowchart, syntax errors). */
  readonly model: SopModel | null;
  readonly facts: GraphFacts | null;
  readonly diagnostics: readonly Diagnostic[];
}

export function compileSop(file: string, raw: string, sourceHash: string = hashSource(raw)): CompiledFile {
  const parsed = parseSop(file, raw);
  const built = buildModel(parsed, sourceHash);
  const diagnostics = [...parsed.diagnostics, ...built.diagnostics];
  const facts = built.model ? deriveGraphFacts(built.model) : null;
  if (built.model && facts) diagnostics.push(...checkSop(built.model, facts));
  return { file, sourceHash, model: built.model, facts, diagnostics: diagnostics.sort(compareDiagnostics) };
}
