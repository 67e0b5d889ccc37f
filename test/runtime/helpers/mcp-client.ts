/**
 * Test helpers around a real SDK `Client`: connect one to a fixture server in-process
 * (`InMemoryTransport.createLinkedPair()`), and call tools checking the invariants every answer must keep
 * (structuredContent present, text = compact JSON of it).
 */
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { expect } from 'vitest';
import { createSopServer, type SopServerOptions } from '../../../runtime/index.js';
import { FIXTURE_BUNDLE, FIXTURE_PROJECT } from '../../fixtures/runtime/agents.js';
import { createCatalog } from '../../../runtime/agents/agent-catalog.js';

/** A tool answer as JSON: tests read nested fields freely and compare whole values with toEqual. */
export type Answer = Record<string, any>;

export interface ToolCall {
  readonly answer: Answer;
  readonly isError: boolean;
}

export const FIXTURE_ROOT = fileURLToPath(FIXTURE_PROJECT);

/** Calls a tool and checks the answer carries structuredContent and the same JSON, compact, as text. */
export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<ToolCall> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text: string }[];
  expect(content).toHaveLength(1);
  expect(content[0]?.type).toBe('text');
  expect(result.structuredContent).toBeTypeOf('object');
  expect(content[0]?.text).toBe(JSON.stringify(result.structuredContent));
  return { answer: result.structuredContent as Answer, isError: result.isError === true };
}

export interface Connected {
  readonly client: Client;
  call(name: string, args: Record<string, unknown>): Promise<ToolCall>;
  close(): Promise<void>;
}

/** A Client connected in-process to `createSopServer` (fixture agents and project unless overridden). */
export async function connectInMemory(options: Partial<SopServerOptions> = {}): Promise<Connected> {
  const server = createSopServer({ catalog: createCatalog(FIXTURE_BUNDLE), projectRoot: FIXTURE_ROOT, ...options });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'runtime-test', version: '0.0.0' });
  await client.connect(clientSide);
  // Listing the tools makes the client validate every structuredContent against the output schemas.
  await client.listTools();
  return {
    client,
    call: (name, args) => callTool(client, name, args),
    async close() {
      await client.close();
      await server.close();
    },
  };
}
