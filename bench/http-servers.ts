/**
 * HTTP servers under test, as real processes on a free loopback port, and how the lean client drives each kind:
 * our `sop serve --http` (a conversation: `load_graph`, then `goto_node` along a recorded walk of the flowchart)
 * and the minimal SDK server (`bench/floors/noop-server.ts`: its no-op tool). Every row that compares the two
 * over HTTP uses these, so both sides are started and driven the same way.
 */
import type { ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import type { HttpSession } from './clients/http-session.js';
import { toAnswer } from './clients/sdk-stdio.js';
import { freePort, startNode, waitFor } from './processes.js';
import { NOOP_FLOOR } from './project.js';
import { assertMoved, cycle, recordWalk } from './walk.js';

export interface HttpServerProcess {
  readonly child: ChildProcess;
  readonly port: number;
}

/** Starts `node ...args --http --port N` in `cwd` and waits until it accepts connections. */
export async function startHttpServer(args: readonly string[], cwd: string, signal: AbortSignal): Promise<HttpServerProcess> {
  const port = await freePort();
  const child = startNode([...args, '--http', '--port', String(port)], { cwd, signal });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-1000)));
  child.stdout?.resume();
  const probe = (): Promise<void> =>
    new Promise((resolve, reject) => {
      if (child.exitCode !== null || child.signalCode !== null) return reject(new Error(`server exited: ${stderr}`));
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        resolve();
      });
      socket.on('error', reject);
    });
  await waitFor(probe, 15_000, `HTTP server on port ${port}`);
  return { child, port };
}

/** How a kind of server is started and driven: what a session does once opened, and the call it repeats. */
export interface Driver {
  readonly label: string;
  /** `node` arguments, without `--http --port`. */
  readonly args: readonly string[];
  prepare(session: HttpSession): Promise<() => Promise<unknown>>;
}

export function noopDriver(): Driver {
  return {
    label: 'no-op floor',
    args: [NOOP_FLOOR],
    async prepare(session) {
      await session.callTool('noop', { node_id: 'X' });
      return () => session.callTool('noop', { node_id: 'X' });
    },
  };
}

/** `sop serve` on the run store at `store`; a session loads `agent`, then walks its flowchart. */
export function serveDriver(cli: string, agent: string, store: string): Driver {
  let walk: string[] | undefined;
  return {
    label: `serve --http --store ${store.split(':')[0]}`,
    args: [cli, 'serve', '--store', store],
    async prepare(session) {
      const loaded = toAnswer(await session.callTool('load_graph', { agent }));
      if (loaded.isError) throw new Error(`load_graph(${agent}) failed: ${loaded.text.slice(0, 300)}`);
      const entry = String(loaded.data.entry_node ?? 'START');
      const goto = async (id: string) => toAnswer(await session.callTool('goto_node', { node_id: id }));
      // The first session records the tour; the others replay it (every session starts at the entry node).
      walk ??= await recordWalk(goto, entry, 200);
      const next = cycle(walk);
      return async () => {
        const target = next();
        const answer = toAnswer(await session.callTool('goto_node', { node_id: target }));
        assertMoved(answer, target);
      };
    },
  };
}
