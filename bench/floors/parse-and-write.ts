/**
 * The floor of a cold `build:sops`: the least a build of the same SOPs can cost, run as a command like the build
 * itself (so Node's start-up and the libraries' loading count on both sides). It parses every SOP file with the
 * same libraries the compiler uses (`parse-sops.ts`), then writes the bytes the build wrote: every file of
 * `payload` (a JSON list of `[relative path, text]`: the outputs of a cold build of the same SOPs, collected by
 * the bench) under `outDir`. One thread, no checks, no model, no emitter: whatever the build costs above this is
 * the compiler's own work.
 *
 *   node dist/bench/floors/parse-and-write.js SOPS_DIR PAYLOAD_JSON OUT_DIR
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseSops, readSops } from './parse-sops.js';

const [sopsDir, payloadFile, outDir] = process.argv.slice(2);
if (sopsDir === undefined || payloadFile === undefined || outDir === undefined) {
  process.stderr.write('usage: parse-and-write SOPS_DIR PAYLOAD_JSON OUT_DIR\n');
  process.exit(2);
}
const files = readSops(sopsDir);
const yamlDocuments = parseSops(files.map((file) => file.text));
const payload = JSON.parse(readFileSync(payloadFile, 'utf8')) as [string, string][];
for (const [path, text] of payload) {
  const target = join(outDir, path);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, text);
}
process.stdout.write(`${files.length} files, ${yamlDocuments} YAML documents parsed, ${payload.length} files written\n`);
