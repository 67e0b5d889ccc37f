/**
 * Worker-thread entry of `compile-in-parallel.ts`: compiles its share of the SOPs and posts each result as
 * soon as it is done, so the main thread can emit that SOP while the rest compile.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { compileSop } from './compile-sop.js';
import type { CompileJob } from './compile-in-parallel.js';

for (const j of workerData as readonly CompileJob[]) parentPort?.postMessage(compileSop(j.file, j.raw, j.sourceHash));
