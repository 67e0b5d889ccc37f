/**
 * Where in the stack a run is, on the runs page: over real HTTP with a real SDK client driving `retail_orders` (the
 * golden case `compose`) into the authentication sub-flow, the page's API gives the run's version with the SOPs it
 * calls (`frames`: each one's flowchart and own ids), and the page draws, for a step inside the call, the called SOP's
 * flowchart with the run marked in its own ids (`frameView`), and the stack above it; outside, the caller's.
 */
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SopBundle } from '../../../contract/compiled-sop.js';
import { serveHttp, type SopHttpServer } from '../../../runtime/http/serve-http.js';
import { frameView } from '../../../runtime/page/frame-view.js';
import type { RunSop } from '../../../runtime/page/run-shapes.js';
import { stepView } from '../../../runtime/page/run-timeline.js';
import { planRunsPage } from '../../../runtime/page/runs-page.js';
import type { SessionService } from '../../../runtime/service/session-service.js';
import type { AuditEntry } from '../../../runtime/store/run-store.js';
import { callTool, fixtureService } from '../helpers/mcp-client.js';

const bundle = JSON.parse(
  readFileSync(new URL('../../fixtures/golden/compose/generated/sop-bundle.json', import.meta.url), 'utf8'),
) as SopBundle;

describe('the runs page inside a sub-flow', () => {
  let service: SessionService;
  let server: SopHttpServer;
  let client: Client;

  beforeAll(async () => {
    service = fixtureService({ bundle });
    const page = planRunsPage({ service });
    if (!page.on) throw new Error(page.reason);
    server = await serveHttp({ service, host: '127.0.0.1', port: 0, routes: page.routes });
    client = new Client({ name: 'frames-test', version: '0.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  });
  afterAll(async () => {
    await client.close();
    await server.close();
    await service.close();
  });

  it('serves the called SOPs with the run, and draws the frame the run is in', async () => {
    const runId = (await callTool(client, 'load_graph', { agent: 'retail_orders' })).answer['run_id'] as string;
    for (const node of ['START', 'AUTHENTICATE', 'IDENTIFY', 'FOUND']) await callTool(client, 'goto_node', { node_id: node });
    const response = await fetch(`http://127.0.0.1:${server.port}/runs/api/runs/${runId}`);
    const body = (await response.json()) as { run: { current_node: string; path: string[] }; sop: RunSop; audit: AuditEntry[] };
    expect(body.run.current_node).toBe('AUTHENTICATE.FOUND');
    expect(body.sop.frames).toEqual({
      AUTHENTICATE: {
        agent: 'authenticate_customer',
        version: '1.0',
        source_file: 'sops/authenticate_customer.md',
        flowchart: bundle.agents['authenticate_customer']!.flowchart,
        node_ids: bundle.agents['authenticate_customer']!.nodeIds,
        entry_node: 'START',
      },
    });

    const inside = frameView(body.sop, stepView(body.audit, body.audit.length));
    expect(inside.flowchart).toBe(bundle.agents['authenticate_customer']!.flowchart);
    expect(inside.stack).toEqual(['retail_orders', 'AUTHENTICATE → authenticate_customer']);
    expect(inside.marks).toEqual({
      visited: ['START', 'IDENTIFY', 'FOUND'],
      current: 'FOUND',
      traversed: [
        ['START', 'IDENTIFY'],
        ['IDENTIFY', 'FOUND'],
      ],
      refused: [],
    });
    const before = frameView(body.sop, stepView(body.audit, 2));
    expect(before.flowchart).toBe(bundle.agents['retail_orders']!.flowchart);
    expect(before.stack).toEqual(['retail_orders']);
    expect(before.marks.current).toBe('START');
  });

  it('draws a move refused inside a call on the called SOP, read in its frame as the server read it', async () => {
    const runId = (await callTool(client, 'load_graph', { agent: 'retail_orders' })).answer['run_id'] as string;
    for (const node of ['START', 'AUTHENTICATE', 'IDENTIFY']) await callTool(client, 'goto_node', { node_id: node });
    expect((await callTool(client, 'goto_node', { node_id: 'CODE_OK' })).answer).toMatchObject({ valid: false });
    const response = await fetch(`http://127.0.0.1:${server.port}/runs/api/runs/${runId}`);
    const body = (await response.json()) as { sop: RunSop; audit: AuditEntry[] };
    const view = frameView(body.sop, stepView(body.audit, body.audit.length, new Set(body.sop.node_ids)));
    expect(view.flowchart).toBe(bundle.agents['authenticate_customer']!.flowchart);
    expect(view.marks.refused).toEqual([['IDENTIFY', 'CODE_OK']]);
  });

  it('back in the caller after the call returned: the sub-flow node visited, the moves into and out of it along its edges', async () => {
    const runId = (await callTool(client, 'load_graph', { agent: 'retail_orders' })).answer['run_id'] as string;
    for (const node of ['START', 'AUTHENTICATE', 'IDENTIFY', 'FOUND', 'VERIFY', 'CODE_OK', 'AUTHENTICATED', 'ROUTE']) {
      await callTool(client, 'goto_node', { node_id: node });
    }
    const response = await fetch(`http://127.0.0.1:${server.port}/runs/api/runs/${runId}`);
    const body = (await response.json()) as { run: { current_node: string }; sop: RunSop; audit: AuditEntry[] };
    expect(body.run.current_node).toBe('ROUTE');
    const back = frameView(body.sop, stepView(body.audit, body.audit.length));
    expect(back.flowchart).toBe(bundle.agents['retail_orders']!.flowchart);
    expect(back.stack).toEqual(['retail_orders']);
    expect(back.marks).toEqual({
      visited: ['START', 'AUTHENTICATE', 'ROUTE'],
      current: 'ROUTE',
      traversed: [
        ['START', 'AUTHENTICATE'],
        ['AUTHENTICATE', 'ROUTE'],
      ],
      refused: [],
    });
  });
});
