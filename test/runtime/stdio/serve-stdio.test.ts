import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleFixtureServer, PROJECT_ROOT } from '../helpers/fixture-process.js';
import { callTool, FIXTURE_ROOT } from '../helpers/mcp-client.js';
import { CLI } from '../../support/run-cli.js';
import { conversation, jsonRpcLines, RawLine, runStdio } from '../helpers/stdio-process.js';

let bundle: string;
beforeAll(async () => {
  bundle = await bundleFixtureServer();
});
afterAll(() => rmSync(bundle, { force: true }));

describe('stdio server process (fixture bundle)', () => {
  it('writes nothing but JSON-RPC lines on stdout, logs to stderr only, and exits 0 when input ends', async () => {
    const run = await runStdio(
      process.execPath,
      [bundle, FIXTURE_ROOT],
      [
        ...conversation([
          { name: 'load_graph', arguments: { agent: 'support_desk' } },
          { name: 'goto_node', arguments: { node_id: 'START' } },
          { name: 'goto_node', arguments: { node_id: 'ROUTE' } },
          { name: 'goto_node', arguments: { node_id: 'NOPE' } },
          { name: 'todo', arguments: { todos: [{ content: '', status: 'pending' }] } },
          { name: 'no_such_tool', arguments: {} },
        ]),
      ],
      { cwd: PROJECT_ROOT },
    );
    expect(run.exitCode).toBe(0);
    // Answers may arrive out of order (the unknown tool is refused before queued calls finish): sort by id.
    const messages = jsonRpcLines(run.stdout).sort((a, b) => Number(a.id) - Number(b.id));
    expect(messages.map((message) => message.id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(messages[3]?.result?.structuredContent).toMatchObject({ path: ['START'], valid: true });
    expect(messages[4]?.result?.structuredContent).toMatchObject({ valid: false, error: 'Cannot reach ROUTE from START' });
    expect(messages[5]?.result).toMatchObject({ isError: true });
    expect(messages[6]?.result).toMatchObject({ isError: true });
    expect(messages[7]?.error).toMatchObject({ code: -32602 });
  });

  it('sop serve exits on SIGTERM while its stdin stays open (a client that ends it by signal, not by closing its input)', async () => {
    const child = spawn(process.execPath, [CLI, 'serve'], { cwd: PROJECT_ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n`);
    while (!stdout.includes('"id":1')) await new Promise((resolve) => setTimeout(resolve, 10));
    child.kill('SIGTERM');
    // It ends by itself, cleanly; one that kept reading its stdin would still be running and need the SIGKILL.
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const ended = await exited;
    clearTimeout(timer);
    expect(ended).toEqual({ code: 0, signal: null });
  });

  it('serves a real SDK client, one conversation per process', async () => {
    const connect = async () => {
      const client = new Client({ name: 'stdio-test', version: '0.0.0' });
      await client.connect(
        new StdioClientTransport({ command: process.execPath, args: [bundle, FIXTURE_ROOT], cwd: PROJECT_ROOT, stderr: 'pipe' }),
      );
      await client.listTools();
      return client;
    };
    const [first, second] = await Promise.all([connect(), connect()]);
    await callTool(first, 'load_graph', { sop_file: 'sops/support_desk.md' });
    await callTool(first, 'goto_node', { node_id: 'START' });
    expect((await callTool(second, 'goto_node', { node_id: 'START' })).isError).toBe(true);
    expect((await callTool(first, 'goto_node', { node_id: 'AUTH' })).answer.path).toEqual(['START', 'AUTH']);
    await Promise.all([first.close(), second.close()]);
  });

  it('answers a line that is not JSON, an oversized message, a batch and malformed params with JSON-RPC errors, and stays up', async () => {
    const big = 'y'.repeat(5 * 1024 * 1024);
    const huge = `{"jsonrpc":"2.0","id":50,"method":"tools/call","params":{"name":"todo","arguments":{"x":"${big}"}}}\n`;
    // The SDK's clients write the id last; a nested "id" near either end must not be taken for it.
    const idLast = `{"method":"tools/call","params":{"name":"todo","arguments":{"id":1,"x":"${big}","y":{"id":2}}},"jsonrpc":"2.0","id":"call-51"}\n`;
    const noId = `{"params":{"id":3,"x":"${big}","y":{"id":4}},"method":"notifications/x","jsonrpc":"2.0"}\n`;
    const run = await runStdio(
      process.execPath,
      [bundle, FIXTURE_ROOT],
      [
        ...conversation([]),
        new RawLine('{"jsonrpc": "2.0", "id": 40, "method": \n'),
        new RawLine(huge),
        new RawLine(idLast),
        new RawLine(noId),
        new RawLine('[{"jsonrpc":"2.0","id":41,"method":"ping"},{"jsonrpc":"2.0","id":42,"method":"ping"}]\n'),
        new RawLine('{"jsonrpc":"2.0","id":43,"method":"tools/call","params":{"arguments":{}}}\n'),
        new RawLine('\n'),
        { jsonrpc: '2.0', id: 44, method: 'tools/call', params: { name: 'load_graph', arguments: { agent: 'tiny_flow' } } },
      ],
      { cwd: PROJECT_ROOT },
    );
    expect(run.exitCode).toBe(0);
    const messages = jsonRpcLines(run.stdout);
    const errors = messages.filter((message) => message.error !== undefined).map((message) => ({ id: message.id, ...message.error }));
    expect(errors).toEqual([
      { id: null, code: -32700, message: 'Parse error: the line is not JSON' },
      { id: 50, code: -32600, message: 'Message larger than 4194304 bytes: dropped. Send smaller messages.' },
      { id: 'call-51', code: -32600, message: 'Message larger than 4194304 bytes: dropped. Send smaller messages.' },
      { id: null, code: -32600, message: 'Message larger than 4194304 bytes: dropped. Send smaller messages.' },
      {
        id: null,
        code: -32600,
        message: 'Batches are not supported: send one JSON-RPC message at a time (MCP removed batching in 2025-06-18).',
      },
      { id: 43, code: -32602, message: 'Invalid params for tools/call: params.name: Invalid input: expected string, received undefined' },
    ]);
    expect(messages.find((message) => message.id === 44)?.result?.structuredContent).toMatchObject({ agent: 'tiny_flow' });
    expect(run.stderr).toBe('');
  });

  it("answers an SDK client's 8 MiB tool call with an error it can match, and serves its next call", async () => {
    const client = new Client({ name: 'stdio-test', version: '0.0.0' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [bundle, FIXTURE_ROOT], cwd: PROJECT_ROOT, stderr: 'pipe' }),
    );
    try {
      const call = client.callTool({ name: 'load_graph', arguments: { agent: 'x'.repeat(8 * 1024 * 1024) } });
      await expect(call).rejects.toMatchObject({ code: -32600, message: expect.stringContaining('Message larger than 4194304 bytes') });
      expect((await callTool(client, 'load_graph', { agent: 'tiny_flow' })).answer).toMatchObject({ agent: 'tiny_flow' });
    } finally {
      await client.close();
    }
  });
});
