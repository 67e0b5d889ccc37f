/**
 * Seeing the spans of a real `sop serve`, the way the README tells users to: an SDK registered by a preload
 * (`node --import`) with the console exporter. Over stdio the spans must go to stderr: stdout carries nothing
 * but protocol messages.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../runtime/helpers/fixture-process.js';
import { conversation, jsonRpcLines, runStdio } from '../runtime/helpers/stdio-process.js';

const CLI = join(PROJECT_ROOT, 'dist/cli/main.js');
const PRELOAD = join(PROJECT_ROOT, 'test/fixtures/runtime/otel-console.mjs');

describe('sop serve with an OpenTelemetry SDK preloaded', () => {
  it('prints a span per tool call to stderr, and keeps stdout for the protocol', async () => {
    const run = await runStdio(
      process.execPath,
      ['--import', PRELOAD, CLI, 'serve'],
      conversation([
        { name: 'load_graph', arguments: { agent: 'retail_customer_support' } },
        { name: 'goto_node', arguments: { node_id: 'START' } },
      ]),
      { cwd: PROJECT_ROOT },
    );
    expect(run.exitCode).toBe(0);
    // Every request answered, in whatever order (a tool call may overtake the tools/list sent before it).
    expect(
      jsonRpcLines(run.stdout)
        .map((message) => Number(message.id))
        .sort((a, b) => a - b),
    ).toEqual([0, 1, 2, 3]);
    expect(run.stderr).toContain("name: 'tools/call load_graph'");
    expect(run.stderr).toContain("name: 'tools/call goto_node'");
    expect(run.stderr).toMatch(/'sop\.node\.to': 'START'/);
    expect(run.stderr).toMatch(/'sop\.agent': 'retail_customer_support'/);
  });
});
