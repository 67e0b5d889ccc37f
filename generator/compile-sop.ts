/**
 * Compiles one SOP file's text: parse → model → check. Pure (the caller reads the file), never throws: every
 * problem with the input is a diagnostic, bounded per file while it is produced (`bounded-diagnostics.ts`), and a bug of the compiler itself
 * becomes an internal-error diagnostic (SOP090) for this file alone, so one file can never take the build down.
 * Emitting is separate (`emit/`), because it needs every SOP of the project (index, registry) and because a file
 * with errors must not be emitted at all.
 *
 * `compileSopWithSyntax` also hands back the parse (`ParsedSop`: every occurrence of every node id, the YAML with its
 * positions), which editors query; it holds functions, so it never crosses a worker thread: `compileSop` drops it.
 */
import { checkSop } from './check/check-sop.js';
import { BoundedDiagnostics } from './diagnostics/bounded-diagnostics.js';
import { diagnosticAt, type Diagnostic, internalErrorDiagnostic } from './diagnostics/diagnostic.js';
import { LIMITS } from './limits.js';
import { buildModel } from './model/build-model.js';
import { deriveGraphFacts } from './model/graph-facts.js';
import type { GraphFacts, SopModel } from './model/sop-model.js';
import { type ParsedSop, parseSop } from './parse/parse-sop.js';
import { parseYamlBlock, type ReadYaml } from './parse/yaml-block.js';
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
  return compileSopWithSyntax(file, raw, sourceHash).compiled;
}

/** A compiled file and the parse it was modelled from (null when the file was refused before parsing, or the compiler failed). */
export interface CompiledSyntax {
  readonly compiled: CompiledFile;
  readonly parsed: ParsedSop | null;
}

/** @param readYaml reads the YAML blocks (the language server's reuses the blocks an edit left as they were) */
export function compileSopWithSyntax(
  file: string,
  raw: string,
  sourceHash: string = hashSource(raw),
  readYaml: ReadYaml = parseYamlBlock,
): CompiledSyntax {
  const failed = (diagnostic: Diagnostic): CompiledSyntax => ({
    compiled: { file, sourceHash, model: null, facts: null, diagnostics: [diagnostic] },
    parsed: null,
  });
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
    const parsed = parseSop(file, raw, diagnostics, readYaml);
    const model = buildModel(parsed, sourceHash, diagnostics);
    const facts = model ? deriveGraphFacts(model) : null;
    if (model && facts) checkSop(model, facts, diagnostics);
    return { compiled: { file, sourceHash, model, facts, diagnostics: diagnostics.result() }, parsed };
  } catch (error) {
    return failed(internalErrorDiagnostic(file, error));
  }
}
