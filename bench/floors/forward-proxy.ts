/**
 * The floor for a server that stands between an MCP client and a domain server: the least a forwarding proxy can
 * be with the SDK the gateway is built on (the v2 line). It connects to the domain server over stdio with the SDK
 * `Client` (both eras, as the gateway's upstream client does), lists its tools once, and serves them over stdio with
 * the SDK's low-level `Server`: `tools/list` answers the upstream's list, `tools/call` forwards the call as it came
 * and answers what came back. No checks, no run, no audit: whatever the gateway costs above this is its own work;
 * what this costs over a direct call is the second hop.
 *
 *   node dist/bench/floors/forward-proxy.js -- <node args of the domain server>
 */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const dash = process.argv.indexOf('--');
const upstreamArgs = dash >= 0 ? process.argv.slice(dash + 1) : [];
if (upstreamArgs.length === 0) {
  process.stderr.write('forward-proxy: name the domain server: -- <node args>\n');
  process.exit(2);
}

const upstream = new Client({ name: 'bench-forward-proxy', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
await upstream.connect(new StdioClientTransport({ command: process.execPath, args: upstreamArgs, stderr: 'pipe' }));
const { tools } = await upstream.listTools();

serveStdio(() => {
  const server = new Server({ name: 'bench-forward-proxy', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({ tools }));
  server.setRequestHandler('tools/call', (request) =>
    upstream.callTool({ name: request.params.name, arguments: request.params.arguments }),
  );
  return server;
});
