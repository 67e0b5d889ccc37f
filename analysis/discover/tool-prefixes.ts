/**
 * The prefixes MCP clients put in front of a log's tool names, inferred from the names alone, for when nothing says
 * which tools there are (no `--against` SOP): the same tool called `cancel_pending_order` in one log,
 * `mcp_retail-tools_cancel_pending_order` (VS Code, Cursor), `retail-tools-cancel_pending_order` (the Copilot SDK),
 * `retail-tools__cancel_pending_order` (Gemini CLI), `retail-tools.cancel_pending_order` or
 * `retail_tools/cancel_pending_order` in others. (Claude Code's `mcp__server__tool` is taken off before, by
 * `minedName`.) The places a name may be cut are `knownToolName`'s (`separatorCuts`).
 *
 * A name N stands for the tool B when N = P + B, P ends with a separator, and either
 *   - B is itself a name of the log (some log called it bare): `retail-tools.cancel_pending_order` beside
 *     `cancel_pending_order`; or
 *   - P is in front of at least two of the log's names and looks like a server's: `retail-tools-` in front of
 *     `get_order_details` and `cancel_pending_order`.
 * Conservative, since a wrong cut renames tools or merges two into one:
 *   - a plain `_` is a word break of a snake_case name, not a server's separator (`get_order_details` is never cut
 *     to `order_details`), except in `mcp_<server>_` in front of two names at least, the server up to its first `_`
 *     unless a bare spelling shows a longer one (`mcp_retail_tools_` beside `get_order`);
 *   - a `-` or a `.` cuts only where no name behind the same prefix has one in its tail (kebab-case tools are never
 *     cut) and some tail shows another style (a `_`, another separator, camelCase): `retail-tools-` in front of
 *     `get_order_details`, not `get-` in front of `get-order-details`;
 *   - a prefix is more than `mcp` and its separator.
 * Among the cuts that fit a name, a bare spelling wins (the longest such tail), then a prefix a bare spelling showed
 * for another name, then the prefix in front of the most names, then the longest (`retail-tools-`, not `retail-`).
 * Names left uncut stay as they are.
 *
 * Linear in the log's distinct tool names (times their length): it reads names, never calls.
 */
import { separatorCuts } from '../replay/conversation.js';

/** What a prefixed name stands for. */
export interface Unprefixed {
  /** The tool: `cancel_pending_order`. */
  readonly tool: string;
  /** What was cut off: `mcp_retail-tools_`. */
  readonly prefix: string;
}

interface Candidate {
  readonly prefix: string;
  readonly separator: string;
  readonly tail: string;
}

/** Per prefixed name among `names`, the tool it stands for; names that keep their spelling are not in the map. */
export function inferToolPrefixes(names: Iterable<string>): Map<string, Unprefixed> {
  const all = new Set(names);
  const candidates = new Map<string, Candidate[]>();
  const tails = new Map<string, string[]>();
  for (const name of all) {
    const cuts: Candidate[] = [];
    for (const { tail, separator } of separatorCuts(name)) {
      const prefix = name.slice(0, name.length - tail.length);
      if (serverName(prefix) === '') continue;
      cuts.push({ prefix, separator, tail });
      const behind = tails.get(prefix) ?? [];
      behind.push(tail);
      tails.set(prefix, behind);
    }
    if (cuts.length > 0) candidates.set(name, cuts);
  }
  const valid = new Map<string, boolean>();
  const fits = (cut: Candidate, bare: boolean): boolean => {
    const key = `${bare ? 1 : 0}${cut.prefix}`;
    let fit = valid.get(key);
    if (fit === undefined) {
      fit = serverLike(cut, tails.get(cut.prefix)!, bare);
      valid.set(key, fit);
    }
    return fit;
  };

  const chosen = new Map<string, Unprefixed>();
  // A bare spelling first (left to right: the first bare tail is the longest); the prefix it shows is the server's for
  // every name behind it.
  const confirmed = new Set<string>();
  for (const [name, cuts] of candidates) {
    const cut = cuts.find((c) => all.has(c.tail) && fits(c, true));
    if (cut === undefined) continue;
    chosen.set(name, { tool: cut.tail, prefix: cut.prefix });
    confirmed.add(cut.prefix);
  }
  for (const [name, cuts] of candidates) {
    if (chosen.has(name)) continue;
    let cut = cuts.findLast((c) => confirmed.has(c.prefix));
    if (cut === undefined)
      for (const c of cuts) {
        if (!fits(c, false)) continue;
        const shared = tails.get(c.prefix)!.length;
        const best = cut === undefined ? 0 : tails.get(cut.prefix)!.length;
        if (shared > best || (shared === best && c.prefix.length > cut!.prefix.length)) cut = c;
      }
    if (cut !== undefined) chosen.set(name, { tool: cut.tail, prefix: cut.prefix });
  }
  // A tail that is itself a prefixed name (`a.b-x` → `b-x` → `x`) stands for what that name stands for.
  for (const [name, unprefixed] of chosen) {
    let tool = unprefixed.tool;
    for (let hops = 0; chosen.has(tool) && hops < 8; hops++) tool = chosen.get(tool)!.tool;
    if (tool !== unprefixed.tool) chosen.set(name, { tool, prefix: name.slice(0, name.length - tool.length) });
  }
  return chosen;
}

/** Whether a prefix is a server's, by its separator and the tails behind it (`bare`: the tail was called bare too). */
function serverLike(cut: Candidate, tails: readonly string[], bare: boolean): boolean {
  const { prefix, separator } = cut;
  if (separator === '_') return tails.length >= 2 && (bare ? /^mcp_.+_$/i : /^mcp_[^_]+_$/i).test(prefix);
  if (separator === '-' || separator === '.')
    return (bare || tails.length >= 2) && tails.every((tail) => !tail.includes(separator)) && tails.some((tail) => OTHER_STYLE.test(tail));
  // `__`, `/`, `:` and longer runs are nobody's word break.
  return bare || tails.length >= 2;
}

/** A word break in a tail that the `-` or `.` cut off before it is not: a `_` or another separator, or camelCase. */
const OTHER_STYLE = /[_/:.-]|[a-z0-9][A-Z]/;

/** The server a prefix names: `retail-tools` of `mcp_retail-tools_`, `retail_tools/`, `retail-tools.`; '' for `mcp_`. */
export function serverName(prefix: string): string {
  const name = prefix.replace(/[-_./:]+$/, '');
  return /^mcp$/i.test(name) ? '' : name.replace(/^mcp[-_./:]+(?=.)/i, '');
}
