/**
 * Never stale, with real processes: `sop build --watch` beside a running `sop serve --http` in an app folder.
 * An edited prompt is rebuilt by the watcher and picked up by the server without a restart: a new run gets the
 * new text, while the run that started before the edit keeps the version it started with.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_SOP } from '../support/sop-text.js';
import { CLI, runCli } from '../support/run-cli.js';
import { httpClient, type ServeProcess, startServe } from '../support/serve-process.js';

let app: string;
let server: ServeProcess | undefined;
let watcher: ChildProcess | undefined;

beforeAll(() => {
  app = mkdtempSync(join(tmpdir(), 'sop-reload-'));
  mkdirSync(join(app, 'sops'));
  writeFileSync(join(app, 'package.json'), '{ "name": "reload-app", "private": true }\n');
  writeFileSync(join(app, 'sops', 'demo.md'), BASE_SOP);
  const built = runCli(['build'], app);
  if (built.code !== 0) throw new Error(built.stdout + built.stderr);
});
afterAll(async () => {
  watcher?.kill('SIGTERM');
  await server?.stop();
  rmSync(app, { recursive: true, force: true });
});

async function promptOfAsk(client: Client, runId?: string): Promise<{ runId: string; prompt: string }> {
  const id =
    runId ?? ((await client.callTool({ name: 'load_graph', arguments: { agent: 'demo' } })).structuredContent as { run_id: string }).run_id;
  await client.callTool({ name: 'goto_node', arguments: { node_id: 'START', run_id: id } });
  const ask = (await client.callTool({ name: 'goto_node', arguments: { node_id: 'ASK', run_id: id } })).structuredContent as {
    node: { prompt: string };
  };
  return { runId: id, prompt: ask.node.prompt };
}

describe('sop build --watch beside sop serve --http', () => {
  it('serves a rebuilt prompt to new runs without a restart, and keeps a running run on its version', async () => {
    server = await startServe(['--store', 'memory'], app);
    const { client } = await httpClient(server.url);
    const before = await promptOfAsk(client);
    expect(before.prompt).toBe('Ask the question.');

    watcher = spawn(process.execPath, [CLI, 'build', '--watch'], { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] });
    let watchOutput = '';
    watcher.stdout?.setEncoding('utf8').on('data', (chunk: string) => (watchOutput += chunk));
    await waitFor(
      () => watchOutput.includes('watching'),
      20_000,
      () => `the watcher did not start:\n${watchOutput}`,
    );

    const bundle = join(app, 'generated', 'sop-bundle.json');
    const old = readFileSync(bundle, 'utf8');
    writeFileSync(join(app, 'sops', 'demo.md'), BASE_SOP.replace('Ask the question.', 'Ask the question, politely.'));
    await waitFor(
      () => readFileSync(bundle, 'utf8') !== old,
      20_000,
      () => `the bundle was not rebuilt:\n${watchOutput}`,
    );

    let fresh = await promptOfAsk(client);
    const deadline = Date.now() + 10_000;
    while (fresh.prompt !== 'Ask the question, politely.' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      fresh = await promptOfAsk(client);
    }
    expect(fresh.prompt).toBe('Ask the question, politely.');
    // The run that started before the edit goes on with the version it started with.
    expect((await promptOfAsk(client, before.runId)).prompt).toBe('Ask the question.');
    await client.close();
  }, 60_000);
});

async function waitFor(done: () => boolean, ms: number, why: () => string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(why());
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
