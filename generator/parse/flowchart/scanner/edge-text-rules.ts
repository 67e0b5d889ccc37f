/**
 * Inline edge text, after `--`, `==` or `-.`: Mermaid's `edgeText`, `thickEdgeText` and `dottedEdgeText` states.
 * The text runs up to a link of the same kind (`-->`, `==>`, `.->` …), which closes it; a quoted string may
 * stand in for the text. Mermaid scans one character per token; the run comes out here as one token, cut
 * wherever Mermaid's earlier rules (a quote, the closing link) would match.
 */
import { CH, isWhitespace } from '../source/char-class.js';
import { matchDottedLink, matchSolidLink, mayStartLink } from './link-patterns.js';
import type { ScanCursor } from './scan-cursor.js';
import { openString, sharedRules } from './shared-rules.js';
import type { Token } from './token.js';

export type EdgeTextState = 'edgeText' | 'thickEdgeText' | 'dottedEdgeText';

export function scanEdgeText(c: ScanCursor, p: number, state: EdgeTextState): Token | null {
  let e = p;
  while (e < c.text.length) {
    const code = c.code(e);
    if (code === CH.quote) break;
    if ((isWhitespace(code) || mayStartLink(code)) && closingLink(c, e, state) !== -1) break;
    if (!isEdgeTextChar(c, e, state)) break;
    e++;
  }
  if (e > p) return c.tok('EDGE_TEXT', p, e);
  if (c.code(p) === CH.quote) return openString(c, p);
  const close = closingLink(c, p, state);
  if (close !== -1) {
    c.pop();
    return c.tok('LINK', p, close);
  }
  return sharedRules(c, p, errorMessage(state));
}

function closingLink(c: ScanCursor, p: number, state: EdgeTextState): number {
  switch (state) {
    case 'edgeText':
      return matchSolidLink(c.text, p, c.wsEnd, CH.dash);
    case 'thickEdgeText':
      return matchSolidLink(c.text, p, c.wsEnd, CH.equals);
    case 'dottedEdgeText':
      return matchDottedLink(c.text, p, c.wsEnd);
  }
}

/** Mermaid's edge-text rules: `[^-]|-(?!-)`, `[^=]` and `[^.]` for solid, thick and dotted text. */
function isEdgeTextChar(c: ScanCursor, p: number, state: EdgeTextState): boolean {
  const code = c.code(p);
  switch (state) {
    case 'edgeText':
      return code !== CH.dash || c.code(p + 1) !== CH.dash;
    case 'thickEdgeText':
      return code !== CH.equals;
    case 'dottedEdgeText':
      return code !== CH.dot;
  }
}

function errorMessage(state: EdgeTextState): string {
  switch (state) {
    case 'edgeText':
      return "Unexpected '--' inside edge text: close the text with a link such as '-->' or '---'";
    case 'thickEdgeText':
      return "A '=' cannot appear inside thick edge text: close the text with a link such as '==>' or '==='";
    case 'dottedEdgeText':
      return "A '.' cannot appear inside dotted edge text: close the text with a link such as '.->' or '.-'";
  }
}
