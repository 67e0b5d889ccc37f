/**
 * The screening every incoming message gets (`message-guard.ts`): a plain `tools/call` is checked by hand, the rest by
 * the SDK's schemas. Over many variants of a `tools/call`, the hand check never lets through what the schemas refuse,
 * and the screen's verdict is always the schemas'.
 */
import { CallToolRequestSchema, JSONRPCMessageSchema } from '@modelcontextprotocol/core';
import { describe, expect, it } from 'vitest';
import { screenIncoming } from '../../../runtime/mcp/message-guard.js';

const base = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_order_details', arguments: { order_id: '#W1' } } };

const VARIANTS: readonly unknown[] = [
  base,
  { ...base, id: 'a-string-id' },
  { ...base, id: 1.5 },
  { ...base, id: null },
  { ...base, id: true },
  { ...base, jsonrpc: '1.0' },
  { ...base, extra: 1 },
  { ...base, params: { name: 'x' } },
  { ...base, params: { name: 5 } },
  { ...base, params: {} },
  { ...base, params: { name: 'x', arguments: [] } },
  { ...base, params: { name: 'x', arguments: null } },
  { ...base, params: { name: 'x', arguments: 'text' } },
  { ...base, params: { name: 'x', _meta: { progressToken: 3 } } },
  { ...base, params: { name: 'x', _meta: { progressToken: 'p' } } },
  { ...base, params: { name: 'x', _meta: { progressToken: {} } } },
  { ...base, params: { name: 'x', _meta: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } } },
  { ...base, params: { name: 'x', _meta: [] } },
  { ...base, params: { name: 'x', task: { ttl: 1000 } } },
  { ...base, params: [] },
  { ...base, params: null },
  { jsonrpc: '2.0', method: 'tools/call', params: { name: 'x' } },
  { ...base, method: 'tools/list', params: {} },
  'not an object',
  null,
];

function schemasAccept(value: unknown): boolean {
  const envelope = JSONRPCMessageSchema.safeParse(value);
  if (!envelope.success) return false;
  const message = envelope.data as { method?: unknown; id?: unknown };
  if (message.method === 'tools/call' && 'id' in message) return CallToolRequestSchema.safeParse(value).success;
  return true;
}

describe('screenIncoming', () => {
  it('accepts a tools/call exactly when the SDK schemas do', () => {
    for (const variant of VARIANTS) expect(screenIncoming(variant).ok, JSON.stringify(variant)).toBe(schemasAccept(variant));
  });

  it('names the problem of a tools/call the schemas refuse', () => {
    const refused = screenIncoming({ ...base, params: { name: 5 } });
    expect(refused).toMatchObject({ ok: false, response: { id: 7, error: { code: -32602 } } });
    if (!refused.ok) expect(refused.response.error.message).toContain('Invalid params for tools/call: params.name');
  });
});
