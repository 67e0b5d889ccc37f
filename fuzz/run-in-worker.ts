/**
 * Runs fuzz inputs one at a time on a worker thread with a heap limit and a time limit per input: an input that
 * exhausts the heap or outlives its time stops the worker (a fresh one takes the next input), and is reported as
 * what it is, "out of memory" or "hang", instead of taking the fuzzer down with it.
 */
import { Worker } from 'node:worker_threads';
import type { Outcome } from './run-input.js';

export interface RunnerOptions {
  /** The transpiled `fuzz-worker.js`. */
  readonly workerScript: URL;
  /** The `dist/generator` folder of the compiler under test. */
  readonly generatorDir: string;
  /** Old-generation heap of the worker, in MB. */
  readonly heapMb: number;
}

export interface Runner {
  /** Runs `text`; stops it after `timeoutMs` (not counting the worker's start-up). */
  run(text: string, timeoutMs: number): Promise<Outcome>;
  close(): Promise<void>;
}

export function createRunner(options: RunnerOptions): Runner {
  let worker: Promise<Worker> | null = null;
  /** Why the current worker stopped, when it reported it ('error' comes before 'exit'). */
  let failure: unknown;

  const start = (): Promise<Worker> =>
    new Promise((resolve, reject) => {
      const w = new Worker(options.workerScript, {
        workerData: { generatorDir: options.generatorDir },
        resourceLimits: { maxOldGenerationSizeMb: options.heapMb },
      });
      failure = undefined;
      w.on('error', (error) => {
        failure = error;
      });
      w.once('message', () => resolve(w));
      w.once('exit', () => reject(failure ?? new Error('the fuzz worker exited while starting')));
    });

  const stop = async () => {
    const w = await worker?.catch(() => null);
    worker = null;
    await w?.terminate();
  };

  return {
    async run(text, timeoutMs) {
      worker ??= start();
      const w = await worker;
      return new Promise<Outcome>((resolve) => {
        const started = performance.now();
        const finish = (outcome: Outcome) => {
          clearTimeout(timer);
          w.off('message', onMessage);
          w.off('exit', onExit);
          resolve(outcome);
        };
        const onMessage = (outcome: Outcome) => finish(outcome);
        const onExit = () => {
          worker = null;
          const why = failure instanceof Error ? failure.message : `the worker stopped (heap limit ${options.heapMb} MB)`;
          finish({ problem: `worker stopped: ${why}`, ms: performance.now() - started, diagnostics: 0, built: false });
        };
        const timer = setTimeout(() => {
          void stop();
          finish({
            problem: `hang (stopped after ${Math.round(timeoutMs)} ms)`,
            ms: performance.now() - started,
            diagnostics: 0,
            built: false,
          });
        }, timeoutMs);
        w.on('message', onMessage);
        w.once('exit', onExit);
        w.postMessage(text);
      });
    },
    close: stop,
  };
}
