/**
 * Child-process entry of `npm run fuzz`: builds one recipe's input at a size, runs it once, and prints what it cost
 * as JSON: wall time and the process's peak resident memory (everything the build needed, Node itself included),
 * which is what the goal "under 200 MB" is about. One process per input, so peaks do not mix; the input runs twice
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
// Twice, and the second run's time: what a process pays once (the tokenizer's tables for a token budget, over a
// second; compiling the compiler's code) is not a cost of the input, and the goal is a rate. A problem of either
// run counts; the peak is the process's, both runs of the same input.
const first = await runInput(compiler, text);
const second = await runInput(compiler, text);
const outcome = { ...second, problem: first.problem ?? second.problem };
process.stdout.write(`${JSON.stringify({ characters: text.length, ...outcome, peakMb: process.resourceUsage().maxRSS / 1024 })}\n`);
