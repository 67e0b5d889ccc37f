/**
 * Policies (`generator/check/check-policies.ts`) beyond the catalog's one case per code: the retail SOP holds all of
 * its policies, and breaking each one is SOP055 at its key with the shortest counterexample; selectors (`*` patterns,
 * `except`, `terminals: true`, `tools`); a counterexample through an escalation move (⇢), replayed through the
 * transition rule to show a run can take it; `severity: warning`; hubs do not open a way around a required node;
 * names that match nothing; and a graph at the compiler's node limit with many policies, which still completes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decideMove, type Visits } from '../../../contract/transitions.js';
import { buildPolicyGraph, findViolation } from '../../../generator/check/check-policies.js';
import { compileSop } from '../../../generator/compile-sop.js';
import { random } from '../../../fuzz/random.js';
import { type Diagnostic, hasErrors } from '../../../generator/diagnostics/diagnostic.js';
import { transitionTableOf } from '../../../generator/emit/compiled-data.js';
import { outlineSop } from '../../../generator/emit/outline.js';
import { LIMITS } from '../../../generator/limits.js';
import { PROJECT_ROOT } from '../../support/run-cli.js';

const policyCodes = (diagnostics: readonly Diagnostic[]) => diagnostics.filter((d) => /^SOP05[4-6]$/.test(d.code));

/** Where the policy `id`'s key is (`  id:` in the frontmatter): its violation is reported there. */
function keyOf(text: string, id: string): { line: number; column: number } {
  const line = text.split('\n').indexOf(`  ${id}:`);
  expect(line, id).toBeGreaterThanOrEqual(0);
  return { line: line + 1, column: 3 };
}

/** 1-based line and column of the first `needle` in `text`. */
function position(text: string, needle: string): { line: number; column: number } {
  const lines = text.split('\n');
  const line = lines.findIndex((l) => l.includes(needle));
  expect(line, needle).toBeGreaterThanOrEqual(0);
  return { line: line + 1, column: lines[line]!.indexOf(needle) + 1 };
}

describe('the retail SOP', () => {
  const file = 'sops/retail_customer_support.md';
  const retail = readFileSync(join(PROJECT_ROOT, file), 'utf8');
  /** The retail SOP with `from` replaced by `to` (which must be there), compiled: its policy diagnostics. */
  const mutated = (from: string, to: string) => {
    expect(retail).toContain(from);
    const text = retail.replace(from, to);
    return { text, found: policyCodes(compileSop(file, text).diagnostics) };
  };

  it('holds all its policies', () => {
    const compiled = compileSop(file, retail);
    expect(compiled.model?.policies.map((p) => p.id)).toEqual([
      'authenticate_first',
      'status_checked_before_changes',
      'order_read_before_changes',
      'confirm_before_changes',
    ]);
    expect(compiled.diagnostics.filter((d) => d.code.startsWith('SOP05'))).toEqual([]);
  });

  it("confirm_before_changes: the seed's cancel tool at COLLECT_CANCEL is offered before the user's yes", () => {
    const { text, found } = mutated('### COLLECT_CANCEL\n```yaml\n', '### COLLECT_CANCEL\n```yaml\ntools: [cancel_pending_order]\n');
    expect(found).toEqual([
      expect.objectContaining({
        code: 'SOP055',
        severity: 'error',
        ...keyOf(text, 'confirm_before_changes'),
        message:
          'Policy `confirm_before_changes` does not hold: COLLECT_CANCEL (it lists `cancel_pending_order`) is reachable without passing ' +
          'DO_CANCEL, DO_MOD_ADDR, DO_MOD_ITEMS, DO_MOD_PAY, DO_RETURN, DO_EXCH, DO_USER_ADDR: ' +
          'START → AUTH → ROUTE → CHK_CANCEL → IS_PENDING_C → COLLECT_CANCEL.',
      }),
    ]);
  });

  it('status_checked_before_changes and order_read_before_changes: an edge from ROUTE straight to DO_CANCEL', () => {
    const { text, found } = mutated('    INFO --> END_INFO', '    ROUTE -->|just cancel| DO_CANCEL\n    INFO --> END_INFO');
    expect(found).toEqual([
      expect.objectContaining({
        code: 'SOP055',
        ...keyOf(text, 'status_checked_before_changes'),
        message:
          'Policy `status_checked_before_changes` does not hold: DO_CANCEL is reachable without passing ' +
          'IS_PENDING_C, IS_PENDING_M, IS_DELIVERED_R, IS_DELIVERED_E: START → AUTH → ROUTE → DO_CANCEL.',
      }),
      expect.objectContaining({
        code: 'SOP055',
        ...keyOf(text, 'order_read_before_changes'),
        message:
          'Policy `order_read_before_changes` does not hold: DO_CANCEL is reachable without passing ' +
          'CHK_CANCEL, CHK_MOD, CHK_RETURN, CHK_EXCH: START → AUTH → ROUTE → DO_CANCEL.',
      }),
    ]);
  });

  it('order_read_before_changes: a check step that no longer requires evidence breaks `evidence: true` (SOP066)', () => {
    const from =
      '### CHK_CANCEL\n```yaml\ntools: [get_user_details, get_order_details]\nevidence: { tools: [get_order_details], about: order_id }\n';
    expect(retail).toContain(from);
    const text = retail.replace(from, '### CHK_CANCEL\n```yaml\ntools: [get_user_details, get_order_details]\n');
    const found = compileSop(file, text).diagnostics.filter((d) => d.code === 'SOP066');
    const policyKey = keyOf(text, 'order_read_before_changes').line;
    expect(found).toEqual([
      expect.objectContaining({
        code: 'SOP066',
        line: policyKey + 4,
        message: expect.stringContaining('`CHK_CANCEL` requires no evidence'),
      }),
    ]);
  });

  it('authenticate_first: an edge around AUTH reaches every other node, the nearest shown, the rest counted', () => {
    const { text, found } = mutated('    AUTH --> ROUTE{Intent?}', '    AUTH --> ROUTE{Intent?}\n    START -.->|known user| ROUTE');
    expect(found).toEqual([
      expect.objectContaining({
        code: 'SOP055',
        ...keyOf(text, 'authenticate_first'),
        message:
          'Policy `authenticate_first` does not hold: ROUTE is reachable without passing AUTH: START → ROUTE. Also reached without them: ' +
          'INFO, CHK_CANCEL, CHK_MOD, CHK_RETURN, CHK_EXCH, COLLECT_USER_ADDR, ESCALATE_HUMAN, END_INFO and 29 more.',
      }),
    ]);
  });
});

/** A help desk: ROUTE is a hub; refunds are checked (IS_OK) and confirmed (DO_REFUND). */
const DESK = `---
agent: desk
version: "1.0"
entry_node: START
hubs: [ROUTE]
tools: [lookup, refund, note, spare]
policies:
%POLICIES%
---

## Role
Helps.

## SOP Flowchart
\`\`\`mermaid
flowchart TD
%FIRST%
    START([Start]) --> AUTH["Authenticate"]
    AUTH --> ROUTE{Intent?}
    ROUTE -->|refund| CHK_REFUND["Check the order"]
    CHK_REFUND --> IS_OK{Eligible?}
    IS_OK -->|no| DENY_REFUND([Refund denied])
    IS_OK -->|yes| DO_REFUND["Confirm, then refund"]
    DO_REFUND --> END_REFUND([Refunded])
    DO_REFUND -.->|no confirmation| ROUTE
    ROUTE -->|anything else| HUMAN([Human])
%EDGES%
\`\`\`

## Node Prompts

### AUTH
\`\`\`yaml
tools: [lookup]
\`\`\`
Authenticate.

### CHK_REFUND
\`\`\`yaml
tools: [lookup, note]
\`\`\`
Check the order.

### DO_REFUND
\`\`\`yaml
tools: [refund]
\`\`\`
Refund on an explicit yes.
`;

interface DeskChange {
  /** Edges added at the end of the flowchart, or before its first line. */
  readonly edges?: readonly string[];
  readonly first?: readonly string[];
  /** Text replaced elsewhere. */
  readonly replace?: readonly (readonly [string, string])[];
}

/** The desk with `policies` (YAML lines, indented by two) and changes, compiled. */
function desk(policies: string, change: DeskChange = {}) {
  let text = DESK.replace('%POLICIES%', policies.trim().replace(/^/gm, '  '))
    .replace('%FIRST%\n', (change.first ?? []).map((e) => `    ${e}\n`).join(''))
    .replace('%EDGES%\n', (change.edges ?? []).map((e) => `    ${e}\n`).join(''));
  for (const [from, to] of change.replace ?? []) {
    expect(text).toContain(from);
    text = text.replace(from, to);
  }
  const compiled = compileSop('sops/desk.md', text);
  return { text, compiled, found: policyCodes(compiled.diagnostics) };
}

const violation = (text: string, id: string, message: string) =>
  expect.objectContaining({ code: 'SOP055', severity: 'error', ...keyOf(text, id), message: `Policy \`${id}\` does not hold: ${message}` });

describe('selectors', () => {
  it('`*` matches any run of characters, `except` takes nodes out', () => {
    const policy = `
refund_steps_checked:
  every_path_to: {nodes: ['*_REFUND'], except: [CHK_*]}
  passes: 'IS_*'`;
    expect(desk(policy).found).toEqual([]);
    const { text, found } = desk(policy.replace(', except: [CHK_*]', ''));
    expect(found).toEqual([
      violation(text, 'refund_steps_checked', 'CHK_REFUND is reachable without passing IS_OK: START → AUTH → ROUTE → CHK_REFUND.'),
    ]);
  });

  it('`terminals: true` guards every terminal node', () => {
    const policy = `
auth_before_any_end:
  every_path_to: {terminals: true}
  passes: AUTH`;
    expect(desk(policy).found).toEqual([]);
    const { text, found } = desk(policy, { edges: ['START -.->|hangs up| HUMAN'] });
    expect(found).toEqual([violation(text, 'auth_before_any_end', 'HUMAN is reachable without passing AUTH: START → HUMAN.')]);
  });

  it('`tools` guards the nodes that list a tool, and the message says which', () => {
    const policy = `
refund_after_check:
  every_path_to: {tools: [refund]}
  passes: IS_OK`;
    expect(desk(policy).found).toEqual([]);
    const { text, found } = desk(policy, { replace: [['tools: [lookup, note]', 'tools: [lookup, note, refund]']] });
    expect(found).toEqual([
      violation(
        text,
        'refund_after_check',
        'CHK_REFUND (it lists `refund`) is reachable without passing IS_OK: START → AUTH → ROUTE → CHK_REFUND.',
      ),
    ]);
  });

  it('`passes` takes any selector, and a guarded node that is a `passes` node counts as passed', () => {
    const policy = `
looked_up_first:
  every_path_to: {except: [START]}
  passes: {tools: [lookup]}`;
    expect(desk(policy).found).toEqual([]); // AUTH is guarded, and lists lookup itself
    const { text, found } = desk(policy, { replace: [['tools: [lookup]\n```\nAuthenticate.', 'tools: [note]\n```\nAuthenticate.']] });
    expect(found).toEqual([
      violation(
        text,
        'looked_up_first',
        'AUTH is reachable without passing CHK_REFUND: START → AUTH. Also reached without them: ROUTE, HUMAN.',
      ),
    ]);
  });
});

describe('counterexamples', () => {
  it('is the shortest path, not the first one found along the edges', () => {
    const { text, found } = desk(
      `
refund_checked:
  every_path_to: DO_REFUND
  passes: IS_OK`,
      {
        first: [
          'AUTH -->|legacy| OLD_A["Old form"]',
          'OLD_A --> OLD_B["Old check"]',
          'OLD_B --> OLD_C["Old approval"]',
          'OLD_C --> DO_REFUND',
        ],
        edges: ['ROUTE -->|shortcut| DO_REFUND'],
      },
    );
    expect(found).toEqual([
      violation(text, 'refund_checked', 'DO_REFUND is reachable without passing IS_OK: START → AUTH → ROUTE → DO_REFUND.'),
    ]);
  });

  it('names the nearest guarded node, whatever the order of the flowchart, and the others reached', () => {
    const { text, found } = desk(
      `
ends_after_check:
  every_path_to: [END_REFUND, HUMAN]
  passes: IS_OK`,
      { edges: ['CHK_REFUND -->|already refunded| END_REFUND'] },
    );
    expect(found).toEqual([
      violation(
        text,
        'ends_after_check',
        'HUMAN is reachable without passing IS_OK: START → AUTH → ROUTE → HUMAN. Also reached without them: END_REFUND.',
      ),
    ]);
  });

  it('`severity: warning` reports it as a warning, which does not fail the build', () => {
    const { compiled, found } = desk(
      `
refund_checked:
  every_path_to: DO_REFUND
  passes: IS_OK
  severity: warning`,
      { edges: ['ROUTE -->|shortcut| DO_REFUND'] },
    );
    expect(found).toEqual([expect.objectContaining({ code: 'SOP055', severity: 'warning' })]);
    expect(hasErrors(compiled.diagnostics)).toBe(false);
  });

  it('holds however often the path returns to the hub: a hub is reachable only through the flowchart', () => {
    const { compiled, found } = desk(`
route_after_auth:
  every_path_to: ROUTE
  passes: AUTH
refund_checked:
  every_path_to: [DO_REFUND, END_REFUND]
  passes: CHK_REFUND`);
    expect(found).toEqual([]);
    // The transition rule agrees: ROUTE is not open before the path has passed through it.
    const table = transitionTableOf(outlineSop(compiled.model!, compiled.facts!));
    expect(table.hubs).toEqual(['ROUTE']);
    expect(decideMove(table, ['START'], 'ROUTE').ok).toBe(false);
    expect(decideMove(table, ['START', 'AUTH', 'ROUTE', 'CHK_REFUND', 'IS_OK', 'DO_REFUND'], 'ROUTE')).toMatchObject({
      ok: true,
      path: ['START', 'AUTH', 'ROUTE'],
    });
  });
});

/** ASK → VERIFY loops back through IS_OK; VERIFY at most twice, then HOLD, which no edge reaches. */
const VERIFY_SOP = `---
agent: verify
version: "1.0"
tools: []
policies:
%POLICIES%
---

## Role
Helps.

## SOP Flowchart
\`\`\`mermaid
flowchart TD
    START([Start]) --> ASK["Ask for the code"]
    ASK --> VERIFY["Check the code"]
    VERIFY --> IS_OK{Correct?}
    IS_OK -->|no| ASK
    IS_OK -->|yes| DONE([Done])
    HOLD([Security hold])
\`\`\`

## Node Prompts

### VERIFY
\`\`\`yaml
max_visits: 2
escalate_to: HOLD
\`\`\`
Check the code.
`;

describe('visit limits', () => {
  it('a counterexample through an escalation move shows it with ⇢, and a run can take it', () => {
    const text = VERIFY_SOP.replace('%POLICIES%', '  hold_after_verify:\n    every_path_to: HOLD\n    passes: VERIFY');
    const compiled = compileSop('sops/verify.md', text);
    expect(policyCodes(compiled.diagnostics)).toEqual([
      expect.objectContaining({
        code: 'SOP055',
        ...keyOf(text, 'hold_after_verify'),
        message:
          'Policy `hold_after_verify` does not hold: HOLD is reachable without passing VERIFY: START → ASK ⇢ HOLD (once VERIFY has used up its max_visits).',
      }),
    ]);
    // The walk that makes it: VERIFY twice, then, back at ASK, the move into VERIFY is refused and HOLD is open.
    const table = transitionTableOf(outlineSop(compiled.model!, compiled.facts!));
    let path: readonly string[] = [];
    let visits: Visits = {};
    for (const node of ['START', 'ASK', 'VERIFY', 'IS_OK', 'ASK', 'VERIFY', 'IS_OK', 'ASK', 'HOLD']) {
      const verdict = decideMove(table, path, node, visits);
      expect(verdict.ok, node).toBe(true);
      if (verdict.ok) ({ path, visits } = verdict);
    }
    expect(path).toEqual(['START', 'ASK', 'HOLD']);
  });

  it('a node only an escalation move leads to is reachable: no SOP041 for HOLD', () => {
    const text = VERIFY_SOP.replace('%POLICIES%', '  hold_after_ask:\n    every_path_to: [HOLD, DONE]\n    passes: ASK');
    expect(compileSop('sops/verify.md', text).diagnostics.map((d) => d.code)).not.toContain('SOP041');
    const unlimited = text.replace('max_visits: 2\nescalate_to: HOLD\n', 'tools: []\n');
    expect(compileSop('sops/verify.md', unlimited).diagnostics).toContainEqual(
      expect.objectContaining({ code: 'SOP041', message: expect.stringContaining('`HOLD` is not reachable') }),
    );
  });

  it('a policy the escalation move does not break still holds', () => {
    const text = VERIFY_SOP.replace('%POLICIES%', '  hold_after_ask:\n    every_path_to: [HOLD, DONE]\n    passes: ASK');
    expect(policyCodes(compileSop('sops/verify.md', text).diagnostics)).toEqual([]);
  });
});

describe('a long counterexample', () => {
  it('keeps its start and its end, and counts the steps it leaves out', () => {
    const chain = Array.from({ length: 60 }, (_, i) => `    N${i} --> N${i + 1}`).join('\n');
    const text = `---
agent: chain
version: "1"
tools: []
policies:
  checked:
    every_path_to: GUARDED
    passes: CHECK
---

## SOP Flowchart
\`\`\`mermaid
flowchart TD
    START([Start]) --> N0
${chain}
    N60 --> GUARDED([Guarded])
    START --> CHECK([Check])
\`\`\`
`;
    const found = policyCodes(compileSop('sops/chain.md', text).diagnostics);
    const nodes = ['START', ...Array.from({ length: 61 }, (_, i) => `N${i}`), 'GUARDED'];
    expect(found).toEqual([
      expect.objectContaining({
        code: 'SOP055',
        message:
          `Policy \`checked\` does not hold: GUARDED is reachable without passing CHECK: ${nodes.slice(0, 12).join(' → ')} → … ` +
          `(${nodes.length - 24} more steps) … → ${nodes.slice(-12).join(' → ')}.`,
      }),
    ]);
  });
});

describe('misspelt keys', () => {
  it('a key a policy or a selector does not have is an error at that key, naming the key meant', () => {
    const { text, compiled } = desk(`
p:
  every_path_to: {nodes: [DO_REFUND], tool: [refund]}
  pases: IS_OK`);
    expect(compiled.diagnostics.filter((d) => d.code === 'SOP003')).toEqual([
      expect.objectContaining({ message: 'Frontmatter key `policies.p.passes` is required.' }),
      expect.objectContaining({
        ...position(text, 'tool: [refund]'),
        message: 'Frontmatter key `policies.p.every_path_to` has no key `tool`.',
        remediation: 'Did you mean `tools`?',
      }),
      expect.objectContaining({
        ...position(text, 'pases: IS_OK'),
        message: 'Frontmatter key `policies.p` has no key `pases`.',
        remediation: 'Did you mean `passes`?',
      }),
    ]);
  });
});

describe('policy ids', () => {
  it('are names like any other: `constructor` is a policy, proved as written', () => {
    const { text, compiled } = desk(
      `
constructor:
  every_path_to: DO_REFUND
  passes: AUTH
prototype:
  every_path_to: DO_REFUND
  passes: IS_OK`,
      { edges: ['ROUTE --> DO_REFUND'] },
    );
    expect(compiled.model?.policies.map((policy) => policy.id)).toEqual(['constructor', 'prototype']);
    expect(policyCodes(compiled.diagnostics)).toEqual([
      violation(text, 'prototype', 'DO_REFUND is reachable without passing IS_OK: START → AUTH → ROUTE → DO_REFUND.'),
    ]);
  });

  it('that break the grammar are errors at the id, `__proto__` too: a policy is never dropped', () => {
    const { text, compiled } = desk(`
__proto__:
  every_path_to: DO_REFUND
  passes: AUTH
Refunds:
  every_path_to: DO_REFUND
  passes: AUTH`);
    expect(compiled.model).toBeNull();
    expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([
      expect.objectContaining({
        code: 'SOP003',
        ...keyOf(text, '__proto__'),
        endColumn: 12,
        message: 'Frontmatter key `policies.__proto__`: a policy id must match [a-z][a-z0-9_]* (lowercase, digits, underscores).',
        remediation: 'Name the policy in lowercase letters, digits and underscores, e.g. `confirm_before_changes`.',
      }),
      expect.objectContaining({ code: 'SOP003', ...keyOf(text, 'Refunds'), message: expect.stringContaining('`policies.Refunds`') }),
    ]);
  });
});

describe('names that match nothing', () => {
  it('a misspelt node, a pattern, an undeclared tool and an unused one are each reported at their line', () => {
    const { text, found } = desk(`
p:
  every_path_to: {nodes: [DO_REFUN, '*_REFUN', 'REFUND*'], tools: [refnd, spare]}
  passes: IS_OK`);
    const selector = "    every_path_to: {nodes: [DO_REFUN, '*_REFUN', 'REFUND*'], tools: [refnd, spare]}";
    const at = (name: string) => ({ line: position(text, selector).line, column: selector.indexOf(name) + 1 });
    expect(found).toEqual([
      expect.objectContaining({
        code: 'SOP054',
        ...at('DO_REFUN'),
        message: 'Policy `p`: `DO_REFUN` matches no node.',
        remediation: expect.stringContaining('`DO_REFUND`'),
      }),
      // A pattern matches whole ids: `*_REFUN` is not `CHK_REFUND`, nor `REFUND*` `DO_REFUND`.
      expect.objectContaining({ code: 'SOP054', ...at("'*_REFUN'"), message: 'Policy `p`: `*_REFUN` matches no node.' }),
      expect.objectContaining({ code: 'SOP054', ...at("'REFUND*'"), message: 'Policy `p`: `REFUND*` matches no node.' }),
      expect.objectContaining({
        code: 'SOP054',
        ...at('refnd'),
        message: 'Policy `p`: `refnd` is not a tool of this SOP.',
        remediation: expect.stringContaining('`refund`'),
      }),
      expect.objectContaining({ code: 'SOP054', ...at('spare'), message: 'Policy `p`: no node lists the tool `spare`.' }),
    ]);
    expect(found[1]!.remediation).not.toContain('Did you mean'); // no closest id for a pattern
  });

  it('a policy that guards no node is reported (it would hold vacuously); a confirmation needs tools', () => {
    const { text, found } = desk(`
nothing:
  every_path_to: {nodes: ['*_REFUND'], except: ['*_REFUND']}
  passes: IS_OK
confirm_refund:
  every_path_to: DO_REFUND
  passes: DO_REFUND
  confirmation: true`);
    expect(found).toEqual([
      expect.objectContaining({
        code: 'SOP054',
        line: keyOf(text, 'nothing').line + 1,
        message: 'Policy `nothing` guards no node: `every_path_to` selects none.',
      }),
      expect.objectContaining({
        code: 'SOP056',
        line: position(text, 'confirmation: true').line,
        column: position(text, 'confirmation: true').column + 'confirmation: '.length,
        message: expect.stringContaining('Policy `confirm_refund` asks for a confirmation but names no tools to confirm'),
      }),
    ]);
  });
});

describe('a graph at the node limit', () => {
  it('checks many policies over 500 nodes and reports each violation', () => {
    const size = LIMITS.flowchartNodes;
    const chain = Array.from({ length: size - 2 }, (_, i) => `N${i}`);
    const edges = [
      `START([Start]) --> N0["Step 0"]`,
      ...chain.slice(1).map((id, i) => `${chain[i]} --> ${id}["Step ${i + 1}"]`),
      ...chain.flatMap((id, i) => (i >= 7 && i % 7 === 0 ? [`${id} -.->|again| ${chain[i - 7]}`] : [])),
      `${chain.at(-1)} --> DONE([Done])`,
    ];
    // Every node past N<k> is reached only through it (the loops go back at most 7 nodes): "N<k+3> passes N<k>" holds,
    // "N<k> passes N<k+3>" does not, its counterexample the chain up to N<k>.
    const starts = Array.from({ length: 60 }, (_, i) => i * 8);
    const policies = starts.flatMap((k) => [
      `  holds_${k}:\n    every_path_to: [N${k + 3}, 'N${k + 3}*']\n    passes: N${k}`,
      `  fails_${k}:\n    every_path_to: {nodes: [N${k}], except: [START]}\n    passes: N${k + 3}`,
    ]);
    const text = [
      '---',
      'agent: big',
      'version: "1"',
      'tools: []',
      'policies:',
      ...policies,
      '---',
      '',
      '## Role',
      'Works.',
      '',
      '## SOP Flowchart',
      '```mermaid',
      'flowchart TD',
      ...edges.map((e) => `    ${e}`),
      '```',
      '',
      '## Node Prompts',
      '',
      '### N0',
      'Begin.',
      '',
    ].join('\n');
    const compiled = compileSop('sops/big.md', text);
    expect(compiled.model?.nodes).toHaveLength(size);
    const found = policyCodes(compiled.diagnostics);
    expect(found.map((d) => d.message.split(' ')[1])).toEqual(starts.map((k) => `\`fails_${k}\``));
    expect(found[1]).toMatchObject({
      ...keyOf(text, 'fails_8'),
      message: `Policy \`fails_8\` does not hold: N8 is reachable without passing N11: START → ${chain.slice(0, 9).join(' → ')}.`,
    });
    // A counterexample hundreds of nodes long keeps its start and its end, the guarded node.
    const last = found.at(-1)!;
    expect(last.message).toBe(
      'Policy `fails_472` does not hold: N472 is reachable without passing N475: START → N0 → N1 → N2 → N3 → N4 → N5 → N6 → N7 → ' +
        'N8 → N9 → N10 → … (450 more steps) … → N461 → N462 → N463 → N464 → N465 → N466 → N467 → N468 → N469 → N470 → N471 → N472.',
    );
  });
});

describe('findViolation, against a plain search over random graphs', () => {
  /** The reference: breadth-first from the entry through nodes not in `passes`; the nearest guarded node, its distance. */
  function reference(next: Map<string, string[]>, entry: string, guards: string[], passes: Set<string>) {
    if (passes.has(entry)) return null;
    const distance = new Map([[entry, 0]]);
    const queue = [entry];
    for (let head = 0; head < queue.length; head++) {
      const from = queue[head]!;
      for (const to of next.get(from) ?? []) {
        if (distance.has(to) || passes.has(to)) continue;
        distance.set(to, distance.get(from)! + 1);
        queue.push(to);
      }
    }
    const reached = guards.filter((g) => distance.has(g) && !passes.has(g));
    if (reached.length === 0) return null;
    return { nearest: Math.min(...reached.map((g) => distance.get(g)!)), reached: new Set(reached) };
  }

  it('finds a violation exactly when there is one, with a shortest counterexample that is a real path', () => {
    const rng = random(20261128);
    for (let round = 0; round < 400; round++) {
      const count = 2 + rng.below(40);
      const ids = Array.from({ length: count }, (_, i) => `N${i}`);
      const edges = new Map(ids.map((id) => [id, [] as string[]]));
      for (let e = rng.below(count * 3); e > 0; e--) {
        const from = rng.pick(ids);
        const to = rng.pick(ids);
        if (!edges.get(from)!.includes(to)) edges.get(from)!.push(to);
      }
      const graph = buildPolicyGraph(edges, []);
      const guards = ids.filter(() => rng.below(6) === 0);
      const passes = new Set(ids.filter(() => rng.below(5) === 0));
      const found = findViolation(graph, 'N0', guards, passes);
      const expected = reference(edges, 'N0', guards, passes);
      expect(found === null, `round ${round}`).toBe(expected === null);
      if (found === null || expected === null) continue;
      expect(found.path[0]).toBe('N0');
      expect(found.path.length - 1, `round ${round}: the counterexample is a shortest one`).toBe(expected.nearest);
      for (let i = 1; i < found.path.length; i++) expect(edges.get(found.path[i - 1]!)).toContain(found.path[i]);
      expect(found.path.some((id) => passes.has(id))).toBe(false);
      expect(new Set([found.path.at(-1)!, ...found.others])).toEqual(expected.reached);
    }
  });
});
