/**
 * Compiles many SOPs, on worker threads when the project is large. Parsing markdown is most of a cold build's
 * time and each file is independent, so a large project goes to workers; a small one (or a run from the
 * TypeScript sources, where there is no transpiled worker script) compiles in this thread, where starting
 * workers would cost more than it saves. Results come back in input order as plain data (structured clone),
 * and each one is also handed to `onCompiled` as soon as it exists, so the caller can emit while the rest
 * compiles.
 *
 * One core is left to this thread: it loads the emitter and prints each SOP's files as results arrive, and
 * V8's background compiler and GC of the workers run beside it. On 2 cores, one worker with this thread
 * emitting as it goes built 100 SOPs in ~2.7 s against ~3.3 s for two workers and emitting afterwards, and
 * with ~1.4 s less CPU: every isolate pays its own module loading and JIT warm-up, which ate the second
 * worker's gain.
 *
 * The compiler itself (markdown, YAML and schema libraries, ~200 ms to load) is imported only on the path
 * that compiles in this thread: with workers, this thread never needs it.
 *
 * A worker that stops before it has answered (out of memory, a crash of the runtime) fails the file it was
 * compiling with SOP090, and a new worker takes the files after it: one file never takes the build down.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { hashSource } from '../contract/source-hash.js';
import type { CompiledFile } from './compile-sop.js';
import { internalErrorDiagnostic } from './diagnostics/diagnostic.js';

export interface CompileJob {
  readonly file: string;
  readonly raw: string;
  readonly sourceHash?: string;
}

export interface ParallelOptions {
  /** Old-generation heap of each worker, in MB (default: Node's). A worker over it stops; its file fails alone. */
  readonly workerHeapMb?: number;
  /** Worker threads to use instead of `workerThreadsFor` (tests). */
  readonly threads?: number;
}

/** Called with each compiled file as soon as it is compiled (in no particular order). */
export type OnCompiled = (compiled: CompiledFile) => void;

/** Below this many files one thread is faster: a worker costs ~250 ms to start and load the parser. */
const MIN_FILES_FOR_WORKERS = 24;
/** Files per worker at least, so that a worker's start-up pays off. */
const MIN_FILES_PER_WORKER = 12;
const MAX_WORKERS = 4;
const WORKER_SCRIPT = new URL('./compile-worker.js', import.meta.url);

/** How many worker threads `compileInParallel` uses for `fileCount` files (0: it compiles in this thread). */
export function workerThreadsFor(fileCount: number): number {
  const threads = Math.min(availableParallelism() - 1, MAX_WORKERS, Math.floor(fileCount / MIN_FILES_PER_WORKER));
  if (fileCount < MIN_FILES_FOR_WORKERS || threads < 1 || !existsSync(fileURLToPath(WORKER_SCRIPT))) return 0;
  return threads;
}

export async function compileInParallel(
  jobs: readonly CompileJob[],
  onCompiled?: OnCompiled,
  options: ParallelOptions = {},
): Promise<CompiledFile[]> {
  const threads = options.threads ?? workerThreadsFor(jobs.length);
  if (threads === 0) {
    const { compileSop } = await import('./compile-sop.js');
    return jobs.map((j) => {
      const compiled = compileSop(j.file, j.raw, j.sourceHash);
      onCompiled?.(compiled);
      return compiled;
    });
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
    shares.map((share) =>
      compileShare(
        share.map((i) => jobs[i]!),
        (k, compiled) => {
          results[share[k]!] = compiled;
          onCompiled?.(compiled);
        },
        options,
      ),
    ),
  );
  return results;
}

/** Compiles `jobs` on a worker; when one stops early, fails the job it was on and starts another for the rest. */
async function compileShare(
  jobs: readonly CompileJob[],
  onResult: (index: number, compiled: CompiledFile) => void,
  options: ParallelOptions,
): Promise<void> {
  for (let next = 0; next < jobs.length; ) {
    const first = next;
    const outcome = await runWorker(jobs.slice(first), (k, compiled) => onResult(first + k, compiled), options);
    next = first + outcome.received;
    if (outcome.stopped !== undefined && next < jobs.length) {
      const job = jobs[next]!;
      const diagnostic = internalErrorDiagnostic(job.file, outcome.stopped);
      onResult(next, {
        file: job.file,
        sourceHash: job.sourceHash ?? hashSource(job.raw),
        model: null,
        facts: null,
        diagnostics: [diagnostic],
      });
      next++;
    }
  }
}

interface WorkerOutcome {
  /** Results received, in job order. */
  readonly received: number;
  /** Why the worker stopped before answering every job, if it did. */
  readonly stopped?: unknown;
}

/** Runs one worker over `jobs`; it posts one result per job, in job order. Never rejects. */
function runWorker(
  jobs: readonly CompileJob[],
  onResult: (index: number, compiled: CompiledFile) => void,
  options: ParallelOptions,
): Promise<WorkerOutcome> {
  return new Promise((resolve) => {
    const resourceLimits = options.workerHeapMb === undefined ? undefined : { maxOldGenerationSizeMb: options.workerHeapMb };
    const worker = new Worker(WORKER_SCRIPT, { workerData: jobs, ...(resourceLimits ? { resourceLimits } : {}) });
    let received = 0;
    let failure: unknown;
    worker.on('message', (compiled: CompiledFile) => {
      onResult(received++, compiled);
      if (received === jobs.length) void worker.terminate();
    });
    worker.once('error', (error) => {
      failure = error;
    });
    worker.once('exit', (code) => {
      if (received === jobs.length) resolve({ received });
      else resolve({ received, stopped: failure ?? new Error(`the compile worker exited with code ${code}`) });
    });
  });
}
