/** Worker-thread entry of `compile-in-parallel.ts`: compiles its share of the SOPs and posts the results back. */
import { parentPort, workerData } from 'node:worker_threads';
import { compileSop } from './compile-sop.js';
import type { CompileJob } from './compile-in-parallel.js';

const jobs = workerData as readonly CompileJob[];
parentPort?.postMessage(jobs.map((j) => compileSop(j.file, j.raw, j.sourceHash)));
