/**
 * The inputs that found each problem of issue 9 (and those found since), kept as recipes rather than files: each
 * builds its input from a real SOP at a requested size, so the test runs them small and `npm run fuzz` at 5 MB.
 * `found` says what the input did to the compiler before it was fixed, as measured then.
 */

export interface Recipe {
  readonly name: string;
  readonly found: string;
  /** The input, about `size` characters long (never less than the base SOP), built from the real SOP `base`. */
  readonly build: (base: string, size: number) => string;
}

/** `line` repeated until the input reaches `size` characters (at least once). */
const fill = (line: string, size: number, taken: number) => line.repeat(Math.max(1, Math.ceil((size - taken) / line.length)));

/** The base SOP with `lines` added at the end of its frontmatter. */
function inFrontmatter(base: string, lines: string): string {
  const close = base.indexOf('\n---', 3);
  return `${base.slice(0, close)}\n${lines.replace(/\n$/, '')}${base.slice(close)}`;
}

/** The base SOP with its node-prompt section replaced by `section`. */
function withPrompts(base: string, section: string): string {
  const at = base.search(/^## Node Prompts/m);
  return `${base.slice(0, at)}## Node Prompts\n\n${section}`;
}

/** The base SOP with `lines` added at the end of its flowchart. */
function inFlowchart(base: string, lines: string): string {
  const start = base.indexOf('```mermaid');
  const close = base.indexOf('\n```', start + 3);
  return `${base.slice(0, close)}\n${lines.replace(/\n$/, '')}${base.slice(close)}`;
}

const aliasBomb = (levels: number) => {
  const out = ['l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
  for (let i = 1; i < levels; i++)
    out.push(
      `l${i}: &l${i} [${Array(10)
        .fill(`*l${i - 1}`)
        .join(', ')}]`,
    );
  return out.join('\n');
};

export const RECIPES: readonly Recipe[] = [
  {
    name: 'alias bomb in the frontmatter',
    found: 'crashed the build (exit 2; the diagnostics of every other file lost)',
    build: (base) => inFrontmatter(base, aliasBomb(9)),
  },
  {
    name: 'alias bomb in a node_prompts map',
    found: 'crashed the build (exit 2)',
    build: (base) => withPrompts(base, `\`\`\`yaml\n${aliasBomb(9)}\nnode_prompts:\n  AUTH:\n    tools: *l8\n\`\`\`\n`),
  },
  {
    name: 'unresolved and recursive aliases',
    found: 'threw a ReferenceError (unresolved), or built a circular value (recursive)',
    build: (base) => withPrompts(base, '```yaml\nnode_prompts:\n  AUTH:\n    tools: *nowhere\n  ROUTE: &r\n    examples: [*r]\n```\n'),
  },
  {
    name: 'blank lines in a node_prompts block',
    found: '14 s for 100k lines: /^\\s*node_prompts\\s*:/m backtracked over the blank lines',
    build: (base, size) => withPrompts(base, `\`\`\`yaml\n${fill('\n', size, base.length)}tools: [x]\n\`\`\`\n`),
  },
  {
    name: 'thousands of errors in one file',
    found: '40 s and 1.5 GB for 30,000 errors, then a RangeError: the code frame re-split the file per diagnostic',
    build: (base, size) =>
      base + Array.from({ length: Math.max(1, Math.floor((size - base.length) / 16)) }, (_, i) => `### NOPE_${i}\n`).join(''),
  },
  {
    name: 'a megabyte id',
    found: '10 s in the did-you-mean edit distance for a 1 MB id',
    build: (base, size) => `${base}\n### ${'A'.repeat(Math.max(1, size - base.length - 6))}\n`,
  },
  {
    name: 'deep YAML nesting',
    found: 'the composer overflowed the stack (at a depth that depends on the stack size)',
    build: (base, size) => inFrontmatter(base, `deep: ${fill('[', size / 2, base.length / 2)}${fill(']', size / 2, base.length / 2)}`),
  },
  {
    name: 'block collections nested on one line',
    found: 'SOP090: 9,500 `? ` on one line overflowed the stack of the CST parser (found by the random fuzzer)',
    build: (base, size) => withPrompts(base, `### AUTH\n\`\`\`yaml\ntools: ${fill('? ', size, base.length)}x\n\`\`\`\n`),
  },
  {
    name: 'YAML syntax problems by the thousand',
    found: '1.9 s for 177 KB: 77,000 problems on one line, each an Error with a captured stack (found by the random fuzzer)',
    build: (base, size) =>
      withPrompts(base, `### AUTH\n\`\`\`yaml\ntools: [a] ${fill('"x" ', Math.min(size, base.length + 250_000), base.length)}\n\`\`\`\n`),
  },
  {
    name: 'an empty flowchart block at the end of the file',
    found: 'SOP012 one line past the end of the file (found by the random fuzzer)',
    build: (base) => `${base.slice(0, base.indexOf('```mermaid'))}\`\`\`mermaid`,
  },
  {
    name: 'unique keys by the thousand',
    found: "over 60 s for 150k keys: the yaml package's uniqueKeys check compares every pair",
    build: (base, size) =>
      inFrontmatter(
        base,
        Array.from({ length: Math.max(1, Math.floor((size - base.length) / 20)) }, (_, i) => `key_${i}: v${i}`).join('\n'),
      ),
  },
  {
    name: 'aliases by the thousand',
    found: 'quadratic: the yaml package resolves each alias by scanning every anchor and alias before it',
    build: (base, size) => inFrontmatter(base, `one: &one x\nmany:\n${fill('  - *one\n', size, base.length)}`),
  },
  {
    name: 'blank lines in the body',
    found: 'remark-parse: 6 s per MB of blank lines',
    build: (base, size) => base + fill('\n', size, base.length),
  },
  {
    name: 'headings by the thousand',
    found: 'remark-parse: 7 s for 500 KB of headings',
    build: (base, size) => base + fill('## x\n', size, base.length),
  },
  {
    name: 'deep block quotes',
    found: 'remark-parse: 87 s for 100 KB of nested quote markers',
    build: (base, size) => `${base}${fill('>', size, base.length)} x\n`,
  },
  {
    name: 'deep list nesting',
    found: 'remark-parse: 39 s for 1 MB of nested list items',
    build: (base, size) =>
      base +
      Array.from({ length: Math.max(1, Math.floor(Math.sqrt(Math.max(0, size - base.length)))) }, (_, i) => `${'  '.repeat(i)}- x`).join(
        '\n',
      ),
  },
  {
    name: 'decision nodes with many edges',
    found: 'quadratic checks: each decision node filtered every edge, successors deduplicated by list search',
    build: (base, size) => inFlowchart(base, fill('    ROUTE -->|again| ROUTE\n    IS_PENDING_C -->|maybe| AUTH\n', size, base.length)),
  },
  {
    name: 'a one-line megabyte',
    found: 'a code frame printed the whole line for each diagnostic on it',
    build: (base, size) => `${base}\n### ${'nope '.repeat(Math.max(1, Math.floor((size - base.length) / 5)))}\n`,
  },
  {
    name: 'a large valid flowchart',
    found: '59 s and 1 GB for a 4.9 MB SOP of 10,000 nodes (remark-parse, then the emitter)',
    build: (base, size) =>
      inFlowchart(
        base,
        Array.from(
          { length: Math.max(1, Math.floor((size - base.length) / 40)) },
          (_, i) => `    END_INFO${i}["step ${i}"] --> END_INFO`,
        ).join('\n'),
      ),
  },
  {
    name: 'the largest valid SOP',
    found: 'what the limits allow to be compiled and emitted: 498 nodes, about 2,400 edges, prompts filling the size',
    build: (base, size) => {
      const count = 460;
      const chain = Array.from({ length: count }, (_, i) => {
        const back = [1, 2, 3, 4].map((k) => `    X${i} -.->|back ${k}| ROUTE`).join('\n');
        return `    ${i === 0 ? 'INFO' : `X${i - 1}`} --> X${i}["Step ${i}"]\n${back}`;
      });
      const withChart = inFlowchart(base, `${chain.join('\n')}\n    X${count - 1} --> END_INFO`);
      const text = 'Explain the step, check every detail with the user, and confirm before acting. ';
      const each = Math.max(0, Math.floor((size - withChart.length) / count) - 60);
      const prompts = Array.from(
        { length: count },
        (_, i) => `### X${i}\n\`\`\`yaml\ntools: [get_order_details]\n\`\`\`\n${text.repeat(Math.ceil(each / text.length))}\n`,
      );
      return `${withChart}\n${prompts.join('\n')}`;
    },
  },
  {
    name: 'unclosed labels in the flowchart',
    found: '13 s and 880 MB for 4 MB in the flowchart parser: 800,000 problems (capped since at 200 per file)',
    build: (base, size) => inFlowchart(base, fill('    A["x\n', size, base.length)),
  },
  {
    name: 'a condition the size of the input',
    found: 'never failed: kept because conditions are read character by character (`when:`, the decisions decided by data)',
    build: (base, size) => {
      const line = '  COLLECT_CANCEL: get_order_details.status == pending';
      return base.replace(line, `${line} ${fill('(item modified) ', size, base.length)}`);
    },
  },
  {
    name: 'a node label the size of the input',
    found:
      '0.82 s for a 0.135 MB SOP with one 120,000-character label, the whole `sop build` process (its fixed cost mostly): 1.3 s/MB measured on the input alone',
    build: (base, size) => base.replace(/AUTH\["[^"]*"\]/, `AUTH["${fill('x', size, base.length)}"]`),
  },
  {
    name: 'garbage in `when`',
    found: 'never failed: kept because each entry of `when` is a condition to parse, a key to look up and a tool to prove read',
    build: (base, size) => {
      const line = '  COLLECT_CANCEL: get_order_details.status == pending';
      const garbage = [
        '  X%: "get_order_details.[[==]]"',
        '  Y%: get_order_details.a.b in [[\', "]',
        '  Z%: ===',
        '  W%: gte_order_details.a < x',
      ];
      let n = 0;
      const lines = fill(`${garbage.join('\n')}\n`, size, base.length).replace(/%/g, () => String(n++));
      return base.replace(line, `${line}\n${lines.trimEnd()}`);
    },
  },
  {
    name: 'node ids mentioned by the thousand',
    found: 'never failed: kept because every prompt is scanned for mentions (backticks, goto_node, "go to"), each one looked up',
    build: (base, size) => {
      const lines = [
        'Then go to IS_GC_OK, or go back to `ROUTE`; goto_node("END_MOD") and continue at CHK_CANCL (node AUTH).',
        'If needed go on to `NOPE_NOT_A_NODE` or `IS_PENDING_X` then go to\n  DENY_PAY.',
      ];
      return `${base}\n${fill(`${lines.join('\n')}\n`, size, base.length)}`;
    },
  },
  {
    name: 'unpaired backticks and open calls',
    found: 'never failed: kept because backtick runs are paired by length and calls read up to their quote',
    build: (base, size) => `${base}\n${fill('`` ` ``` `A` ```` goto_node("x goto_node(\' go go go to\n', size, base.length)}`,
  },
  {
    name: 'a terminal node named constructor',
    found: 'crashed the build (internal error): the token report read `prompts.constructor`, the Object constructor (issue 21)',
    build: (base) => base.replace(/\bDENY_CANCEL\b/g, 'constructor'),
  },
];
