/**
 * The checks of edges decided by data (`generator/check/check-conditions.ts`) beyond the catalog's one case per
 * code: the retail SOP's four status decisions hold; a check step that stops offering the tool is SOP069 at each
 * condition, with the shortest path that never reads it and the close tool every path does read; an escalation move
 * is a way in (⇢); a hub is not; a `when` on a terminal node; and a SOP at the compiler's node limit with a `when`
 * on every decision, which still checks at once.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileSop } from '../../../generator/compile-sop.js';
import type { Diagnostic } from '../../../generator/diagnostics/diagnostic.js';
import { LIMITS } from '../../../generator/limits.js';
import { PROJECT_ROOT } from '../../support/run-cli.js';
import { BASE_SOP, withLine } from '../../support/sop-text.js';

const conditionCodes = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.filter((d) => d.code === 'SOP068' || d.code === 'SOP069').map((d) => [d.code, d.line, d.column, d.message, d.remediation]);

/** A SOP with the given flowchart lines and prompt sections; its frontmatter names `lookup` and `lookups`. */
function sop(flowchart: readonly string[], prompts: string, frontmatter = ''): string {
  return [
    '---',
    'agent: demo',
    'version: "1"',
    'tools: [lookup, lookups]',
    frontmatter,
    '---',
    '',
    '## SOP Flowchart',
    '```mermaid',
    'flowchart TD',
    ...flowchart.map((line) => `    ${line}`),
    '```',
    '',
    '## Node Prompts',
    '',
    prompts,
  ].join('\n');
}

describe('the retail SOP', () => {
  const file = 'sops/retail_customer_support.md';
  const retail = readFileSync(join(PROJECT_ROOT, file), 'utf8');

  it('decides its four status decisions by data, and every path reads the order first', () => {
    const compiled = compileSop(file, retail);
    expect(conditionCodes(compiled.diagnostics)).toEqual([]);
    const decided = compiled.model!.prompts.filter((p) => p.when.length > 0);
    expect(decided.map((p) => [p.nodeId, p.when.map((w) => `${w.target}: ${w.condition?.text}`)])).toEqual([
      ['IS_PENDING_C', ['COLLECT_CANCEL: get_order_details.status == pending', 'DENY_CANCEL: get_order_details.status != pending']],
      [
        'IS_PENDING_M',
        [
          'COLLECT_MOD_ADDR: get_order_details.status == pending',
          'MOD_TYPE: get_order_details.status == pending',
          'DENY_MOD: get_order_details.status != pending',
        ],
      ],
      ['IS_DELIVERED_R', ['COLLECT_RETURN: get_order_details.status == delivered', 'DENY_RETURN: get_order_details.status != delivered']],
      ['IS_DELIVERED_E', ['COLLECT_EXCH: get_order_details.status == delivered', 'DENY_EXCH: get_order_details.status != delivered']],
    ]);
  });

  it('SOP069 when the check step no longer reads the order, with the path and the tool every path does read', () => {
    const from =
      '### CHK_CANCEL\n```yaml\ntools: [get_user_details, get_order_details]\nevidence: { tools: [get_order_details], about: order_id }';
    expect(retail).toContain(from);
    const text = retail.replace(
      from,
      '### CHK_CANCEL\n```yaml\ntools: [get_user_details]\nevidence: { tools: [get_user_details], about: order_id }',
    );
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.startsWith('  COLLECT_CANCEL: get_order_details')) + 1;
    const path = 'START → AUTH → ROUTE → CHK_CANCEL → IS_PENDING_C';
    expect(conditionCodes(compileSop(file, text).diagnostics)).toEqual(
      [
        [at, 'COLLECT_CANCEL', 'get_order_details.status == pending'],
        [at + 1, 'DENY_CANCEL', 'get_order_details.status != pending'],
      ].map(([line, target, condition]) => [
        'SOP069',
        line,
        at === line ? 19 : 16,
        `\`when\` of \`IS_PENDING_C\` decides \`${target}\` on \`${condition}\`, but a run can reach \`IS_PENDING_C\` without any node offering \`get_order_details\`, so its answer may never have been read: ${path}.`,
        'Did you mean `get_user_details`? Every path to `IS_PENDING_C` reads it.',
      ]),
    );
  });
});

describe('SOP069: the paths a run can take', () => {
  const flowchart = [
    'START([Start]) --> ROUTE{Route}',
    'ROUTE -->|read| READ["Read"]',
    'ROUTE -->|other| OTHER["Other"]',
    'READ --> CHECK{OK?}',
    'CHECK -->|yes| DONE([Done])',
    'CHECK -->|no| STOP([Stop])',
    'OTHER --> END([End])',
  ];
  const prompts = (check: string, extra = '') =>
    `### READ\n\`\`\`yaml\ntools: [lookup]\n${extra}\`\`\`\nRead.\n\n### CHECK\n\`\`\`yaml\nwhen:\n  DONE: ${check}\n\`\`\`\n`;

  it('holds when every path passes a node that offers the tool; a hub opens no way around it', () => {
    expect(conditionCodes(compileSop('sops/demo.md', sop(flowchart, prompts('lookup.ok == true'), 'hubs: [ROUTE]')).diagnostics)).toEqual(
      [],
    );
  });

  it('counts the node itself: a condition over a tool the decision offers holds', () => {
    const text = sop(flowchart, '### CHECK\n```yaml\ntools: [lookup]\nwhen:\n  DONE: lookup.ok == true\n```\n');
    expect(conditionCodes(compileSop('sops/demo.md', text).diagnostics)).toEqual([]);
  });

  it('finds the shortest path that never reads it, and the close tool every path reads; an edge around the reading step', () => {
    expect(conditionCodes(compileSop('sops/demo.md', sop(flowchart, prompts('lookups.ok == true'))).diagnostics)).toEqual([
      [
        'SOP069',
        31,
        9,
        '`when` of `CHECK` decides `DONE` on `lookups.ok == true`, but a run can reach `CHECK` without any node offering `lookups`, so its answer may never have been read: START → ROUTE → READ → CHECK.',
        'Did you mean `lookup`? Every path to `CHECK` reads it.',
      ],
    ]);
    const around = [...flowchart, 'OTHER -.->|skip| CHECK'];
    const found = conditionCodes(compileSop('sops/demo.md', sop(around, prompts('lookup.ok == true'))).diagnostics);
    expect(found.map((d) => d[3])).toEqual([
      '`when` of `CHECK` decides `DONE` on `lookup.ok == true`, but a run can reach `CHECK` without any node offering `lookup`, so its answer may never have been read: START → ROUTE → OTHER → CHECK.',
    ]);
    expect(found[0]![4]).toBe(
      'Offer `lookup` at `CHECK` or at a step every path to it passes (the path shown passes none), or read a tool that is read there.',
    );
  });

  it('counts escalation moves as ways in (⇢)', () => {
    const limited = [...flowchart.slice(0, 3), 'OTHER --> READ', ...flowchart.slice(3, 6)];
    const text = sop(
      limited,
      `### OTHER\n\`\`\`yaml\nmax_visits: 1\nescalate_to: CHECK\n\`\`\`\nOther.\n\n${prompts('lookup.ok == true')}`,
    );
    expect(conditionCodes(compileSop('sops/demo.md', text).diagnostics).map((d) => d[3])).toEqual([
      '`when` of `CHECK` decides `DONE` on `lookup.ok == true`, but a run can reach `CHECK` without any node offering `lookup`, so its answer may never have been read: START → ROUTE ⇢ CHECK (once OTHER has used up its max_visits).',
    ]);
  });

  it('is SOP068 on a terminal node, which has no edges to decide', () => {
    const text = withLine(21, 'tools: [lookup]', `${BASE_SOP}\n### DONE\n\`\`\`yaml\nwhen:\n  START: lookup.x == 1\n\`\`\`\n`);
    expect(conditionCodes(compileSop('sops/demo.md', text).diagnostics)).toEqual([
      [
        'SOP068',
        28,
        3,
        '`when` of `DONE` names `START`, which is not a successor of the node (it is a terminal node: it has none).',
        'Remove `when`: a terminal node has no edges to decide.',
      ],
    ]);
  });

  it('checks a chain of decisions at the node limit, each with a `when`, at once', () => {
    const count = LIMITS.flowchartNodes / 2 - 1;
    const lines = ['START([Start]) --> R0["Read"]'];
    let prompts = '### R0\n```yaml\ntools: [lookup]\n```\n\n';
    for (let i = 0; i < count; i++) {
      lines.push(`R${i} --> D${i}{Decide ${i}}`, `D${i} -->|yes| R${i + 1}["Read"]`, `D${i} -->|no| START`);
      prompts += `### D${i}\n\`\`\`yaml\nwhen:\n  R${i + 1}: lookup.step == ${i}\n  START: lookup.step != ${i}\n\`\`\`\n\n`;
    }
    const started = performance.now();
    const compiled = compileSop('sops/demo.md', sop(lines, prompts));
    expect(conditionCodes(compiled.diagnostics)).toEqual([]);
    expect(compiled.model!.prompts.filter((p) => p.when.length === 2)).toHaveLength(count);
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});
