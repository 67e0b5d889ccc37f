/**
 * How deep a YAML block nests, measured before the `yaml` package composes it: its composer recurses once per
 * level (it overflows the stack near 1,000 levels, at a depth that depends on the stack size), and its CST parser
 * keeps a frame per flow level (128,000 nested `[` cost it 1.2 s and 150 MB) and recurses for block collections
 * opened on one line (9,500 `? ` overflowed it). So nesting is measured on the lexer's tokens first (a counter per
 * token), then block and flow nesting together on the CST.
 */
import { CST, Lexer } from 'yaml';

export interface Deepest {
  readonly depth: number;
  /** Offset of a token at the deepest level (where a too-deep block is reported). */
  readonly offset: number;
}

/**
 * The first place where the lexer's tokens show nesting deeper than `limit`, or null: flow collections (`[`, `{`)
 * open inside one another, or block collections opened on one line (`- - - x`, `? ? ? x`: the CST parser recurses
 * once for each). Nesting across lines needs a deeper indent per level, so a block holds few such levels, and the
 * CST check below measures them.
 */
export function lexicalTooDeep(text: string, limit: number): Deepest | null {
  let flow = 0;
  let onLine = 0;
  let offset = 0;
  for (const token of new Lexer().lex(text)) {
    const type = CST.tokenType(token);
    if (type === 'flow-seq-start' || type === 'flow-map-start') {
      if (++flow > limit) return { depth: flow, offset };
    } else if (type === 'flow-seq-end' || type === 'flow-map-end') flow = Math.max(0, flow - 1);
    else if (type === 'newline') onLine = 0;
    else if (type === 'seq-item-ind' || type === 'explicit-key-ind' || type === 'map-value-ind') {
      // Each block indicator on a line can open a collection there (a line of ordinary YAML has one or two).
      if (++onLine > limit) return { depth: onLine, offset };
    }
    // The lexer's control tokens (document, scalar and flow-end marks) are not in the text.
    if (!(token.length === 1 && token.charCodeAt(0) < 32 && token !== '\n' && token !== '\t')) offset += token.length;
  }
  return null;
}

/** The deepest nesting of a parsed CST (block and flow collections alike). */
export function cstDepth(tokens: readonly CST.Token[]): Deepest {
  let deepest: Deepest = { depth: 0, offset: 0 };
  const stack: { token: CST.Token; depth: number }[] = tokens.map((token) => ({ token, depth: 0 }));
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    const { token, depth } = frame;
    if (depth > deepest.depth) deepest = { depth, offset: token.offset };
    if (token.type === 'document' && token.value) stack.push({ token: token.value, depth: depth + 1 });
    if (token.type === 'block-map' || token.type === 'block-seq' || token.type === 'flow-collection') {
      for (const item of token.items) {
        if (item.key) stack.push({ token: item.key, depth: depth + 1 });
        if (item.value) stack.push({ token: item.value, depth: depth + 1 });
      }
    }
  }
  return deepest;
}
