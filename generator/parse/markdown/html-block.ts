/**
 * CommonMark's HTML blocks (spec 0.31, "HTML blocks"): which of the seven kinds a line starts, and whether a line
 * ends one. They matter to the compiler because their content is opaque: a `## heading` inside `<div>` … or
 * `<!-- … -->` is not a heading. Every test is a single forward scan of the line (no backtracking regex), so a
 * line of any length costs its length.
 */

/** 1 `<script>`-like, 2 comment, 3 processing instruction, 4 declaration, 5 CDATA, 6 block tag, 7 any complete tag. */
export type HtmlBlockKind = 1 | 2 | 3 | 4 | 5 | 6 | 7;

const RAW_TEXT_TAGS = ['script', 'pre', 'style', 'textarea'];
const RAW_TEXT_CLOSERS = RAW_TEXT_TAGS.map((tag) => `</${tag}>`);

/** The CommonMark 0.31 list of block-level tag names (kind 6). */
const BLOCK_TAGS = new Set(
  (
    'address article aside base basefont blockquote body caption center col colgroup dd details dialog dir div dl dt ' +
    'fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend li link ' +
    'main menu menuitem nav noframes ol optgroup option p param search section summary table tbody td tfoot th thead ' +
    'title tr track ul'
  ).split(' '),
);

const isAsciiAlpha = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isDigit = (c: number) => c >= 48 && c <= 57;
const isBlank = (c: number) => c === 32 || c === 9;

/**
 * The kind of HTML block that the line of `text` ending at `end` starts at `at` (where its `<` is), or 0.
 * @param canBeKind7 false when the line would interrupt a paragraph: kind 7 cannot.
 */
export function htmlBlockStart(text: string, at: number, end: number, canBeKind7: boolean): HtmlBlockKind | 0 {
  if (text.charCodeAt(at) !== 60 /* < */) return 0;
  // The rest of the line from its `<`: every test below reads that line alone.
  const line = text.slice(at, end);
  if (line.startsWith('<!--')) return 2;
  if (line.startsWith('<?')) return 3;
  if (line.startsWith('<![CDATA[')) return 5;
  if (line.charCodeAt(1) === 33 /* ! */ && isAsciiAlpha(line.charCodeAt(2))) return 4;
  const closing = line.charCodeAt(1) === 47; /* / */
  const nameStart = closing ? 2 : 1;
  let nameEnd = nameStart;
  while (nameEnd < line.length && (isAsciiAlpha(line.charCodeAt(nameEnd)) || isDigit(line.charCodeAt(nameEnd)))) nameEnd++;
  if (nameEnd === nameStart || !isAsciiAlpha(line.charCodeAt(nameStart))) return 0;
  const name = line.slice(nameStart, nameEnd).toLowerCase();
  const after = line.charCodeAt(nameEnd);
  const endsName = Number.isNaN(after) || isBlank(after) || after === 62; /* > */
  if (!closing && RAW_TEXT_TAGS.includes(name) && endsName) return 1;
  if (BLOCK_TAGS.has(name) && (endsName || (after === 47 && line.charCodeAt(nameEnd + 1) === 62))) return 6;
  // `<script/>` or `</script>` is kind 7 (CommonMark's reference parser and micromark agree; kind 1 needs `<script`
  // followed by a blank, `>` or the end of the line).
  if (!canBeKind7) return 0;
  const tagEnd = closing ? closingTagEnd(line, nameStart) : openTagEnd(line, nameStart);
  if (tagEnd < 0) return 0;
  for (let i = tagEnd; i < line.length; i++) if (!isBlank(line.charCodeAt(i))) return 0;
  return 7;
}

/** Whether `text` (the rest of a line inside an HTML block of `kind` 1–5) holds that kind's end marker. */
export function htmlBlockEndsOn(kind: HtmlBlockKind, text: string): boolean {
  switch (kind) {
    case 1: {
      const lower = text.toLowerCase();
      return RAW_TEXT_CLOSERS.some((closer) => lower.includes(closer));
    }
    case 2:
      return text.includes('-->');
    case 3:
      return text.includes('?>');
    case 4:
      return text.includes('>');
    case 5:
      return text.includes(']]>');
    default:
      return false;
  }
}

/** Kinds 6 and 7 end at a blank line; the others at their end marker. */
export const endsAtBlankLine = (kind: HtmlBlockKind): boolean => kind >= 6;

const isNameChar = (c: number) => isAsciiAlpha(c) || isDigit(c) || c === 45; /* - */
const isAttributeStart = (c: number) => isAsciiAlpha(c) || c === 95 || c === 58; /* _ : */
const isAttributeChar = (c: number) => isAttributeStart(c) || isDigit(c) || c === 46 || c === 45; /* . - */

/** End (after `>`) of an open tag whose name starts at `nameStart`, or -1: `<name (attribute)* \s* /? >`. */
function openTagEnd(line: string, nameStart: number): number {
  let i = nameStart;
  while (i < line.length && isNameChar(line.charCodeAt(i))) i++;
  for (;;) {
    const spaceStart = i;
    while (isBlank(line.charCodeAt(i))) i++;
    const c = line.charCodeAt(i);
    if (c === 62) return i + 1;
    if (c === 47) return line.charCodeAt(i + 1) === 62 ? i + 2 : -1;
    // An attribute must be separated from what precedes it by whitespace.
    if (i === spaceStart || !isAttributeStart(c)) return -1;
    while (i < line.length && isAttributeChar(line.charCodeAt(i))) i++;
    let j = i;
    while (isBlank(line.charCodeAt(j))) j++;
    if (line.charCodeAt(j) !== 61 /* = */) continue;
    j++;
    while (isBlank(line.charCodeAt(j))) j++;
    const quote = line.charCodeAt(j);
    if (quote === 34 || quote === 39) {
      const close = line.indexOf(String.fromCharCode(quote), j + 1);
      if (close < 0) return -1;
      i = close + 1;
    } else {
      const valueStart = j;
      while (j < line.length && !isUnquotedStop(line.charCodeAt(j))) j++;
      if (j === valueStart) return -1;
      i = j;
    }
  }
}

const isUnquotedStop = (c: number) => isBlank(c) || c === 34 || c === 39 || c === 61 || c === 60 || c === 62 || c === 96;

/** End (after `>`) of a closing tag `</name \s* >` whose name starts at `nameStart`, or -1. */
function closingTagEnd(line: string, nameStart: number): number {
  let i = nameStart;
  while (i < line.length && isNameChar(line.charCodeAt(i))) i++;
  while (isBlank(line.charCodeAt(i))) i++;
  return line.charCodeAt(i) === 62 ? i + 1 : -1;
}
