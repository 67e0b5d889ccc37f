/**
 * Child-process entry of `npm run fuzz`: builds one recipe's input at a size, runs it, and prints what it cost as
 * JSON: wall time, the process's peak resident memory (everything the build needed, Node itself included), the memory
 * of Node with the libraries any build may load (ts-morph with the TypeScript compiler, 73 MB; the tokenizer, 67 MB;
 * Node itself, 39 MB: 2026-11-28), and the difference, what the input cost, which the goal is about. One process per input, so peaks do not mix; the input runs twice
 * and the time is the second run's.
 *
 * Usage: node dist/fuzz/measure-one.js <project root> <generator dir> <recipe name> <size>
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RECIPES } from './recipes.js';
import { loadCompiler, runInput } from './run-input.js';

const [root, generatorDir, name, size] = process.argv.slice(2) as [string, string, string, string];
const recipe = RECIPES.find((r) => r.name === name);
if (!recipe) throw new Error(`no recipe named ${name}`);
const text = recipe.build(readFileSync(join(root, 'sops/retail_customer_support.md'), 'utf8'), Number(size));
const compiler = await loadCompiler(generatorDir);
// What any build may load whatever its input: the emitter's ts-morph (the TypeScript compiler with it) and the tokenizer
// a token budget needs. Loaded first, so that the memory the input costs is the peak above them.
await import('ts-morph');
await import('gpt-tokenizer/encoding/o200k_base').catch(() => undefined);
const librariesMb = process.memoryUsage().rss / 1024 / 1024;
// Twice, and the second run's time: what a process pays once (the tokenizer's tables for a token budget, over a
// second; compiling the compiler's code) is not a cost of the input, and the goal is a rate. A problem of either
// run counts; the memory is the first run's.
const first = await runInput(compiler, text);
// The memory one build of the input costs: the peak after the first run (a second adds the first's garbage).
const peakMb = process.resourceUsage().maxRSS / 1024;
const second = await runInput(compiler, text);
const outcome = { ...second, problem: first.problem ?? second.problem };
process.stdout.write(`${JSON.stringify({ characters: text.length, ...outcome, peakMb, librariesMb, inputMb: peakMb - librariesMb })}\n`);
