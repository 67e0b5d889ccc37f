/**
 * An editor's compile reuses the YAML blocks an edit left unchanged (`generator/parse/yaml/yaml-reuse.ts`). It must
 * say exactly what a compile from scratch says: for every SOP of the repository and every diagnostic case, after the
 * edits an author makes (prose typed, lines added above every block so each one moves, a block itself changed,
 * a block broken and mended), the model, the diagnostics and the spans of the YAML are those of `compileSop`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileSop, compileSopWithSyntax } from '../../../generator/compile-sop.js';
import { compileDocument } from '../../../generator/project/compile-document.js';
import { DIAGNOSTIC_CASES } from '../../support/diagnostic-cases.js';
import { PROJECT_ROOT } from '../../support/run-cli.js';
import { BASE_SOP } from '../../support/sop-text.js';

const repoSops = (dir: string) =>
  readdirSync(join(PROJECT_ROOT, dir))
    .filter((n) => n.endsWith('.md'))
    .map((n) => [`${dir}/${n}`, readFileSync(join(PROJECT_ROOT, dir, n), 'utf8')] as const);

const CORPUS: readonly (readonly [string, string])[] = [
  ...repoSops('sops'),
  ...repoSops('test/fixtures/golden/wide-syntax/sops'),
  ['base.md', BASE_SOP],
  ...Object.entries(DIAGNOSTIC_CASES).map(([name, c]) => [`cases/${name}.md`, c.given] as const),
];

/** The edits an author makes between two compiles of a file. */
const EDITS: Readonly<Record<string, (text: string) => string>> = {
  'a character typed in the last prompt': (text) => `${text.trimEnd()}x\n`,
  // Below the frontmatter, so every block but the frontmatter moves down two lines.
  'two lines added above every block': (text) => text.replace(/\n## /, '\n\nA new line.\n## '),
  'a line added inside the first node block': (text) => text.replace(/```yaml\n/, '```yaml\n# a comment\n'),
  'a block broken': (text) => text.replace(/```yaml\n/, '```yaml\ntools: [unclosed\n'),
  'the frontmatter changed': (text) => text.replace(/^---\n/, '---\n# edited\n'),
};

/** What a compile says, with the spans its YAML reports for the paths its model reads. */
function said(file: string, text: string, compiled: ReturnType<typeof compileSopWithSyntax>) {
  const frontmatter = compiled.parsed?.frontmatterYaml;
  return {
    compiled: compiled.compiled,
    spans: frontmatter ? [['agent'], ['tools'], ['tools', 0], ['policies'], ['mcp_servers']].map((p) => frontmatter.spanOf(p)) : null,
    file,
    text,
  };
}

describe('YAML reuse between compiles of a file', () => {
  it('says what a compile from scratch says, after every edit, for every SOP and diagnostic case', () => {
    let reused = 0;
    for (const [file, text] of CORPUS) {
      const first = compileDocument(file, text);
      for (const [edit, change] of Object.entries(EDITS)) {
        const edited = change(text);
        if (edited === text) continue;
        const again = compileDocument(file, edited, undefined, first.yaml);
        expect(said(file, edited, again), `${file}: ${edit}`).toEqual(said(file, edited, compileSopWithSyntax(file, edited)));
        expect(again.compiled).toEqual(compileSop(file, edited));
        for (const [block, parse] of again.yaml) if (first.yaml.get(block) === parse) reused++;
        // And back: the mended text reuses the edited one's blocks and is the original again.
        const back = compileDocument(file, text, undefined, again.yaml);
        expect(back.compiled, `${file}: ${edit}, undone`).toEqual(first.compiled);
      }
    }
    // The unchanged blocks were placed from the first parse, not parsed again.
    expect(reused).toBeGreaterThan(CORPUS.length);
  });

  it('places a reused block where it now stands, problems included', () => {
    const broken = BASE_SOP.replace('tools: [lookup]\n```', 'tools: [lookup\n```');
    const first = compileDocument('sops/demo.md', broken);
    const moved = broken.replace('## Role', '\n\n\n## Role');
    const again = compileDocument('sops/demo.md', moved, undefined, first.yaml);
    const block = [...first.yaml.values()].find((p) => p.problems.length > 0);
    expect(block).toBeDefined();
    expect(again.yaml.get(block!.text)).toBe(block);
    const lines = (c: typeof first) => c.compiled.diagnostics.filter((d) => d.message.includes('yaml block')).map((d) => d.line);
    expect(lines(first).length).toBeGreaterThan(0);
    expect(lines(again)).toEqual(lines(first).map((l) => l + 3));
  });

  it('shares only frozen data between compiles', () => {
    const text = readFileSync(join(PROJECT_ROOT, 'sops', 'retail_customer_support.md'), 'utf8');
    const { yaml } = compileDocument('sops/retail_customer_support.md', text);
    for (const parse of yaml.values()) {
      if (parse.value !== null && typeof parse.value === 'object') expect(Object.isFrozen(parse.value)).toBe(true);
    }
  });
});
