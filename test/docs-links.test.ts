/**
 * The documentation's relative links resolve: every link of README.md, CONTRIBUTING.md, docs/*.md and
 * bench/README-performance.md that is not a URL names a file or folder of the repository, and its `#anchor`, if any,
 * a heading of that file as GitHub renders it (or an `<a id>` / `<a name>` there). Links inside fenced code and
 * inline code are not links. Also: the README stays the front door, at most 400 lines (issue 28).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DOCS = [
  'README.md',
  'CONTRIBUTING.md',
  'bench/README-performance.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

/** The lines of a markdown text outside fenced code blocks (``` or ~~~, as long or longer to close). */
function proseLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fence: string | undefined;
  text.split('\n').forEach((line, i) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    const closes = fence !== undefined && marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length;
    if (fence === undefined && marker === undefined) out.push({ line: i + 1, text: line });
    else if (fence === undefined) fence = marker;
    else if (closes) fence = undefined;
  });
  return out;
}

/** A line without its code spans (a run of backticks up to the same run). */
const withoutCode = (line: string) => line.replace(/(`+)[\s\S]*?\1/g, '');

/** GitHub's anchor for a heading: its text without markup, lower case, punctuation dropped, each space a hyphen. */
function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link or image: its text
    .replace(/<[^>]+>/g, '') // inline HTML
    .replace(/[*`]/g, ''); // emphasis and code markers (underscores stay: GitHub keeps them in ids)
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replaceAll(' ', '-');
}

/** The anchors a markdown file offers: its ATX headings (repeats numbered -1, -2, … as GitHub does) and HTML ids. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text: line } of proseLines(text)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+\s*)?$/.exec(line)?.[1];
    if (heading !== undefined) {
      const base = slug(heading);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1] as string);
  }
  return anchors;
}

interface Link {
  readonly file: string;
  readonly line: number;
  readonly target: string;
}

/** The relative links of a file: inline `[text](target)` and `![alt](target)`, and reference definitions. */
function relativeLinks(file: string): Link[] {
  const links: Link[] = [];
  for (const { line, text } of proseLines(readFileSync(join(ROOT, file), 'utf8'))) {
    const prose = withoutCode(text);
    const targets = [
      ...[...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] as string),
      ...[...prose.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/g)].map((m) => m[1] as string),
    ];
    for (const target of targets) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, …
      links.push({ file, line, target });
    }
  }
  return links;
}

/** Why a link does not resolve, or undefined when it does. */
function problemOf(link: Link): string | undefined {
  const [pathPart = '', anchor] = link.target.split('#', 2) as [string, string | undefined];
  const path = decodeURI(pathPart);
  const resolved = path === '' ? join(ROOT, link.file) : join(ROOT, dirname(link.file), path);
  if (relative(ROOT, resolved).startsWith('..')) return 'points outside the repository';
  if (!existsSync(resolved)) return `${relative(ROOT, resolved)} does not exist`;
  if (anchor === undefined) return undefined;
  if (statSync(resolved).isDirectory() || !resolved.endsWith('.md')) return `#${anchor} on a file that is not markdown`;
  if (!anchorsOf(readFileSync(resolved, 'utf8')).has(anchor)) return `${relative(ROOT, resolved)} has no heading #${anchor}`;
  return undefined;
}

describe('the documentation', () => {
  it('has relative links that all resolve, to a file and to a heading of it', () => {
    const links = DOCS.flatMap(relativeLinks);
    expect(links.length).toBeGreaterThan(50);
    const broken = links.flatMap((link) => {
      const problem = problemOf(link);
      return problem === undefined ? [] : [`${link.file}:${link.line}: (${link.target}) ${problem}`];
    });
    expect(broken).toEqual([]);
  });

  it('makes anchors as GitHub does', () => {
    const anchors = anchorsOf(
      [
        '# Set up: `npx sop init`',
        '## 4. Wire it into Claude Code or any MCP client',
        '## Runs: the conversation lives in a store, behind a handle',
        '## Configuration: `sop.config.json` (optional)',
        '## A — B',
        '## Node prompts',
        '## Node Prompts',
        '```',
        '## not a heading',
        '```',
        '<a id="kept"></a>',
      ].join('\n'),
    );
    expect([...anchors]).toEqual([
      'set-up-npx-sop-init',
      '4-wire-it-into-claude-code-or-any-mcp-client',
      'runs-the-conversation-lives-in-a-store-behind-a-handle',
      'configuration-sopconfigjson-optional',
      'a--b',
      'node-prompts',
      'node-prompts-1',
      'kept',
    ]);
  });

  it('finds links in prose and tables, not in code', () => {
    const prose = proseLines('a [x](a.md) `[y](b.md)`\n```\n[z](c.md)\n```\n| [w](d.md#e) |');
    expect(prose.map((l) => withoutCode(l.text))).toEqual(['a [x](a.md) ', '| [w](d.md#e) |']);
  });

  it('keeps the README the front door: at most 400 lines', () => {
    const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length - 1;
    expect(lines).toBeLessThanOrEqual(400);
  });
});
