/**
 * The text Mermaid's flowchart lexer actually reads, made the way Mermaid 11 makes it, step for step:
 * 1. line breaks become `\n`, and in HTML tags `attr="…"` becomes `attr='…'` (so the quotes open no string);
 * 2. twice (`mermaid.parse` preprocesses, then `getDiagramFromText` again): a `---` front matter block at the
 *    start is removed, then `%%{…}%%` directives anywhere, then `%%` comment lines (with the blank lines before
 *    them), then leading blanks;
 * 3. on a line matching `style…:…#…;` or `classDef…:…#…;` the last `;` is removed (Mermaid's `encodeEntities`,
 *    which then hides entity codes: see `entity-rule.ts`), and a `\n` is appended;
 * 4. blanks between `}` and the end of its line are removed (Mermaid's flowchart parser).
 * Each step deletes (or rewrites one for one) through a `MappedText`, so positions still point into the author's
 * text. Mermaid's regular expressions are followed exactly, but scanned by hand in linear time.
 *
 * Two differences, on purpose: a bare `%%` line is removed like a comment (Mermaid keeps it and draws a node called
 * `%%`), and front matter that is never closed, or a directive that swallows the rest of the text, is reported.
 */
import { syntaxProblem, type RawProblem } from '../problem.js';
import { CH, isInlineWhitespace, isWhitespace, isWordChar } from './char-class.js';
import { lineEnd, lineStart } from './lines.js';
import { type Deletion, MappedText } from './mapped-text.js';

export interface Preprocessed {
  /** Mermaid's text, ending with the `\n` it appends, mapped to the author's text. */
  readonly text: MappedText;
  /** The author's text with line breaks normalised (what positions refer to). */
  readonly original: string;
  /** Problems, at offsets in `original`. */
  readonly problems: readonly RawProblem[];
}

/** Makes Mermaid's text from the author's. */
export function preprocess(source: string): Preprocessed {
  // One line break per `\r\n`, `\r` or `\n`, so line numbers do not move.
  const original = source.includes('\r') ? source.replace(/\r\n?/g, '\n') : source;
  const problems: RawProblem[] = [];
  let text = MappedText.of(original).rewrite(quoteAttributes);
  text = cleanDiagram(cleanDiagram(text, problems), problems);
  text = unclosedFrontMatter(text, problems);
  text = text.delete(styleSemicolons(text.text)).append('\n');
  text = text.delete(blanksAfterBraces(text.text));
  return { text, original, problems };
}

/** Mermaid's `cleanupText`: `<tag a="x">` → `<tag a='x'>` (same length). */
function quoteAttributes(text: string): string {
  if (!text.includes('<')) return text;
  let out = '';
  let from = 0;
  for (let at = text.indexOf('<'); at !== -1; at = text.indexOf('<', at + 1)) {
    if (!isWordChar(text.charCodeAt(at + 1))) continue;
    const close = text.indexOf('>', at);
    if (close === -1) break;
    const tag = text.slice(at, close);
    out += text.slice(from, at) + tag.replace(/="([^"]*)"/g, "='$1'");
    from = close;
    at = close;
  }
  return out + text.slice(from);
}

/** Mermaid's `preprocessDiagram`: front matter, directives, comment lines, leading blanks. */
function cleanDiagram(text: MappedText, problems: RawProblem[]): MappedText {
  const front = frontMatterEnd(text.text);
  const withoutFront = front === -1 ? text : text.delete([{ start: 0, end: front }]);
  const withoutDirectives = withoutFront.delete(directives(withoutFront, problems));
  const withoutComments = withoutDirectives.delete(commentLines(withoutDirectives.text));
  const s = withoutComments.text;
  let blanks = 0;
  while (blanks < s.length && isWhitespace(s.charCodeAt(blanks))) blanks++;
  return withoutComments.delete(blanks === 0 ? [] : [{ start: 0, end: blanks }]);
}

/**
 * The end of Mermaid's front matter at the start of the text, or -1:
 * `/^([^\S\n\r]*)-{3}\s*[\n\r](.*?)[\n\r]\1-{3}\s*[\n\r]+/s`. The body starts after a line break of the blanks
 * that follow the opening `---`; the regular expression first tries the last of them, and finds the earliest
 * closing fence after it; only when there is none does it try the closing fence right after those blanks.
 */
function frontMatterEnd(text: string): number {
  const indentEnd = skip(text, 0, isInlineWhitespace);
  if (!text.startsWith('---', indentEnd)) return -1;
  const indent = text.slice(0, indentEnd);
  const blanksEnd = skip(text, indentEnd + 3, isWhitespace);
  const lastBreak = text.lastIndexOf('\n', blanksEnd - 1);
  const firstBreak = text.indexOf('\n', indentEnd + 3);
  if (lastBreak < indentEnd + 3) return -1;
  /** The end of the match when a closing fence starts at `fence`, or -1. */
  const closing = (fence: number): number => {
    if (!text.startsWith(indent, fence) || !text.startsWith('---', fence + indent.length)) return -1;
    const after = fence + indent.length + 3;
    const end = text.lastIndexOf('\n', skip(text, after, isWhitespace) - 1);
    return end >= after ? end + 1 : -1;
  };
  for (let nl = text.indexOf('\n', lastBreak + 1); nl !== -1; nl = text.indexOf('\n', nl + 1)) {
    const end = closing(nl + 1);
    if (end !== -1) return end;
  }
  return firstBreak < lastBreak ? closing(lastBreak + 1) : -1;
}

/**
 * Mermaid's directives, `/%{2}{\s*(?:(\w+)\s*:|(\w+))\s*(?:(\w+)|((?:(?!}%{2}).|\r?\n)*))?\s*(?:}%{2})?/gi`:
 * `%%{`, a type word (and `:`), then either one word or everything up to `}%%` (to the end of the text when there
 * is none: reported), then `}%%`.
 */
function directives(mapped: MappedText, problems: RawProblem[]): Deletion[] {
  const text = mapped.text;
  const found: Deletion[] = [];
  for (let at = text.indexOf('%%{'); at !== -1; at = text.indexOf('%%{', at + 1)) {
    let p = skip(text, at + 3, isWhitespace);
    const word = skip(text, p, isWordChar);
    if (word === p) continue; // no type word: not a directive
    p = skip(text, word, isWhitespace);
    p = skip(text, text.charCodeAt(p) === CH.colon ? p + 1 : word, isWhitespace);
    const value = skip(text, p, isWordChar);
    if (value > p) p = value;
    else {
      p = directiveValueEnd(text, p);
      if (p === text.length) {
        const start = mapped.originOf(at);
        problems.push(syntaxProblem(start, start + 3, "Unclosed directive '%%{': expected '}%%'", "Close the directive with '}%%'."));
      }
    }
    p = skip(text, p, isWhitespace);
    if (text.startsWith('}%%', p)) p += 3;
    found.push({ start: at, end: p });
    at = p - 1;
  }
  return found;
}

/** `((?:(?!}%{2}).|\r?\n)*)`: up to `}%%`, or to a character `.` does not match (U+2028, U+2029), or the end. */
function directiveValueEnd(text: string, from: number): number {
  const close = text.indexOf('}%%', from);
  const end = close === -1 ? text.length : close;
  for (let p = from; p < end; p++) {
    const c = text.charCodeAt(p);
    if (c === 0x2028 || c === 0x2029) return p;
  }
  return end;
}

/**
 * Mermaid's comment lines, `/^\s*%%(?!{)[^\n]+\n?/gm`: a line whose first non-blank characters are `%%` (not
 * `%%{`), with the blank lines before it and its line break. A bare `%%` line counts too (see the banner).
 */
function commentLines(text: string): Deletion[] {
  const found: Deletion[] = [];
  let line = 0;
  while (line < text.length) {
    const content = skip(text, line, isWhitespace);
    if (text.startsWith('%%', content) && text.charCodeAt(content + 2) !== CH.lbrace) {
      const end = lineEnd(text, content);
      found.push({ start: line, end: Math.min(end + 1, text.length) });
      line = end + 1;
    } else {
      line = lineEnd(text, content) + 1;
    }
  }
  return found;
}

/** Mermaid's `/style.*:\S*#.*;/g` then `/classDef.*:\S*#.*;/g`: the `;`s they remove. */
function styleSemicolons(text: string): Deletion[] {
  const lines = new Map<number, number>();
  for (const keyword of KEYWORDS) {
    // One look per line: after a hit, go on from the end of its line.
    for (let at = text.indexOf(keyword); at !== -1; at = text.indexOf(keyword, lineEnd(text, at))) {
      lines.set(lineStart(text, at), lineEnd(text, at));
    }
  }
  const found: number[] = [];
  for (const [start, end] of lines) {
    const dropped: number[] = [];
    for (const keyword of KEYWORDS) {
      const at = text.indexOf(keyword, start);
      if (at === -1 || at >= end) continue;
      const hash = hashAfterColon(text, at + keyword.length, end);
      if (hash === -1) continue;
      let semi = end - 1;
      while (semi > hash && (text.charCodeAt(semi) !== CH.semi || dropped.includes(semi))) semi--;
      if (semi > hash) dropped.push(semi);
    }
    found.push(...dropped);
  }
  return found.sort((a, b) => a - b).map((p) => ({ start: p, end: p + 1 }));
}

/** The keywords of Mermaid's two replacements, in the order it applies them. */
const KEYWORDS = ['style', 'classDef'] as const;

/** The first `#` in `[from, end)` reached from a `:` through non-blanks only (`:\S*#`), or -1. */
function hashAfterColon(text: string, from: number, end: number): number {
  let afterColon = false;
  for (let i = from; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === CH.colon) afterColon = true;
    else if (c === CH.hash && afterColon) return i;
    else if (isWhitespace(c)) afterColon = false;
  }
  return -1;
}

/** Mermaid's flowchart parser, `/}\s*\n/g` → `}\n`: the blanks after a `}` up to the last line break among them. */
function blanksAfterBraces(text: string): Deletion[] {
  const found: Deletion[] = [];
  for (let at = text.indexOf('}'); at !== -1; at = text.indexOf('}', at + 1)) {
    const blanksEnd = skip(text, at + 1, isWhitespace);
    // The last line break among the blanks (searched among them only, so a long line of `}` stays linear).
    let lastBreak = blanksEnd - 1;
    while (lastBreak > at && text.charCodeAt(lastBreak) !== CH.lf) lastBreak--;
    if (lastBreak <= at) continue;
    if (lastBreak > at + 1) found.push({ start: at + 1, end: lastBreak });
    at = lastBreak;
  }
  return found;
}

/**
 * Front matter still at the start after Mermaid's cleaning was never closed: reported, and the text dropped (it
 * would only give errors that repeat this one).
 */
function unclosedFrontMatter(mapped: MappedText, problems: RawProblem[]): MappedText {
  const text = mapped.text;
  const indent = skip(text, 0, isInlineWhitespace);
  if (!text.startsWith('---', indent) || skip(text, indent + 3, isInlineWhitespace) !== lineEnd(text, 0)) return mapped;
  const start = mapped.originOf(indent);
  problems.push(
    syntaxProblem(
      start,
      start + 3,
      "Front matter opened with '---' is never closed by a '---' line Mermaid accepts",
      "Close it with a '---' line that is not indented and not right after the opening one, before 'flowchart'.",
    ),
  );
  return mapped.delete([{ start: 0, end: text.length }]);
}

function skip(text: string, from: number, accept: (code: number) => boolean): number {
  let p = from;
  while (p < text.length && accept(text.charCodeAt(p))) p++;
  return p;
}
