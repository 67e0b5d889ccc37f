/**
 * Child processes for the bench: always `node <file>` spawned directly (never through npm, whose own start-up
 * would swamp what we measure), always with a deadline so that a hung server cannot hang the bench, and only
 * ever killed through the handle we spawned. A row's `AbortSignal` (its wall-clock budget) kills them too.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { msSince } from './stats.js';

export interface RunResult {
  readonly code: number | null;
  readonly ms: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `node ...args` to completion (or kills it at the deadline) and times it from spawn to exit. */
export interface RunOptions {
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

export function runNode(args: readonly string[], options: RunOptions): Promise<RunResult> {
  return run(process.execPath, args, options);
}

export function run(command: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(command, args, {
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.signal ? { signal: options.signal, killSignal: 'SIGKILL' as const } : {}),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not finish within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, ms: msSince(start), stdout, stderr });
    });
  });
}

/** Spawns a long-running `node` process; the caller must `stop()` it. */
export function startNode(args: readonly string[], options: { cwd: string; signal?: AbortSignal }): ChildProcess {
  const child = spawn(process.execPath, args, {
    cwd: options.cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(options.signal ? { signal: options.signal, killSignal: 'SIGKILL' as const } : {}),
  });
  child.on('error', () => {}); // an abort kills it; whoever waits on it sees it exit
  return child;
}

/** Ends a process we spawned, by its own handle; resolves once it has exited. */
export function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Resident set size of a process, in KiB (Linux `/proc`). */
export function rssKiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (!match) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(match[1]);
}

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Retries `attempt` until it resolves or `timeoutMs` passes. */
export async function waitFor<T>(attempt: () => Promise<T>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      return await attempt();
    } catch (error) {
      last = error;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  throw new Error(`${what} not ready within ${timeoutMs} ms: ${last instanceof Error ? last.message : String(last)}`);
}

/** Rejects when `promise` takes longer than `ms`, after aborting `abort` (which kills the row's processes). */
export async function withDeadline<T>(promise: Promise<T>, ms: number, what: string, abort: AbortController): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abort.abort();
      reject(new Error(`${what} exceeded its ${Math.round(ms / 1000)} s budget`));
    }, ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
    // Let the aborted row unwind (its finally blocks stop servers) before the next row measures anything.
    if (abort.signal.aborted) {
      const settled = promise.then(
        () => {},
        () => {},
      );
      await Promise.race([settled, new Promise((r) => setTimeout(r, 10_000).unref())]);
    }
  }
}
