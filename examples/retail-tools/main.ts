#!/usr/bin/env node
/**
 * The retail domain MCP server: τ²-bench's retail tools (same names, arguments and rules; our code and data) over a
 * small JSON database, for the gateway's tests, the retail SOP and its demo. Built to dist/ with the toolkit.
 *
 *   node dist/examples/retail-tools/main.js                       MCP on stdio (stdout carries protocol only)
 *   node dist/examples/retail-tools/main.js --http --port 0       Streamable HTTP on 127.0.0.1; prints "listening <port>"
 *   node dist/examples/retail-tools/main.js --db FILE             the database in FILE (created from seed.json when
 *                                                                 missing), saved atomically after every change
 * Both protocol eras, on either transport: 2025-era clients (initialize) and 2026-07-28 clients (server/discover,
 * per-request envelopes). Logs go to stderr.
 *
 * Fault injection, read from the environment at start (off unless set; a bad value is a start-up error):
 *   RETAIL_TOOLS_DELAY_MS=<ms>     every tool call waits that long first
 *   RETAIL_TOOLS_HANG_ON=<tool>    that tool never answers (and changes nothing)
 *   RETAIL_TOOLS_CRASH_ON=<tool>   that tool's change is applied and saved, then the process exits with code 1
 *                                  before answering
 * and at run time: SIGUSR2 toggles the extra tool `get_store_hours` (off at start) and sends
 * `notifications/tools/list_changed`: to 2025-era connections directly (stdio, or an HTTP session's GET stream),
 * and to 2026-07-28 clients on their `subscriptions/listen` streams.
 *
 * Exit codes: 0 when the conversation ends (stdin closed) or on SIGTERM/SIGINT; 1 for the crash fault; 2 for a bad
 * command line, environment or database.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { parseCliArgs, USAGE } from './cli-args.js';
import { describeFaults, readFaultPlan } from './faults.js';
import { openStore } from './retail-db.js';
import { createRetailServerFactory, createToolSwitch } from './retail-server.js';
import { serveRetailHttp } from './serve-http.js';
import { RETAIL_TOOLS, STORE_HOURS_TOOL } from './tool-catalog.js';

const log = (line: string): void => {
  process.stderr.write(`retail-tools: ${line}\n`);
};

function fail(message: string): never {
  log(message);
  process.exit(2);
}

/** seed.json sits beside this module in the source tree; from dist/examples/retail-tools/ it is three folders up. */
function seedPath(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, 'seed.json'), join(here, '..', '..', '..', 'examples', 'retail-tools', 'seed.json')];
  const found = candidates.find((candidate) => existsSync(candidate));
  return found ?? fail(`seed.json not found (looked at ${candidates.join(', ')})`);
}

async function main(): Promise<void> {
  const cli = parseCliArgs(process.argv.slice(2), process.env);
  if (!cli.ok) fail(`${cli.error}\n${USAGE}`);
  const options = cli.value;
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const faults = readFaultPlan(
    process.env,
    RETAIL_TOOLS.map((tool) => tool.name),
  );
  if (!faults.ok) fail(faults.error);
  const store = openStore(readFileSync(seedPath(), 'utf8'), options.db);
  if (!store.ok) fail(store.error);
  const toolSwitch = createToolSwitch();
  const factory = createRetailServerFactory({
    store: store.value,
    faults: faults.value,
    toolSwitch,
    log,
    exit: (code) => process.exit(code),
  });
  const described = describeFaults(faults.value);
  if (described !== undefined) log(`faults: ${described}`);
  log(`database: ${options.db ?? 'in memory, from the seed'}`);

  // Installed before the server announces itself, so a test may signal as soon as it sees "listening" or "ready".
  let publishToolsChanged = (): void => {};
  process.on('SIGUSR2', () => {
    const on = toolSwitch.toggle();
    publishToolsChanged();
    log(`${STORE_HOURS_TOOL} ${on ? 'added to' : 'removed from'} the tool list (SIGUSR2); tools/list_changed sent`);
  });
  if (options.http) {
    const http = await serveRetailHttp({ factory, port: options.port, log, legacyOnly: options.legacyOnly });
    publishToolsChanged = () => http.toolsChanged();
    const stop = () => {
      http.close().then(
        () => process.exit(0),
        () => process.exit(0),
      );
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    log(`serving ${http.url}`);
    process.stdout.write(`listening ${http.port}\n`);
  } else {
    const handle = serveStdio(() => factory(true), { onerror: (error) => log(`stdio: ${error.message}`) });
    const stop = () => {
      handle.close().then(
        () => process.exit(0),
        () => process.exit(0),
      );
    };
    // The conversation is over when the client closes our stdin; nothing else should keep the process up.
    process.stdin.once('end', stop);
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  }
  log(`ready (${options.http ? 'HTTP' : 'stdio'})`);
}

main().catch((error: unknown) => fail(`failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`));
