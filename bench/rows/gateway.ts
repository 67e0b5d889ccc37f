/**
 * Row 14 (since 2026-11-28 the gateway answers a 2025-era client's plain calls without the SDK's per-request serving,
 * which the proxy keeps, so the first ratio is what a user pays over the proxy rather than the gateway's own work
 * alone: that, timed inside the gateway, is 35–40 µs a call, the serving it no longer does about 40):
 * what the gateway costs (`sop serve --gateway`, the retail SOP, the example retail server over stdio
 * upstream; all in the repository, as `npm start -- --gateway` runs it):
 *   - a domain call through the gateway ÷ the same call through a bare forwarding proxy on the same SDK
 *     (`bench/floors/forward-proxy.ts`: it checks nothing, keeps no run, audits nothing), both over stdio with the SDK
 *     client, p50 (goal ≤ 1.1): the gateway's own work. The call is `get_order_details` at INFO (a read the node
 *     offers); through the gateway it is decided on the run, sent on and its answer committed (the memory store,
 *     stdio's default). Calls go in alternating blocks so a noisy phase hits every series. The same call made
 *     directly to the domain server is in the note: no server in the middle of a stdio pipe can come near it (the
 *     proxy alone is 2.7–3.0 × direct), so it is not the floor;
 *   - observe mode (`--observe`) ÷ enforce mode, the same calls, p50 (goal ≤ 1.05): watching what enforcement would
 *     decide costs what enforcing costs;
 *   - what a model reads of the tools: the gateway's `tools/list` ÷ the domain server's own list plus the
 *     toolkit's four tools as `sop serve` lists them, in o200k tokens of the JSON (goal ≤ 1.05). The difference is
 *     the optional `run_id` the gateway adds to every domain tool, and its `listChanged` capability.
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { connectStdio, type StdioConnection } from '../clients/sdk-stdio.js';
import type { BenchContext, BenchRow } from '../context.js';
import { distPath, FORWARD_PROXY_FLOOR, ROOT } from '../project.js';
import { row, type Row } from '../report.js';
import { interleavedCalls, percentile } from '../stats.js';

const OWN = {
  name: 'domain call through the gateway ÷ a bare forwarding proxy on the same SDK (stdio, p50)',
  goal: '<= 1.1',
  unit: 'ms',
} as const;
const OBSERVE = { name: 'domain call through the gateway, observe mode ÷ enforce mode (stdio, p50)', goal: '<= 1.05', unit: 'ms' } as const;
const TOOLS = { name: "tools/list tokens, gateway ÷ domain server's list + the toolkit's tools", goal: '<= 1.05', unit: 'tokens' } as const;

const RETAIL_SERVER = distPath('examples', 'retail-tools', 'main.js');
const CLI = distPath('cli', 'main.js');
const ORDER = { order_id: '#W4817420' };

/** A gateway (enforcing, or observing) with a run at INFO, where `get_order_details` is offered. */
async function gatewayAtInfo(ctx: BenchContext, observe: boolean): Promise<StdioConnection> {
  const flags = observe ? ['--observe'] : [];
  const gateway = await connectStdio([CLI, 'serve', '--gateway', ...flags, '--agents', 'retail_customer_support'], ROOT, ctx.signal);
  await gateway.call('load_graph', { agent: 'retail_customer_support' });
  for (const node_id of ['START', 'AUTH']) await gateway.call('goto_node', { node_id });
  const found = await gateway.call('find_user_id_by_email', { email: 'sophia.martin4832@example.com' });
  if (found.isError) throw new Error(`the lookup failed: ${found.text}`);
  for (const node_id of ['ROUTE', 'INFO']) await gateway.call('goto_node', { node_id });
  const check = await gateway.call('get_order_details', ORDER);
  if (check.isError) throw new Error(`get_order_details through the gateway failed: ${check.text}`);
  return gateway;
}

async function run(ctx: BenchContext): Promise<Row[]> {
  const rounds = ctx.quick ? 1 : 10;
  const block = ctx.quick ? 30 : 500;
  let gateway: StdioConnection | undefined;
  let observing: StdioConnection | undefined;
  let direct: StdioConnection | undefined;
  let plain: StdioConnection | undefined;
  let proxy: StdioConnection | undefined;
  try {
    gateway = await gatewayAtInfo(ctx, false);
    observing = await gatewayAtInfo(ctx, true);
    direct = await connectStdio([RETAIL_SERVER], ROOT, ctx.signal);
    plain = await connectStdio([CLI, 'serve', '--agents', 'retail_customer_support', '--inspect', 'where'], ROOT, ctx.signal);
    proxy = await connectStdio([FORWARD_PROXY_FLOOR, '--', RETAIL_SERVER], ROOT, ctx.signal);
    const through = gateway.client;
    const watched = observing.client;
    const straight = direct.client;
    const forwarded = proxy.client;

    ctx.log(
      `row gateway: ${rounds} × ${block} get_order_details calls each through the gateway, an observing one, a bare proxy and direct`,
    );
    const times = await interleavedCalls(
      {
        gateway: () => through.callTool({ name: 'get_order_details', arguments: ORDER }),
        observe: () => watched.callTool({ name: 'get_order_details', arguments: ORDER }),
        proxy: () => forwarded.callTool({ name: 'get_order_details', arguments: ORDER }),
        direct: () => straight.callTool({ name: 'get_order_details', arguments: ORDER }),
      },
      { rounds, block },
    );
    const p50 = percentile(times.gateway, 50);
    const [p50Observe, p50Direct, p50Proxy] = [percentile(times.observe, 50), percentile(times.direct, 50), percentile(times.proxy, 50)];

    const listed = (await through.listTools()).tools;
    const own = (await straight.listTools()).tools;
    const toolkit = (await plain.client.listTools()).tools;
    const tokens = (tools: unknown) => countTokens(JSON.stringify({ tools }));
    const [gatewayTokens, domainTokens, toolkitTokens] = [tokens(listed), tokens(own), tokens(toolkit)];
    return [
      row({
        ...OWN,
        value: p50,
        floor: p50Proxy,
        note:
          `${times.gateway.length} calls each; p99 ${percentile(times.gateway, 99).toFixed(3)} ms through the gateway, ` +
          `${percentile(times.proxy, 99).toFixed(3)} ms through the proxy (it checks nothing, keeps no run, audits nothing); ` +
          `the gateway's run on the memory store (stdio's default); direct to the domain server p50 ${p50Direct.toFixed(3)} ms: ` +
          `the gateway ${(p50 / p50Direct).toFixed(2)} ×, the proxy ${(p50Proxy / p50Direct).toFixed(2)} × (the second hop)`,
      }),
      row({
        ...OBSERVE,
        value: p50Observe,
        floor: p50,
        note: `the same call at INFO, which both forward; p99 ${percentile(times.observe, 99).toFixed(3)} ms observing`,
      }),
      row({
        ...TOOLS,
        value: gatewayTokens,
        floor: domainTokens + toolkitTokens,
        note: `${listed.length} tools listed by the gateway; the domain server's ${own.length} tools ${domainTokens} tokens, the toolkit's ${toolkit.length} tools ${toolkitTokens}`,
      }),
    ];
  } finally {
    await gateway?.close().catch(() => {});
    await observing?.close().catch(() => {});
    await direct?.close().catch(() => {});
    await plain?.close().catch(() => {});
    await proxy?.close().catch(() => {});
  }
}

export const gatewayRow: BenchRow = {
  id: 'gateway',
  title: 'the gateway: a domain call, and the tools a model reads',
  specs: [OWN, OBSERVE, TOOLS],
  budgetMs: 120_000,
  run,
};
