/**
 * Where the agent's SOP tools come from: `sop serve` on stdio, started from this app's own install of the toolkit
 * (faster than `npx`, and never a download), or a running server or gateway over HTTP when SOP_URL names one.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The compiled agent to follow (its `agent:` name). */
export const AGENT = process.env['SOP_AGENT'] ?? 'example_support';

/** A Streamable HTTP endpoint, e.g. `http://127.0.0.1:3000/mcp` of `sop serve --gateway --http`. */
export const SOP_URL = process.env['SOP_URL'];

/** `node <the toolkit's CLI> serve`, in this app's folder: it serves the app's `generated/sop-bundle.json`. */
export function sopServeCommand(): { command: string; args: string[] } {
  const toolkit = dirname(createRequire(import.meta.url).resolve('sop-toolkit/package.json'));
  return { command: process.execPath, args: [join(toolkit, 'dist/cli/main.js'), 'serve'] };
}

/** The agent's instructions: the SOP's own system prompt comes back from load_graph. */
export const INSTRUCTIONS = [
  `You are a support agent that follows a standard operating procedure served by your tools.`,
  `First call load_graph with {"agent": "${AGENT}"}: its answer has the system prompt to follow and a run_id.`,
  `Then move through the flowchart with goto_node before each step, and keep the user's tasks with todo.`,
  `Pass the run_id to every call.`,
].join(' ');
