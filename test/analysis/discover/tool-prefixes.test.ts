/**
 * The prefixes MCP clients put in front of tool names, inferred from a log's names alone (`tool-prefixes.ts`): every
 * client's spelling of a server's tools comes back to the bare names, a spelling beside the bare one is the same
 * tool, and names that only look prefixed (snake_case, kebab-case, one dotted name) keep their spelling.
 */
import { describe, expect, it } from 'vitest';
import { inferToolPrefixes, serverName } from '../../../analysis/discover/tool-prefixes.js';

const TOOLS = ['calculate', 'cancel_pending_order', 'find_user_id_by_email', 'get_order_details', 'get_user_details'];

/** What each name stands for, the names that keep their spelling left out. */
function unprefixed(names: readonly string[]): Record<string, string> {
  return Object.fromEntries([...inferToolPrefixes(names)].map(([name, { tool }]) => [name, tool]));
}

describe('inferToolPrefixes', () => {
  it.each([
    ['mcp_retail-tools_', (t: string) => `mcp_retail-tools_${t}`],
    ['retail-tools-', (t: string) => `retail-tools-${t}`],
    ['retail-tools.', (t: string) => `retail-tools.${t}`],
    ['retail-tools__', (t: string) => `retail-tools__${t}`],
    ['retail_tools/', (t: string) => `retail_tools/${t}`],
    ['mcp__retail-tools__', (t: string) => `mcp__retail-tools__${t}`],
    ['mcp_retail_', (t: string) => `mcp_retail_${t}`],
  ])('takes %s off every tool of the server', (prefix, spell) => {
    const inferred = inferToolPrefixes(TOOLS.map(spell));
    expect(Object.fromEntries([...inferred].map(([name, u]) => [name, u.tool]))).toEqual(
      Object.fromEntries(TOOLS.map((t) => [spell(t), t])),
    );
    for (const u of inferred.values()) expect(u.prefix).toBe(prefix);
  });

  it('a spelling beside the bare name is the same tool, one prefixed tool is enough then', () => {
    expect(unprefixed([...TOOLS, 'retail-tools.cancel_pending_order', 'srv/calculate', 'retail-tools__get_order_details'])).toEqual({
      'retail-tools.cancel_pending_order': 'cancel_pending_order',
      'srv/calculate': 'calculate',
      'retail-tools__get_order_details': 'get_order_details',
    });
  });

  it('never cuts a snake_case name at its words: get_order beside get_order_details and order_details', () => {
    expect(unprefixed(['get_order', 'get_order_details', 'order_details', 'details', 'get_user', 'retail_get_order'])).toEqual({});
    // A VS Code prefix in front of them all is the server's, not `get_`.
    expect(unprefixed(['mcp_retail-tools_get_order', 'mcp_retail-tools_get_order_details'])).toEqual({
      'mcp_retail-tools_get_order': 'get_order',
      'mcp_retail-tools_get_order_details': 'get_order_details',
    });
  });

  it('never cuts kebab-case names, a lone dotted name, or names behind `mcp` and a separator alone', () => {
    expect(unprefixed(['get-order-details', 'get-order-status', 'details', 'resolve-library-id', 'get-library-docs'])).toEqual({});
    expect(unprefixed(['lookup.customer', 'get order (v2)', 'Ändern-Bestellung', '1st_call', '__proto__', 'constructor'])).toEqual({});
    expect(unprefixed(['mcp__get_order', 'mcp__get_user', 'mcp-get-order', 'mcp-get_user'])).toEqual({});
  });

  it('takes `mcp_<server>_` as a server’s prefix when two names share it, the server up to its first `_`', () => {
    // The limit of the rule: VS Code's `mcp_retail_tools_…` leaves `tools_` on, and a tool of its own named
    // `mcp_get_…` would lose `mcp_get_`; a bare spelling in the logs settles both.
    expect(unprefixed(['mcp_retail_tools_get_order', 'mcp_retail_tools_cancel_order'])).toEqual({
      mcp_retail_tools_get_order: 'tools_get_order',
      mcp_retail_tools_cancel_order: 'tools_cancel_order',
    });
    expect(unprefixed(['mcp_retail_tools_get_order', 'mcp_retail_tools_cancel_order', 'get_order'])).toEqual({
      mcp_retail_tools_get_order: 'get_order',
      mcp_retail_tools_cancel_order: 'cancel_order',
    });
  });

  it('names the server a prefix stands for', () => {
    expect(['mcp_retail-tools_', 'mcp__retail-tools__', 'retail-tools.', 'retail_tools/', 'mcp_', 'mcpx-'].map(serverName)).toEqual([
      'retail-tools',
      'retail-tools',
      'retail-tools',
      'retail_tools',
      '',
      'mcpx',
    ]);
  });
});
