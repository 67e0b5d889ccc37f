/**
 * Node ids mentioned in the prose and the prompts: the scanner's four forms and their positions, the words it leaves
 * alone, the model's reading (a node, an UPPER_SNAKE word naming none, a tool or an environment variable in backticks
 * naming something else), and the repository's SOPs and golden fixtures, whose every mention names a node.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileSop } from '../../../generator/compile-sop.js';
import { scanMentions } from '../../../generator/parse/mentions.js';
import { PROJECT_ROOT } from '../../support/run-cli.js';
import { BASE_SOP, withLine } from '../../support/sop-text.js';

const scan = (text: string) => scanMentions(text, [{ start: 0, end: text.length }], []).map((m) => [m.id, m.form, m.span.start.column]);

describe('scanMentions', () => {
  const table: [string, { given: string; want: (string | number)[][] }][] = [
    ['a whole code span', { given: 'See `ROUTE` first.', want: [['ROUTE', 'code', 6]] }],
    ['a code span of two backticks, padded', { given: 'See `` ROUTE `` first.', want: [['ROUTE', 'code', 8]] }],
    [
      'goto_node with double and single quotes',
      {
        given: 'goto_node("START") or goto_node( \'AUTH\' )',
        want: [
          ['START', 'call', 12],
          ['AUTH', 'call', 35],
        ],
      },
    ],
    [
      'the go-to phrases',
      {
        given: 'Go to A1, go back to B_2, go on to C; continue at D.',
        want: [
          ['A1', 'phrase', 7],
          ['B_2', 'phrase', 22],
          ['C', 'phrase', 36],
          ['D', 'phrase', 51],
        ],
      },
    ],
    ['a line break inside the phrase', { given: 'and go\n        to VERIFY', want: [['VERIFY', 'phrase', 12]] }],
    ['"node X"', { given: 'Authenticate first (node AUTH).', want: [['AUTH', 'node', 26]] }],
    [
      'no mention in a longer code span, a call without quotes, or goto_node read as node',
      { given: '`goto_node(node_id)` and goto_node(ROUTE) and `a b`', want: [] },
    ],
    ['a word run into "go" is no phrase', { given: 'Ago to X and cargo to Y', want: [] }],
    ['backticks that do not close on their line', { given: '`ROUTE\nAUTH` and ```yaml\n```', want: [] }],
  ];
  for (const [name, { given, want }] of table) it(name, () => expect(scan(given)).toEqual(want));

  it('leaves out the ranges asked, and gives file positions', () => {
    const text = 'go to A\n```mermaid\ngo to B\n```\ngo to C';
    const skipFrom = text.indexOf('```mermaid');
    const found = scanMentions(text, [{ start: 0, end: text.length }], [{ start: skipFrom, end: text.indexOf('go to C') }]);
    expect(found.map((m) => [m.id, m.span.start.line, m.span.start.column, m.span.end.column])).toEqual([
      ['A', 1, 7, 8],
      ['C', 5, 7, 8],
    ]);
  });
});

describe('mentions in the model', () => {
  const mentionsOf = (text: string) => compileSop('sops/demo.md', text).model!.mentions.map((m) => `${m.id}:${m.form}:${m.node}`);

  it('keeps nodes and UPPER_SNAKE words; a tool, a lower-case word and an environment variable are not nodes', () => {
    const text = withLine(
      23,
      'Ask with `lookup`, then go to DONE (or `done`, `Ask`, `NOPE`); never `RETAIL_DB`; goto_node("ASK").',
      BASE_SOP.replace(
        'tools: [lookup]\n---',
        'tools: [lookup]\nmcp_servers: [{ name: t, command: node, env: { X: "${RETAIL_DB}" } }]\n---',
      ),
    );
    expect(mentionsOf(text)).toEqual(['DONE:phrase:true', 'NOPE:code:false', 'ASK:call:true']);
  });

  it('reads the system prompt, not the flowchart nor the frontmatter', () => {
    const text = BASE_SOP.replace('Helps.', 'Helps. Go to `DONE`.')
      .replace('agent: demo', 'agent: demo\ndescription: go to NOWHERE')
      .replace('ASK --> DONE', 'ASK -->|go to NOWHERE| DONE');
    expect(mentionsOf(text)).toEqual(['DONE:code:true']);
  });

  it("finds no mention of a missing node in the repository's SOPs and golden fixtures", () => {
    const files = [
      'sops/retail_customer_support.md',
      'sops/it_helpdesk_password_reset.md',
      'test/fixtures/golden/minimal/sops/refund.md',
      'test/fixtures/golden/wide-syntax/sops/triage.md',
      'test/fixtures/golden/compose/sops/retail_orders.md',
      'test/fixtures/golden/compose/sops/authenticate_customer.md',
      'test/fixtures/golden/compose/sops/incident_triage.md',
      'test/fixtures/runtime/project/sops/support_desk.md',
      'test/fixtures/gateway/knowledge_keeper.md',
    ];
    for (const file of files) {
      const compiled = compileSop(file, readFileSync(join(PROJECT_ROOT, file), 'utf8'));
      expect(
        compiled.model!.mentions.filter((m) => !m.node).map((m) => m.id),
        file,
      ).toEqual([]);
      expect(
        compiled.diagnostics.filter((d) => d.code === 'SOP047' || d.code === 'SOP048'),
        file,
      ).toEqual([]);
    }
    const retail = compileSop('sops/retail.md', readFileSync(join(PROJECT_ROOT, 'sops/retail_customer_support.md'), 'utf8')).model!;
    expect(retail.mentions.length).toBeGreaterThan(15);
  });
});
