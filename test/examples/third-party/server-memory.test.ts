/**
 * The gateway's third-party upstream: @modelcontextprotocol/server-memory (the reference knowledge-graph server,
 * an exact-pinned devDependency), started from node_modules over stdio exactly as the fixture SOP
 * (test/fixtures/gateway/knowledge_keeper.md) names it, offline. The SOP compiles without a diagnostic, the server
 * offers every tool the SOP names (at each node and in its frontmatter), and it keeps its graph in the file the
 * environment gives it, not in node_modules.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { compileSop } from '../../../generator/compile-sop.js';
import { PROJECT_ROOT } from '../../support/run-cli.js';

const SOP_FILE = 'test/fixtures/gateway/knowledge_keeper.md';
const compiled = compileSop(SOP_FILE, readFileSync(join(PROJECT_ROOT, SOP_FILE), 'utf8'));
const dir = mkdtempSync(join(tmpdir(), 'server-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The SOP's server entry made runnable: `${NAME}` in `env` values taken from `vars`, as a gateway would. */
function launch(vars: Record<string, string>) {
  const entry = compiled.model?.mcpServers.find((server) => server.name === 'memory');
  if (entry?.command === undefined) throw new Error(`${SOP_FILE} names no stdio server "memory"`);
  const env = Object.fromEntries(
    Object.entries((entry.env ?? {}) as Record<string, string>).map(([key, value]) => [
      key,
      value.replace(/\$\{(\w+)\}/g, (_whole, name: string) => vars[name] ?? ''),
    ]),
  );
  return {
    command: entry.command,
    args: [...(entry.args ?? [])],
    cwd: PROJECT_ROOT,
    env: { ...getDefaultEnvironment(), ...env },
    stderr: 'pipe' as const,
  };
}

describe('@modelcontextprotocol/server-memory as named by the fixture SOP', () => {
  it('the fixture SOP compiles with no diagnostic', () => {
    expect(compiled.diagnostics).toEqual([]);
    expect(compiled.model?.policies.map((policy) => policy.id)).toEqual(['look_before_writing', 'confirm_before_writing']);
  });

  it.each(['v1', 'v2', 'v2-auto'] as const)(
    'starts from node_modules over stdio (%s client) and offers every tool the SOP names',
    async (line) => {
      const memoryFile = join(dir, `memory-${line}.jsonl`);
      const params = launch({ MEMORY_FILE_PATH: memoryFile });
      expect(params.args[0]).toMatch(/^node_modules\/@modelcontextprotocol\/server-memory\//);
      const client =
        line === 'v1' ? new ClientV1({ name: 'memory-test', version: '0' }) : new ClientV2({ name: 'memory-test', version: '0' });
      await client.connect(line === 'v1' ? new StdioV1(params) : (new StdioV2(params) as never));
      try {
        if (client instanceof ClientV2) expect(client.getProtocolEra()).toBe('legacy');
        const offered = new Set((await client.listTools()).tools.map((tool) => tool.name));
        const named = compiled.model?.tools.map((tool) => tool.name) ?? [];
        const atNodes = compiled.model?.prompts.flatMap((prompt) => prompt.tools.map((tool) => tool.name)) ?? [];
        expect(named).toHaveLength(6);
        for (const tool of [...named, ...atNodes]) expect(offered, tool).toContain(tool);
        // Tools the SOP leaves out exist too (the gateway offers them and refuses them at every node).
        expect(offered).toContain('delete_entities');

        // It works offline and keeps its graph where the environment said.
        const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });
        expect((await call('read_graph', {})).structuredContent).toEqual({ entities: [], relations: [] });
        await call('create_entities', { entities: [{ name: 'Sophia_Martin', entityType: 'person', observations: ['owns a tablet'] }] });
        const found = await call('search_nodes', { query: 'tablet' });
        expect(found.structuredContent).toMatchObject({ entities: [{ name: 'Sophia_Martin', observations: ['owns a tablet'] }] });
        expect(readFileSync(memoryFile, 'utf8')).toMatch(/"name":"Sophia_Martin"/);
        expect(existsSync(join(PROJECT_ROOT, 'node_modules/@modelcontextprotocol/server-memory/dist/memory.jsonl'))).toBe(false);
      } finally {
        await client.close();
      }
    },
  );
});
