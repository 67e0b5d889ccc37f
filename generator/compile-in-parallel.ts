/**
 * Compiles many SOPs on worker threads. Parsing markdown is most of a cold build's time and each file is
 * independent, so a large project spreads the files over the machine's cores; a small one (or a run from the
 * TypeScript sources, where there is no transpiled worker script) compiles in this thread, where starting
 * workers would cost more than it saves. Results come back in input order as plain data (structured clone).
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { compileSop, type CompiledFile } from './compile-sop.js';

export interface CompileJob {
  readonly file: string;
  readonly raw: string;
  readonly sourceHash?: string;
}

/** Below this many files one thread is faster: a worker costs ~50 ms to start and load the parser. */
const MIN_FILES_FOR_WORKERS = 24;
const WORKER_SCRIPT = new URL('./compile-worker.js', import.meta.url);

export async function compileInParallel(jobs: readonly CompileJob[]): Promise<CompiledFile[]> {
  const threads = Math.min(availableParallelism(), 4, Math.floor(jobs.length / (MIN_FILES_FOR_WORKERS / 2)));
  if (jobs.length < MIN_FILES_FOR_WORKERS || threads < 2 || !existsSync(fileURLToPath(WORKER_SCRIPT))) {
    return jobs.map((j) => compileSop(j.file, j.raw, j.sourceHash));
  }
  // Deal the files out by size, largest first, so the threads finish together.
  const order = jobs.map((_, i) => i).sort((a, b) => jobs[b]!.raw.length - jobs[a]!.raw.length);
  const shares: number[][] = Array.from({ length: threads }, () => []);
  const load = new Array<number>(threads).fill(0);
  for (const i of order) {
    const lightest = load.indexOf(Math.min(...load));
    shares[lightest]!.push(i);
    load[lightest]! += jobs[i]!.raw.length;
  }
  const results = new Array<CompiledFile>(jobs.length);
  await Promise.all(
    shares.map(async (share) => {
      const compiled = await runWorker(share.map((i) => jobs[i]!));
      share.forEach((i, k) => (results[i] = compiled[k]!));
    }),
  );
  return results;
}

function runWorker(jobs: readonly CompileJob[]): Promise<CompiledFile[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SCRIPT, { workerData: jobs });
    worker.once('message', (compiled: CompiledFile[]) => {
      resolve(compiled);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`compile worker exited with code ${code}`));
    });
  });
}
