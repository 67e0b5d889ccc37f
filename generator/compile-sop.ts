/**
 * Compiles one SOP file's text: parse → model → check. Pure (the caller reads the file), never throws: every
 * problem with the input is a diagnostic, bounded per file while it is produced (`bounded-diagnostics.ts`), and a bug of the compiler itself
 * becomes an internal-error diagnostic (SOP090) for this file alone, so one file can never take the build down.
 * Emitting is separate (`emit/`), because it needs every SOP of the project (index, registry) and because a file
 * with errors must not be emitted at all.
 */
import { checkSop } from './check/check-sop.js';
import { BoundedDiagnostics } from './diagnostics/bounded-diagnostics.js';
import { diagnosticAt, type Diagnostic, internalErrorDiagnostic } from './diagnostics/diagnostic.js';
import { LIMITS } from './limits.js';
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
  const failed = (diagnostic: Diagnostic): CompiledFile => ({ file, sourceHash, model: null, facts: null, diagnostics: [diagnostic] });
  if (raw.length > LIMITS.fileCharacters) {
    return failed(
      diagnosticAt(
        file,
        'SOP092',
        { line: 1, column: 1 },
        `The file holds ${raw.length.toLocaleString('en')} characters; a SOP may hold at most ${LIMITS.fileCharacters.toLocaleString('en')} (about 500,000 tokens of instructions for a model).`,
      ),
    );
  }
  try {
    const diagnostics = new BoundedDiagnostics();
    const model = buildModel(parseSop(file, raw, diagnostics), sourceHash, diagnostics);
    const facts = model ? deriveGraphFacts(model) : null;
    if (model && facts) checkSop(model, facts, diagnostics);
    return { file, sourceHash, model, facts, diagnostics: diagnostics.result() };
  } catch (error) {
    return failed(internalErrorDiagnostic(file, error));
  }
}
