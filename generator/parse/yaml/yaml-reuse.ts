/**
 * Reading a file's YAML blocks again after an edit: a block whose text an edit left as it was is placed from its
 * previous parse instead of parsed again. Parsing YAML is about half of compiling a SOP (its frontmatter and a block
 * per node), and a keystroke changes at most one block. A parse depends on the block's text alone (`YamlParse`), so
 * a block that moved (lines added above it) is reused too; only its positions are placed anew.
 *
 * The parses kept are those of the file's last compile, no others: what a compile reuses is bounded by one version
 * of the file, and memory never grows with the edits.
 */
import { parseYamlText, placeYaml, type ReadYaml, type YamlParse } from '../yaml-block.js';

/** A file's YAML blocks by their text, as one compile parsed them. */
export type YamlParses = ReadonlyMap<string, YamlParse>;

export interface YamlReuse {
  /** Reads a block, reusing the previous compile's parse of the same text. */
  readonly read: ReadYaml;
  /** The blocks read so far, for the next compile of the file. */
  readonly parses: YamlParses;
}

export function reuseYaml(previous: YamlParses | undefined): YamlReuse {
  const parses = new Map<string, YamlParse>();
  return {
    read(text, firstLine, column) {
      let parse = parses.get(text) ?? previous?.get(text);
      if (parse === undefined) parse = parseYamlText(text);
      parses.set(text, parse);
      return placeYaml(parse, firstLine, column);
    },
    parses,
  };
}
