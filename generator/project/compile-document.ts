/**
 * One SOP document compiled from its text, exactly as the build compiles the file of that name (the same parse,
 * model and checks, the same project path in every diagnostic, the same positions), with the parse kept for
 * editors: every occurrence of every node id, the YAML with its positions. This module loads the compiler (markdown,
 * YAML and schema libraries): import it when something is to be compiled, not before.
 */
import { hashSource } from '../../contract/source-hash.js';
import { type CompiledSyntax, compileSopWithSyntax } from '../compile-sop.js';

/** The compiled file, and the parse its model was built from (null when refused before parsing, or on a compiler bug). */
export type DocumentBuild = CompiledSyntax;

export function compileDocument(file: string, text: string, sourceHash: string = hashSource(text)): DocumentBuild {
  return compileSopWithSyntax(file, text, sourceHash);
}
