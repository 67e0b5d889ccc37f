/**
 * Sub-flows on the real runtime through an SDK client: the golden case `compose`, where `retail_orders` calls the
 * shared `authenticate_customer` SOP. A run is pinned to the expanded version (its hash covers the callee's); entering
 * the sub-flow node enters the called SOP's entry node in the same move; inside it the answers carry the call stack,
 * ids of the current SOP may be given without their qualifier, the caller's hubs stay closed until reached, and the
 * called SOP's hubs close when its call ends; visit counts of a called SOP hold across calls; the audit log records
 * the qualified ids; `inspect` shows the stack.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SopBundle } from '../../../contract/compiled-sop.js';
import { composeSop } from '../../../contract/composition.js';
import { createMemoryRunStore } from '../../../runtime/store/memory-run-store.js';
import type { RunStore } from '../../../runtime/store/run-store.js';
import { type Connected, connectInMemory, fixtureService } from '../helpers/mcp-client.js';

const bundle = JSON.parse(
  readFileSync(new URL('../../fixtures/golden/compose/generated/sop-bundle.json', import.meta.url), 'utf8'),
) as SopBundle;

describe('goto_node through a sub-flow (retail_orders calls authenticate_customer)', () => {
  let store: RunStore;
  let connected: Connected;
  beforeEach(async () => {
    store = createMemoryRunStore();
    connected = await connectInMemory({ service: fixtureService({ bundle, store }) });
  });
  afterEach(async () => {
    await connected.close();
    await connected.service.close();
    await store.close();
  });
  const go = async (node_id: string, extra: Record<string, unknown> = {}) =>
    (await connected.call('goto_node', { node_id, ...extra })).answer;

  it('pins the run to the expanded version, whose hash covers the called SOP', async () => {
    const { answer } = await connected.call('load_graph', { agent: 'retail_orders' });
    const expanded = composeSop(bundle.agents['retail_orders']!, (name) => bundle.agents[name]);
    if (!expanded.ok) throw new Error(expanded.error);
    const read = await store.read(answer['run_id'], 0);
    expect(read.status).toBe('found');
    if (read.status !== 'found') return;
    expect(read.run.sourceHash).toBe(expanded.sop.sourceHash);
    expect(read.run.sourceHash).not.toBe(bundle.agents['retail_orders']!.sourceHash);
    expect(await store.getAgentVersion(read.run.sourceHash)).toMatchObject({ calls: { AUTHENTICATE: { agent: 'authenticate_customer' } } });
  });

  it('enters the called SOP at its entry node, shows the stack, and returns along the edge its terminal maps to', async () => {
    await connected.call('load_graph', { agent: 'retail_orders' });
    await go('START');
    const entered = await go('AUTHENTICATE');
    expect(entered).toMatchObject({
      valid: true,
      node: { id: 'AUTHENTICATE.START', description: 'Authenticate the customer' },
      edges: [{ to: 'AUTHENTICATE.IDENTIFY', condition: null }],
      path: ['START', 'AUTHENTICATE', 'AUTHENTICATE.START'],
      stack: [
        { agent: 'retail_orders', node: 'AUTHENTICATE' },
        { agent: 'authenticate_customer', node: 'START' },
      ],
    });
    // The called SOP's own ids name its nodes inside the call.
    const identify = await go('IDENTIFY');
    expect(identify.node).toMatchObject({ id: 'AUTHENTICATE.IDENTIFY', tools: ['find_user_id_by_email', 'find_user_id_by_name_zip'] });
    // The caller's hub is not on the path yet: no skipping the authentication.
    const skip = await go('ROUTE');
    expect(skip).toMatchObject({ valid: false, current_node: 'AUTHENTICATE.IDENTIFY' });
    expect(skip['valid_next']).toEqual(['AUTHENTICATE.FOUND', 'START', 'AUTHENTICATE.START']);
    for (const step of ['FOUND', 'VERIFY', 'CODE_OK']) expect((await go(step)).valid).toBe(true);
    const done = await go('AUTHENTICATED');
    expect(done).toMatchObject({
      node: { id: 'AUTHENTICATE.AUTHENTICATED', description: 'Authenticated' },
      edges: [{ to: 'ROUTE', condition: 'authenticated' }],
      stack: [
        { agent: 'retail_orders', node: 'AUTHENTICATE' },
        { agent: 'authenticate_customer', node: 'AUTHENTICATED' },
      ],
    });
    const back = await go('ROUTE');
    expect(back).toMatchObject({ valid: true, node: { id: 'ROUTE' }, path: ['START', 'AUTHENTICATE', 'ROUTE'], returned: 'AUTHENTICATE' });
    expect(back['stack']).toBeUndefined();
    // The call ended: its entry node is no hub of the caller.
    expect(await go('AUTHENTICATE.START')).toMatchObject({ valid: false, current_node: 'ROUTE' });
    const where = (await connected.call('inspect', {})).answer;
    expect(where['stack']).toBeUndefined();
    expect((await go('CHK_CANCEL')).path).toEqual(['START', 'AUTHENTICATE', 'ROUTE', 'CHK_CANCEL']);
  });

  it("keeps the called SOP's visit counts across calls: a restart buys no new attempts", async () => {
    const { answer } = await connected.call('load_graph', { agent: 'retail_orders' });
    for (const step of ['START', 'AUTHENTICATE', 'IDENTIFY', 'FOUND', 'VERIFY', 'CODE_OK', 'VERIFY', 'CODE_OK']) {
      expect((await go(step)).valid, step).toBe(true);
    }
    const where = (await connected.call('inspect', {})).answer;
    expect(where).toMatchObject({
      current_node: { id: 'AUTHENTICATE.CODE_OK' },
      stack: [
        { agent: 'retail_orders', node: 'AUTHENTICATE' },
        { agent: 'authenticate_customer', node: 'CODE_OK' },
      ],
      visits_left: { 'AUTHENTICATE.VERIFY': 1 },
    });
    for (const step of ['START', 'AUTHENTICATE', 'IDENTIFY', 'FOUND', 'VERIFY', 'CODE_OK']) expect((await go(step)).valid, step).toBe(true);
    const refused = await go('VERIFY');
    expect(refused).toMatchObject({ valid: false, escalate_to: 'AUTHENTICATE.LOCKED_OUT' });
    expect(refused['error']).toContain('AUTHENTICATE.VERIFY has been visited 3 times, its limit (max_visits: 3)');
    const locked = await go('LOCKED_OUT');
    expect(locked).toMatchObject({
      node: { id: 'AUTHENTICATE.LOCKED_OUT' },
      edges: [{ to: 'END_UNAUTH', condition: 'not authenticated' }],
    });
    expect((await go('END_UNAUTH')).path).toEqual(['START', 'AUTHENTICATE', 'END_UNAUTH']);
    const audit = await store.audit(answer['run_id']);
    expect(audit.filter((entry) => entry.tool === 'goto_node' && entry.outcome === 'ok').map((entry) => entry.to)).toContain(
      'AUTHENTICATE.VERIFY',
    );
    expect(audit.at(-1)).toMatchObject({ from: 'AUTHENTICATE.LOCKED_OUT', to: 'END_UNAUTH', outcome: 'ok' });
  });
});
