/**
 * A memory probe, run in a child process of its own with `--expose-gc` (a fresh heap, and a GC on demand): how
 * much memory the session service keeps per idle run, or per idle session, on a given run store.
 *
 *   node --expose-gc dist/bench/probes/idle-runs.js DIR STORE_URL AGENT COUNT [--sessions]
 *
 * An item is a run started with `load_graph` and moved once to the entry node, then left alone; with
 * `--sessions`, a session opened as the HTTP adapter opens one, whose `load_graph` makes the run its current
 * one. A first batch of COUNT items warms everything up (code, caches, the store's page cache); then COUNT more
 * are made, and the growth of the V8 heap after a full GC (and of RSS and external memory) is divided by COUNT.
 * Prints one line of JSON: `{ heapBytes, rssBytes, externalBytes, count }` per item.
 */
import { openInProcessService } from '../in-process-service.js';

interface Usage {
  readonly heap: number;
  readonly rss: number;
  readonly external: number;
}

function usageAfterGc(gc: () => void): Usage {
  gc();
  gc();
  const usage = process.memoryUsage();
  return { heap: usage.heapUsed, rss: usage.rss, external: usage.external };
}

const [dir, storeUrl, agent, countText] = process.argv.slice(2);
const gc = (globalThis as { gc?: () => void }).gc;
const count = Number(countText);
if (dir === undefined || storeUrl === undefined || agent === undefined || !(count > 0) || gc === undefined) {
  process.stderr.write('usage: node --expose-gc idle-runs.js DIR STORE_URL AGENT COUNT [--sessions]\n');
  process.exit(2);
}
const sessions = process.argv.includes('--sessions');
const opened = await openInProcessService(dir, storeUrl);
const principal = 'bench';
const entry = opened.entryNode(agent);

async function makeItem(): Promise<void> {
  if (!sessions) {
    const runId = await opened.startRun(agent as string, { principal });
    await opened.call('goto_node', { node_id: entry, run_id: runId }, { principal });
    return;
  }
  const session = await opened.service.openSession(principal);
  if (!session.ok) throw new Error(session.error);
  const caller = { principal, sessionId: session.sessionId };
  await opened.call('load_graph', { agent }, caller);
  await opened.call('goto_node', { node_id: entry }, caller);
}

for (let i = 0; i < count; i++) await makeItem();
const before = usageAfterGc(gc);
for (let i = 0; i < count; i++) await makeItem();
const after = usageAfterGc(gc);
await opened.close();
process.stdout.write(
  `${JSON.stringify({
    heapBytes: (after.heap - before.heap) / count,
    rssBytes: (after.rss - before.rss) / count,
    externalBytes: (after.external - before.external) / count,
    count,
  })}\n`,
);
