/**
 * Worker-thread entry of the fuzzer: loads the compiler named in `workerData`, then runs each input it is sent
 * and answers with its outcome. It runs under the heap limit its parent gives it, so an input that needs more
 * memory than the budget stops the worker, and the parent reports the input.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadCompiler, runInput } from './run-input.js';

const compiler = await loadCompiler((workerData as { generatorDir: string }).generatorDir);
parentPort?.on('message', async (text: string) => {
  parentPort?.postMessage(await runInput(compiler, text));
});
parentPort?.postMessage('ready');
