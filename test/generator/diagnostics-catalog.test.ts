/**
 * One test per diagnostic of the registry: a minimal SOP that triggers it, asserting code, severity, line and
 * column (1-based, in the .md file, always a real position inside it), and the remediation: every diagnostic
 * carries one, specific where the finding site can name the fix.
 */
import { describe, expect, it } from 'vitest';
import { compileSop } from '../../generator/compile-sop.js';
import { compositionDiagnostics } from '../../generator/build/composition-diagnostics.js';
import { checkProject } from '../../generator/check/check-project.js';
import { DIAGNOSTIC_CODES, type DiagnosticCode } from '../../generator/diagnostics/codes.js';
import type { Severity } from '../../generator/diagnostics/diagnostic.js';
import { BASE_SOP, insertBefore, withLine } from '../support/sop-text.js';

interface Case {
  readonly code: DiagnosticCode;
  readonly given: string;
  readonly line: number;
  readonly column: number;
  readonly message?: RegExp;
  readonly remediation?: RegExp;
  /** When it differs from the registry's default (SOP091 takes the severity of what it stands for). */
  readonly severity?: Severity;
}

const cases: Record<string, Case> = {
  'no frontmatter': { code: 'SOP001', given: BASE_SOP.split('\n').slice(5).join('\n'), line: 1, column: 1 },
  'frontmatter not YAML': { code: 'SOP002', given: withLine(3, 'version: [1.0'), line: 4, column: 1 },
  'frontmatter never closed': { code: 'SOP002', given: BASE_SOP.replace('tools: [lookup]\n---', 'tools: [lookup]\n'), line: 1, column: 1 },
  'required key missing': { code: 'SOP003', given: withLine(2, 'description: x'), line: 2, column: 1, message: /`agent` is required/ },
  'key of the wrong type': { code: 'SOP003', given: withLine(4, 'tools: lookup'), line: 4, column: 8, message: /`tools`/ },
  'agent not an identifier': { code: 'SOP003', given: withLine(2, 'agent: Demo Agent'), line: 2, column: 8 },
  'policy id not an identifier (__proto__ too: never dropped)': {
    code: 'SOP003',
    given: insertBefore(5, 'policies:\n  __proto__:\n    every_path_to: ASK\n    passes: START'),
    line: 6,
    column: 3,
    message: /`policies.__proto__`: a policy id must match/,
    remediation: /lowercase letters/,
  },
  'style names no node (Mermaid would draw one)': {
    code: 'SOP026',
    given: withLine(15, '    style AKS fill:#f9f\n```'),
    line: 15,
    column: 11,
    message: /`style AKS` names no node of the flowchart: Mermaid draws a new, unconnected node `AKS`/,
    remediation: /Did you mean `ASK`\?/,
  },
  'class names no node': {
    code: 'SOP026',
    given: withLine(15, '    classDef hot fill:#f9f\n    class START,GONE hot\n```'),
    line: 16,
    column: 17,
    message: /`class GONE` names no node of the flowchart, so it does nothing/,
  },
  'node id __proto__': {
    code: 'SOP034',
    given: insertBefore(15, '    __proto__[Lost] --> DONE'),
    line: 15,
    column: 5,
    message: /XState keeps states in plain objects/,
  },
  'unknown frontmatter key': { code: 'SOP004', given: insertBefore(5, 'tool: [x]'), line: 5, column: 1, remediation: /`tools`/ },
  'no SOP Flowchart section': { code: 'SOP010', given: withLine(10, '## Flow'), line: 1, column: 1, remediation: /fenced `mermaid` block/ },
  'no mermaid block': { code: 'SOP011', given: withLine(11, '```text'), line: 10, column: 1 },
  'mermaid syntax error': {
    code: 'SOP012',
    given: withLine(14, '    ASK --> '),
    line: 14,
    column: 13,
    message: /Expected a node id after '-->'/,
  },
  'comment on a statement line': { code: 'SOP013', given: withLine(14, '    ASK --> DONE([Done]) %% why'), line: 14, column: 26 },
  'node declared twice, differently': { code: 'SOP015', given: insertBefore(15, '    ASK{Other}'), line: 15, column: 5 },
  'edge to a subgraph': {
    code: 'SOP017',
    given: withLine(14, '    subgraph CHECK [Checks]\n      DONE([Done])\n    end\n    ASK --> CHECK'),
    line: 17,
    column: 13,
    message: /`CHECK` is the subgraph at 14:5, not a node/,
  },
  'shape Mermaid cannot draw': { code: 'SOP018', given: withLine(14, '    ASK --> DONE(-Done-)'), line: 14, column: 17 },
  'shape data key Mermaid ignores': {
    code: 'SOP019',
    given: withLine(14, '    ASK --> DONE@{ shape: stadium, lable: "Done" }'),
    line: 14,
    column: 36,
    remediation: /'label'/,
  },
  'no Node Prompts section': {
    code: 'SOP016',
    given: BASE_SOP.split('\n').slice(0, 16).join('\n'),
    line: 1,
    column: 1,
    message: /its nodes have no prompts/,
    remediation: /## Node Prompts/,
  },
  'a Node Prompts section without prompts': {
    code: 'SOP025',
    given: BASE_SOP.split('\n').slice(0, 18).join('\n').replace('## Node Prompts', '## Node Prompts (Solo)'),
    line: 17,
    column: 1,
    message: /`## Node Prompts \(Solo\)` section holds no/,
  },
  'prompt for an unknown node': { code: 'SOP020', given: withLine(19, '### ASKK'), line: 19, column: 1, remediation: /Did you mean `ASK`/ },
  'the same prompt twice': { code: 'SOP021', given: `${BASE_SOP}\n### ASK\nAgain.\n`, line: 25, column: 1 },
  'node yaml not YAML': { code: 'SOP022', given: withLine(21, 'tools: [lookup'), line: 21, column: 15 },
  'node yaml key of the wrong type': { code: 'SOP022', given: withLine(21, 'tools: lookup'), line: 21, column: 8 },
  'unknown node yaml key': {
    code: 'SOP023',
    given: withLine(21, 'tools: [lookup]\ntool: [x]'),
    line: 22,
    column: 1,
    remediation: /`tools`/,
  },
  'both prompt forms': {
    code: 'SOP024',
    given: insertBefore(19, '```yaml\nnode_prompts:\n  ASK:\n    prompt: hi\n```'),
    line: 19,
    column: 1,
  },
  'entry node not a node': {
    code: 'SOP030',
    given: insertBefore(5, 'entry_node: STRAT'),
    line: 5,
    column: 13,
    remediation: /Did you mean `START`/,
  },
  'hub not a node': { code: 'SOP031', given: insertBefore(5, 'hubs: [ASK, DONEE]'), line: 5, column: 13, remediation: /`DONE`/ },
  'tool not in frontmatter': {
    code: 'SOP040',
    given: withLine(21, 'tools: [lookup, lookupp]'),
    line: 21,
    column: 17,
    remediation: /`lookup`/,
  },
  'unreachable node': { code: 'SOP041', given: insertBefore(15, '    LOST[Lost] --> DONE'), line: 15, column: 5 },
  'trap with no way to a terminal': {
    code: 'SOP042',
    given: withLine(14, '    ASK --> DONE([Done])\n    START --> LOOP[Loop]\n    LOOP --> LOOP'),
    line: 15,
    column: 15,
  },
  'decision with one edge': { code: 'SOP043', given: withLine(13, '    START([Start]) --> ASK{"Ask"}'), line: 13, column: 24 },
  'decision with an unlabelled edge': {
    code: 'SOP044',
    given: withLine(14, '    ASK -->|ok| DONE([Done])\n    ASK --> START', withLine(13, '    START([Start]) --> ASK{"Ask"}')),
    line: 15,
    column: 9,
  },
  'node id that cannot be a state': { code: 'SOP034', given: insertBefore(15, '    A.B[Lost] --> DONE'), line: 15, column: 5 },
  'bare node id that looks like a typo': {
    code: 'SOP046',
    given: withLine(14, '    ASK --> DONE([Done])\n    ASK --> DOEN'),
    line: 15,
    column: 13,
    remediation: /Did you mean `DONE`/,
  },
  'a new id an edge makes: no prompt, no way out, not an end': {
    code: 'SOP047',
    given: withLine(14, '    ASK --> DONE([Done])\n    ASK -->|refund| REFUND_FLOW'),
    line: 15,
    column: 9,
    message: /`REFUND_FLOW` has no prompt, no edge on and is not drawn as an end: a run moved here by `ASK → REFUND_FLOW` stops/,
    remediation: /draw it as an end: `REFUND_FLOW\(\[\.\.\.\]\)`/,
  },
  'a prompt names a node that does not exist': {
    code: 'SOP048',
    given: withLine(23, 'Ask the question. Then go to DONNE.'),
    line: 23,
    column: 30,
    message: /`DONNE` is written as a step to go to, but the flowchart has no node `DONNE`/,
    remediation: /^Did you mean `DONE`\?/,
  },
  'unused frontmatter tool': { code: 'SOP045', given: withLine(4, 'tools: [lookup, spare]'), line: 4, column: 17 },
  'frontmatter alias bomb': {
    code: 'SOP092',
    given: insertBefore(
      5,
      [
        'a: &a [x, x, x, x, x, x, x, x, x, x]',
        ...['b', 'c', 'd', 'e', 'f'].map((k, i) => `${k}: &${k} [${Array(10).fill(`*${'abcdef'[i]}`).join(', ')}]`),
      ].join('\n'),
    ),
    line: 9,
    column: 36,
    message: /Aliases expand this YAML by more than 100,000 values/,
  },
  'node yaml nested too deeply': {
    code: 'SOP092',
    given: withLine(21, `tools: ${'['.repeat(70)}${']'.repeat(70)}`),
    line: 21,
    column: 72,
    message: /nests more than 64 levels/,
  },
  'flowchart with too many nodes': {
    code: 'SOP092',
    given: withLine(14, Array.from({ length: 500 }, (_, i) => `    ASK --> N${i}`).join('\n')),
    line: 512,
    column: 13,
    message: /at most 500/,
  },
  'escalation node not a node': {
    code: 'SOP050',
    given: insertBefore(5, 'escalation_node: DONEE'),
    line: 5,
    column: 18,
    remediation: /Did you mean `DONE`/,
  },
  'escalate_to not a node': {
    code: 'SOP050',
    given: withLine(21, 'tools: [lookup]\nmax_visits: 2\nescalate_to: STRAT'),
    line: 23,
    column: 14,
    remediation: /Did you mean `START`/,
  },
  'max_visits without an escalation node': {
    code: 'SOP051',
    given: withLine(21, 'tools: [lookup]\nmax_visits: 2'),
    line: 22,
    column: 13,
    message: /`ASK` has `max_visits: 2` but no escalation node/,
  },
  'escalation node with a limit of its own': {
    code: 'SOP052',
    given: withLine(21, 'tools: [lookup]\nmax_visits: 2\nescalate_to: ASK'),
    line: 23,
    column: 14,
  },
  'escalate_to without max_visits': { code: 'SOP053', given: withLine(21, 'tools: [lookup]\nescalate_to: DONE'), line: 22, column: 14 },
  'policy naming no node': {
    code: 'SOP054',
    given: insertBefore(5, 'policies:\n  p:\n    every_path_to: ASKK\n    passes: START'),
    line: 7,
    column: 20,
    message: /`ASKK` matches no node/,
    remediation: /Did you mean `ASK`/,
  },
  'policy that does not hold': {
    code: 'SOP055',
    given: insertBefore(5, 'policies:\n  lookup_after_done:\n    every_path_to: {tools: [lookup]}\n    passes: DONE'),
    line: 6,
    column: 3,
    message: /`lookup_after_done` does not hold: ASK \(it lists `lookup`\) is reachable without passing DONE: START → ASK\./,
  },
  'confirmation that is not a regular expression': {
    code: 'SOP056',
    given: insertBefore(5, 'policies:\n  p:\n    every_path_to: {tools: [lookup]}\n    passes: ASK\n    confirmation: "(yes"'),
    line: 9,
    column: 19,
    message: /not a regular expression/,
  },
  'domain server with both command and url': {
    code: 'SOP060',
    given: insertBefore(5, 'mcp_servers:\n  - name: shop\n    command: node\n    url: http://127.0.0.1:9/mcp'),
    line: 6,
    column: 5,
    message: /both `command` and `url`/,
  },
  'HTTP server with a stdio key': {
    code: 'SOP060',
    given: insertBefore(5, 'mcp_servers:\n  - name: shop\n    url: http://127.0.0.1:9/mcp\n    args: [x]'),
    line: 8,
    column: 5,
    message: /`args` does not apply to the HTTP server `shop`/,
  },
  'two domain servers named alike': {
    code: 'SOP061',
    given: insertBefore(5, 'mcp_servers:\n  - name: shop\n    command: a\n  - name: shop\n    command: b'),
    line: 8,
    column: 11,
  },
  'a token written into the SOP': {
    code: 'SOP062',
    given: insertBefore(
      5,
      'mcp_servers:\n  - name: shop\n    url: https://shop.example/mcp\n    headers:\n      Authorization: Bearer abc123',
    ),
    line: 9,
    column: 22,
    remediation: /\$\{AUTHORIZATION\}/,
  },
  'malformed variable reference': {
    code: 'SOP063',
    given: insertBefore(5, 'mcp_servers:\n  - name: shop\n    url: https://${SHOP_HOST/mcp'),
    line: 7,
    column: 10,
    message: /never closed/,
  },
  'evidence from a tool the node does not offer': {
    code: 'SOP064',
    given: withLine(21, 'tools: [lookup]\nevidence: [lokup]'),
    line: 22,
    column: 12,
    remediation: /`lookup`/,
  },
  'evidence on a terminal node': {
    code: 'SOP065',
    given: `${BASE_SOP}### DONE\n\`\`\`yaml\ntools: [lookup]\nevidence: true\n\`\`\`\nDone.\n`,
    line: 27,
    column: 11,
  },
  'policy with evidence passes a node without it': {
    code: 'SOP066',
    given: insertBefore(5, 'policies:\n  asked_first:\n    every_path_to: DONE\n    passes: ASK\n    evidence: true'),
    line: 9,
    column: 15,
    message: /`ASK` requires no evidence/,
  },
  'a `when` condition that does not parse, at the character that does not': {
    code: 'SOP068',
    given: withLine(21, 'tools: [lookup]\nwhen:\n  DONE: lookup.status = done'),
    line: 23,
    column: 23,
    message: /does not parse: expected an operator .* after `lookup\.status`, found `=` \(`=` is not one: write `==`\)/,
    remediation: /`TOOL\.FIELD OP VALUE`/,
  },
  'a `when` key that is not a successor': {
    code: 'SOP068',
    given: withLine(21, 'tools: [lookup]\nwhen:\n  DOEN: lookup.status == done'),
    line: 23,
    column: 3,
    message: /names `DOEN`, which is not a successor of the node \(its successors: DONE\)/,
    remediation: /Did you mean `DONE`\?/,
  },
  'a `when` condition over a tool that is not in `tools`': {
    code: 'SOP068',
    given: withLine(21, 'tools: [lookup]\nwhen:\n  DONE: lokup.status == done'),
    line: 23,
    column: 9,
    message: /reads `lokup`, which is not a tool of this SOP/,
    remediation: /Did you mean `lookup`\?/,
  },
  'an operator given the wrong kind of value': {
    code: 'SOP068',
    given: withLine(21, 'tools: [lookup]\nwhen:\n  DONE: lookup.count < many'),
    line: 23,
    column: 24,
    message: /`<` compares numbers: expected a number such as `100`, found the text `many`/,
  },
  'a `shows` condition that names the tool': {
    code: 'SOP068',
    given: withLine(21, 'tools: [lookup]\nevidence: { shows: lookup.status }'),
    line: 22,
    column: 20,
    remediation: /Write the field alone: `status`/,
  },
  'a `when` condition over an answer some path never read': {
    code: 'SOP069',
    given: withLine(21, 'when:\n  DONE: lookup.status == done'),
    line: 22,
    column: 9,
    message: /a run can reach `ASK` without any node offering `lookup`, so its answer may never have been read: START → ASK\./,
    remediation: /Offer `lookup` at `ASK`/,
  },
  'an unknown key of a domain server': {
    code: 'SOP004',
    given: insertBefore(5, 'mcp_servers:\n  - name: s\n    command: node\n    descripton: Shop tools'),
    line: 8,
    column: 5,
    message:
      /Unknown key `descripton` in server `s`.*A server's keys: name, url, headers, command, args, env, cwd, timeout_ms, description\./,
    remediation: /Did you mean `description`\?/,
  },
  'sub-flow node not drawn as a subroutine': {
    code: 'SOP070',
    given: withLine(21, 'subflow: other'),
    line: 13,
    column: 24,
    message: /`ASK` calls `other` but is drawn as a rectangle/,
    remediation: /`ASK\[\[Ask\]\]`/,
  },
  'sub-flow node with tools': {
    code: 'SOP071',
    given: withLine(21, 'tools: [lookup]\nsubflow: other'),
    line: 21,
    column: 9,
    message: /cannot have `tools`/,
  },
  'exits without subflow': { code: 'SOP071', given: withLine(21, 'tools: [lookup]\nexits: {DONE: DONE}'), line: 22, column: 1 },
  'exit to a node that is not a successor': {
    code: 'SOP074',
    given: withLine(21, 'subflow: other\nexits: {FINISHED: START}', withLine(13, '    START([Start]) --> ASK[["Ask"]]')),
    line: 22,
    column: 19,
    message: /maps `FINISHED` to `START`, which is not one of its successors \(DONE\)/,
  },
  'fork whose join is not a node': { code: 'SOP077', given: withLine(21, 'fork: JOINN'), line: 21, column: 7, remediation: /`JOIN`|node/ },
  'branch that never reaches its join': {
    code: 'SOP078',
    given: withLine(
      25,
      'fork: J',
      withLine(14, '    ASK --> A[A]\n    ASK --> B[B]\n    A --> J[J]\n    B --> DONE([Done])\n    J --> DONE'),
    ),
    line: 15,
    column: 13,
    message: /Branch `B` of fork `ASK` never reaches the join `J`/,
  },
  'join with an edge for one outcome only': {
    code: 'SOP079',
    given: withLine(
      25,
      'fork: J',
      withLine(14, '    ASK --> A[A]\n    ASK --> B[B]\n    A --> J[J]\n    B --> J\n    J -->|passed| DONE([Done])'),
    ),
    line: 16,
    column: 11,
    remediation: /`J -->\|failed\| NEXT`/,
  },
  'rename to a node that does not exist': { code: 'SOP080', given: insertBefore(5, 'renames: {OLD: NEWW}'), line: 5, column: 16 },
  'more diagnostics than are shown': {
    code: 'SOP091',
    given: `${BASE_SOP}${Array.from({ length: 250 }, (_, i) => `### NOPE_${i}\n`).join('')}`,
    line: 273,
    column: 1,
    severity: 'error',
    message: /… and 50 more diagnostics in this file, not shown \(50 errors\)/,
  },
};

describe('diagnostic catalog', () => {
  it('the base SOP compiles cleanly', () => {
    expect(compileSop('sops/demo.md', BASE_SOP).diagnostics).toEqual([]);
  });

  for (const [name, c] of Object.entries(cases)) {
    it(`${c.code}: ${name}`, () => {
      const { diagnostics } = compileSop('sops/demo.md', c.given);
      const found = diagnostics.find((d) => d.code === c.code);
      expect(found, JSON.stringify(diagnostics, null, 2)).toBeDefined();
      expect(found).toMatchObject({
        file: 'sops/demo.md',
        severity: c.severity ?? DIAGNOSTIC_CODES[c.code].severity,
        line: c.line,
        column: c.column,
      });
      expect(found!.line).toBeLessThanOrEqual(c.given.split('\n').length);
      if (c.message) expect(found!.message).toMatch(c.message);
      expect(found!.remediation).toMatch(c.remediation ?? /\w/);
      for (const d of diagnostics) expect(d.remediation, d.code).toBeTruthy();
    });
  }

  it('SOP032: two files declare the same agent (both are told, at their `agent` key)', () => {
    const a = compileSop('sops/a.md', BASE_SOP).model!;
    const b = compileSop('sops/b.md', BASE_SOP).model!;
    const diagnostics = checkProject([b, a]);
    expect(diagnostics.map((d) => [d.file, d.code, d.line, d.column])).toEqual([
      ['sops/a.md', 'SOP032', 2, 8],
      ['sops/b.md', 'SOP032', 2, 8],
    ]);
    expect(diagnostics[0]!.message).toContain('sops/b.md');
  });

  it('SOP033: two agents that export the same TypeScript name', () => {
    const a = compileSop('sops/a.md', BASE_SOP.replace('agent: demo', 'agent: foo_1')).model!;
    const b = compileSop('sops/b.md', BASE_SOP.replace('agent: demo', 'agent: foo1')).model!;
    expect(checkProject([a, b]).map((d) => [d.file, d.code, d.line, d.column])).toEqual([
      ['sops/a.md', 'SOP033', 2, 8],
      ['sops/b.md', 'SOP033', 2, 8],
    ]);
  });

  describe('across SOPs: sub-flows (at the calling SOP)', () => {
    const CALLER = [
      '---', // 1
      'agent: caller', // 2
      'version: "1.0"', // 3
      'tools: []', // 4
      '---', // 5
      '', // 6
      '## SOP Flowchart', // 7
      '```mermaid', // 8
      'flowchart TD', // 9
      '    START([Start]) --> CALL[[Call it]]', // 10
      '    CALL -->|done| END([End])', // 11
      '```', // 12
      '', // 13
      '## Node Prompts', // 14
      '', // 15
      '### CALL', // 16
      '```yaml', // 17
      'subflow: callee', // 18
      '```', // 19
      '',
    ].join('\n');
    const CALLEE = BASE_SOP.replace('agent: demo', 'agent: callee');
    const project = (...files: [string, string][]) =>
      compositionDiagnostics(files.map(([file, text]) => compileSop(file, text))).map((d) => [d.file, d.code, d.line, d.column, d.message]);

    it('a caller whose callee maps cleanly has nothing to say', () => {
      expect(project(['sops/caller.md', CALLER], ['sops/callee.md', CALLEE])).toEqual([]);
    });

    it('SOP072: an agent no SOP declares, with the closest name', () => {
      const [found] = compositionDiagnostics([
        compileSop('sops/caller.md', CALLER),
        compileSop('sops/callee.md', CALLEE.replace('callee', 'calee')),
      ]);
      expect(found).toMatchObject({ file: 'sops/caller.md', code: 'SOP072', line: 18, column: 10, remediation: 'Did you mean `calee`?' });
    });

    it('SOP073: a cycle of calls, at each call on it', () => {
      const back = withLine(21, 'subflow: caller', withLine(13, '    START([Start]) --> ASK[["Ask"]]', CALLEE));
      expect(project(['sops/caller.md', CALLER], ['sops/callee.md', back])).toEqual([
        ['sops/caller.md', 'SOP073', 18, 10, '`CALL` calls `callee`, which calls it back: caller → callee → caller.'],
        ['sops/callee.md', 'SOP073', 21, 10, '`ASK` calls `caller`, which calls it back: callee → caller → callee.'],
      ]);
    });

    it('SOP074: a terminal that maps to no edge, and an exit that names no terminal', () => {
      const unlabelled = CALLER.replace('CALL -->|done| END([End])', 'CALL -->|finished| END([End])');
      expect(project(['sops/caller.md', unlabelled], ['sops/callee.md', CALLEE])).toEqual([
        [
          'sops/caller.md',
          'SOP074',
          18,
          10,
          '`CALL` calls `callee`, whose terminal node `DONE` maps to none of its edges (the edge |finished| to END).',
        ],
        [
          'sops/caller.md',
          'SOP075',
          11,
          10,
          'No terminal node of `callee` leads along the edge |finished| to END of `CALL` (its terminals: DONE).',
        ],
      ]);
      const declared = unlabelled.replace('subflow: callee', 'subflow: callee\nexits: {DONEE: END}');
      const found = compositionDiagnostics([compileSop('sops/caller.md', declared), compileSop('sops/callee.md', CALLEE)]);
      expect(found.find((d) => d.code === 'SOP074' && d.line === 19)).toMatchObject({ column: 9, remediation: 'Did you mean `DONE`?' });
    });

    it('SOP069: a `when` condition is proved over the expansion: the called SOP reads the tool on the way', () => {
      const deciding = [
        '---',
        'agent: caller',
        'version: "1.0"',
        'tools: [lookup]',
        '---',
        '',
        '## SOP Flowchart',
        '```mermaid',
        'flowchart TD',
        '    START([Start]) --> CALL[[Call it]]',
        '    CALL -->|done| CHECK{Found?}',
        '    CHECK -->|yes| END([End])',
        '    CHECK -->|no| OTHER([Other])',
        '```',
        '',
        '## Node Prompts',
        '',
        '### CALL',
        '```yaml',
        'subflow: callee',
        '```',
        '',
        '### CHECK',
        '```yaml',
        'when:',
        '  END: lookup.found == true',
        '```',
        '',
      ].join('\n');
      // Alone, the file does not judge it: the called SOP may read the tool.
      expect(compileSop('sops/caller.md', deciding).diagnostics.filter((d) => d.code === 'SOP069')).toEqual([]);
      expect(project(['sops/caller.md', deciding], ['sops/callee.md', CALLEE])).toEqual([]);
      const bypass = deciding.replace('    CALL -->|done|', '    START --> CHECK\n    CALL -->|done|');
      expect(project(['sops/caller.md', bypass], ['sops/callee.md', CALLEE])).toEqual([
        [
          'sops/caller.md',
          'SOP069',
          27,
          8,
          '`when` of `CHECK` decides `END` on `lookup.found == true`, but a run can reach `CHECK` without any node offering `lookup`, so its answer may never have been read: START → CHECK. (with the sub-flows expanded)',
        ],
      ]);
    });

    it('SOP076: the called entry node has max_visits, or the callee does not compile', () => {
      const limited = insertBefore(19, '### START\n```yaml\nmax_visits: 2\nescalate_to: DONE\n```\n', CALLEE);
      expect(project(['sops/caller.md', CALLER], ['sops/callee.md', limited])[0]).toEqual([
        'sops/caller.md',
        'SOP076',
        18,
        10,
        '`CALL` calls `callee`, whose entry node `START` has `max_visits: 2`: a call enters it at once, so it cannot be limited.',
      ]);
      expect(project(['sops/caller.md', CALLER], ['sops/callee.md', withLine(19, '### ASKK', CALLEE)])[0]).toEqual([
        'sops/caller.md',
        'SOP076',
        18,
        10,
        '`CALL` calls `callee`, whose SOP (sops/callee.md) does not compile: fix its errors first.',
      ]);
      const broken = compositionDiagnostics([
        compileSop('sops/caller.md', CALLER),
        compileSop('sops/callee.md', withLine(19, '### ASKK', CALLEE)),
      ]);
      // What to do is about the callee, not the visit limit or the size the code's other findings are about.
      expect(broken.find((d) => d.code === 'SOP076')?.remediation).toBe(
        'Fix the errors reported in sops/callee.md; this call is checked again once it compiles.',
      );
    });

    it('SOP055 and SOP054 over the expansion: the callee offers a guarded tool before the step that passes it', () => {
      const guarded = insertBefore(
        5,
        'policies:\n  confirm_lookups:\n    every_path_to: {tools: [lookup]}\n    passes: [END, CALL.NOPE]',
        CALLER,
      );
      expect(project(['sops/caller.md', guarded], ['sops/callee.md', CALLEE])).toEqual([
        ['sops/caller.md', 'SOP054', 8, 19, 'Policy `confirm_lookups`: `CALL.NOPE` matches no node of the expanded sub-flows.'],
        [
          'sops/caller.md',
          'SOP055',
          6,
          3,
          'Policy `confirm_lookups` does not hold: CALL.ASK (it lists `lookup`) is reachable without passing END: START → CALL → CALL.START → CALL.ASK. (with the sub-flows expanded)',
        ],
      ]);
      const passed = guarded.replace('passes: [END, CALL.NOPE]', 'passes: CALL.ASK');
      expect(project(['sops/caller.md', passed], ['sops/callee.md', CALLEE])).toEqual([]);
    });
  });

  it('every catalog code except internal ones has a case', () => {
    // SOP014 belongs to the flowchart parser's tests; SOP090 is a compiler bug, shown by `compile-never-throws`;
    // SOP057 is the build's (token counts are taken on the compiled answers): test/generator/analyze/token-budgets.test.ts;
    // SOP058 needs an install without the optional tokenizer: test/e2e/app-workflow.test.ts; SOP067 needs live
    // domain servers: test/cli/check-tools.test.ts.
    const covered = new Set([
      ...Object.values(cases).map((c) => c.code),
      ...(['SOP032', 'SOP033', 'SOP014', 'SOP090', 'SOP057', 'SOP058', 'SOP067'] as const),
      // Across SOPs, above: sub-flows.
      ...(['SOP072', 'SOP073', 'SOP075', 'SOP076'] as const),
    ]);
    expect(Object.keys(DIAGNOSTIC_CODES).filter((code) => !covered.has(code as DiagnosticCode))).toEqual([]);
  });
});
