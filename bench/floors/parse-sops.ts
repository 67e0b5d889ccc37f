/**
 * The parsing half of the cold build's floor: every SOP file of a folder parsed with the libraries the compiler
 * uses, in their plain configuration: the YAML frontmatter with `yaml`, the markdown body with
 * `unified().use(remarkParse)`, and every fenced `yaml` block of the body (the node prompts' tools and examples)
 * with `yaml` again. No checks, no model: the least that reading these files as markdown and YAML costs.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Root } from 'mdast';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { parse as parseYaml } from 'yaml';

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/;

/** The `.md` files of `dir`, sorted, with their text. */
export function readSops(dir: string): { readonly name: string; readonly text: string }[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => ({ name, text: readFileSync(join(dir, name), 'utf8') }));
}

/** Parses every text; returns how many YAML documents were parsed. */
export function parseSops(texts: readonly string[]): number {
  const processor = unified().use(remarkParse);
  let yamlDocuments = 0;
  for (const text of texts) {
    const front = FRONTMATTER.exec(text);
    if (front?.[1] !== undefined) {
      parseYaml(front[1]);
      yamlDocuments += 1;
    }
    const tree = processor.parse(front === null ? text : text.slice(front[0].length)) as Root;
    for (const child of tree.children) {
      if (child.type === 'code' && child.lang === 'yaml') {
        parseYaml(child.value);
        yamlDocuments += 1;
      }
    }
  }
  return yamlDocuments;
}
