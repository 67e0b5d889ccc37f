/**
 * How deep a YAML document nests, measured on the `yaml` package's CST (its parser is iterative; its composer,
 * which builds the document, recurses once per level and overflows the stack near 1,000 levels). Measuring first
 * lets the caller refuse a too-deep block at a real position before composing it, whatever the stack size.
 */
import type { CST } from 'yaml';

export interface CstDepth {
  readonly depth: number;
  /** Offset of a token at the deepest level (where a too-deep block is reported). */
  readonly offset: number;
}

export function cstDepth(tokens: readonly CST.Token[]): CstDepth {
  let deepest: CstDepth = { depth: 0, offset: 0 };
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
