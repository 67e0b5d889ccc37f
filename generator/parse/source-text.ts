/**
 * One source file's text, as every stage reads it: CRLF and lone CR normalised to LF (line numbers are
 * unaffected) and a leading BOM removed, so positions and prompt text do not depend on how the file was checked out.
 */
import { normaliseSource } from '../../contract/source-hash.js';

export interface SourceText {
  readonly file: string;
  /** The text with `\r\n` and `\r` normalised to `\n` and a leading BOM removed. */
  readonly text: string;
}

export function sourceText(file: string, raw: string): SourceText {
  return { file, text: normaliseSource(raw) };
}
