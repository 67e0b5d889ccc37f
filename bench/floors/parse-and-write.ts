/**
 * The floor of a cold `build:sops`: the least a build of the same SOPs can cost, run as a command like the build
 * itself (so Node's start-up and the libraries' loading count on both sides). It parses every SOP file with the
 * same libraries the compiler uses, in their plain configuration, and writes the bytes the build wrote:
 *   - the YAML frontmatter with `yaml`, the markdown body with `unified().use(remarkParse)`, and every fenced
 *     `yaml` block of the body (the node prompts' tools and examples) with `yaml` again;
 *   - then every file of `payload` (a JSON list of `[relative path, text]`: the outputs of a cold build of the
 *     same SOPs, collected by the bench) under `outDir`.
 * One thread, no checks, no model, no emitter: whatever the build costs above this is the compiler's own work.
 *
 *   node dist/bench/floors/parse-and-write.js SOPS_DIR PAYLOAD_JSON OUT_DIR
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Root } from 'mdast';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { parse as parseYaml } from 'yaml';

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/;

/** Parses one SOP's frontmatter, body and yaml blocks; returns how many YAML documents it parsed. */
function parseSop(processor: ReturnType<typeof markdownParser>, text: string): number {
  const front = FRONTMATTER.exec(text);
  let parsed = 0;
  if (front?.[1] !== undefined) {
    parseYaml(front[1]);
    parsed += 1;
  }
  const tree = processor.parse(front === null ? text : text.slice(front[0].length)) as Root;
  for (const child of tree.children) {
    if (child.type === 'code' && child.lang === 'yaml') {
      parseYaml(child.value);
      parsed += 1;
    }
  }
  return parsed;
}

function markdownParser() {
  return unified().use(remarkParse);
}

const [sopsDir, payloadFile, outDir] = process.argv.slice(2);
if (sopsDir === undefined || payloadFile === undefined || outDir === undefined) {
  process.stderr.write('usage: parse-and-write SOPS_DIR PAYLOAD_JSON OUT_DIR\n');
  process.exit(2);
}
const processor = markdownParser();
let yamlBlocks = 0;
const files = readdirSync(sopsDir)
  .filter((name) => name.endsWith('.md'))
  .sort();
for (const name of files) yamlBlocks += parseSop(processor, readFileSync(join(sopsDir, name), 'utf8'));
const payload = JSON.parse(readFileSync(payloadFile, 'utf8')) as [string, string][];
for (const [path, text] of payload) {
  const target = join(outDir, path);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, text);
}
process.stdout.write(`${files.length} files, ${yamlBlocks} YAML blocks parsed, ${payload.length} files written\n`);
