/**
 * One SOP document compiled from its text, exactly as the build compiles the file of that name (the same parse,
 * model and checks, the same project path in every diagnostic, the same positions), with the parse kept for
 * editors: every occurrence of every node id, the YAML with its positions. This module loads the compiler (markdown,
 * YAML and schema libraries): import it when something is to be compiled, not before.
 */
import { hashSource } from '../../contract/source-hash.js';
import { type CompiledSyntax, compileSopWithSyntax } from '../compile-sop.js';
import { reuseYaml, type YamlParses } from '../parse/yaml/yaml-reuse.js';

/** The compiled file, and the parse its model was built from (null when refused before parsing, or on a compiler bug). */
export interface DocumentBuild extends CompiledSyntax {
  /** Its YAML blocks parsed, for the next compile of the file. */
  readonly yaml: YamlParses;
}

/**
 * @param previous the YAML blocks of the file's previous compile: the blocks whose text is unchanged are placed from
 *   them, not parsed again (`yaml-reuse.ts`)
 */
export function compileDocument(file: string, text: string, sourceHash: string = hashSource(text), previous?: YamlParses): DocumentBuild {
  const yaml = reuseYaml(previous);
  return { ...compileSopWithSyntax(file, text, sourceHash, yaml.read), yaml: yaml.parses };
}
