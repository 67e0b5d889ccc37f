/**
 * Quick fixes over every diagnostic code: the registry's codes each listed here with the fix their remediation offers,
 * or why it has none; then every case of the diagnostic catalog (and a few more, so each fixable code is shown fixed),
 * compiled as an editor holds it, asked for its code actions at the diagnostic: a remediation that names a replacement
 * ("Did you mean `ROUTE`?") gives a fix, and the fixed text compiles without that diagnostic; one that names none gives
 * no fix. The checks across files (SOP072, SOP074) are fixed from the project's diagnostics the server passes in.
 */
import { describe, expect, it } from 'vitest';
import type { TextEdit } from 'vscode-languageserver';
import { codeActionsFor, replacementOf } from '../../../authoring/lsp/code-actions.js';
import { sopDocument } from '../../../authoring/document/sop-document.js';
import { compositionDiagnostics } from '../../../generator/project/composition-diagnostics.js';
import { compileDocument } from '../../../generator/project/compile-document.js';
import { compileSop } from '../../../generator/compile-sop.js';
import { DIAGNOSTIC_CODES, type DiagnosticCode } from '../../../generator/diagnostics/codes.js';
import type { Diagnostic } from '../../../generator/diagnostics/diagnostic.js';
import { DIAGNOSTIC_CASES, type DiagnosticCase } from '../../support/diagnostic-cases.js';
import { applyEdits } from '../../support/lsp-client.js';
import { BASE_SOP, insertBefore, withLine } from '../../support/sop-text.js';

const REPLACES = 'replaces the name written with the one the remediation names';

/** Every code of the registry: the quick fix it has, or why it has none. */
const QUICK_FIXES: Readonly<Record<DiagnosticCode, string>> = {
  SOP001: 'none: no name to replace (the frontmatter is missing)',
  SOP002: 'none: a YAML syntax error has no one replacement',
  SOP003: 'none: the value has the wrong type; no name to replace',
  SOP004: REPLACES,
  SOP010: 'none: a missing section',
  SOP011: 'none: a missing block',
  SOP012: REPLACES,
  SOP013: 'none: the comment moves to its own line (no replacement named)',
  SOP014: 'none: unsupported syntax',
  SOP015: 'none: which declaration is meant is the author’s choice',
  SOP016: 'none: a missing section',
  SOP017: 'none: which node inside the group is meant is the author’s choice',
  SOP018: 'none: the shape to draw instead is the author’s choice',
  SOP019: REPLACES,
  SOP020: REPLACES,
  SOP021: 'none: two sections to merge',
  SOP022: 'none: a YAML error or a wrong type',
  SOP023: REPLACES,
  SOP024: 'none: one form to rewrite into the other',
  SOP025: 'none: prompts to write',
  SOP026: REPLACES,
  SOP030: REPLACES,
  SOP031: REPLACES,
  SOP032: 'none: which agent to rename, and to what, is the author’s choice',
  SOP033: 'none: which agent to rename, and to what, is the author’s choice',
  SOP034: 'none: the new id is the author’s choice (rename it with the language server)',
  SOP040: `${REPLACES}; or adds the tool to the frontmatter's \`tools\``,
  SOP041: 'none: an edge to add',
  SOP042: 'none: an edge to add',
  SOP043: 'none: a branch to add',
  SOP044: 'none: a condition to write',
  SOP045: 'none: a tool to use or remove',
  SOP046: REPLACES,
  SOP047: 'none: a prompt to write, or a shape to choose',
  SOP048: REPLACES,
  SOP050: REPLACES,
  SOP051: 'none: an escalation node to choose',
  SOP052: 'none: a visit limit to move',
  SOP053: 'none: a limit to add or a key to remove',
  SOP054: REPLACES,
  SOP055: 'none: the flowchart or the policy to change',
  SOP056: 'none: a regular expression to correct',
  SOP057: 'none: text to shorten',
  SOP058: 'none: a package to install',
  SOP060: 'none: a server entry to complete',
  SOP061: 'none: a name to choose',
  SOP062: 'none: a secret to move to the environment',
  SOP063: 'none: a reference to correct',
  SOP064: REPLACES,
  SOP065: 'none: evidence to move',
  SOP066: 'none: evidence to add',
  SOP067: 'none in the editor: `sop build --check-tools` reaches the servers, the language server does not',
  SOP068: REPLACES,
  SOP069: REPLACES,
  SOP070: 'none: a shape to change (the label stays)',
  SOP071: 'none: keys to move',
  SOP072: REPLACES,
  SOP073: 'none: a cycle to break',
  SOP074: REPLACES,
  SOP075: 'none: an edge to label or remove',
  SOP076: 'none: a call to simplify',
  SOP077: REPLACES,
  SOP078: 'none: branches to reshape',
  SOP079: 'none: an edge to add',
  SOP080: REPLACES,
  SOP090: 'none: a bug of the compiler',
  SOP091: 'none: more to fix',
  SOP092: 'none: a limit',
};

/** Cases beyond the catalog's, so that every code with a fix is shown fixed. */
const MORE_CASES: Readonly<Record<string, Omit<DiagnosticCase, 'line' | 'column'>>> = {
  'a misspelt frontmatter key': { code: 'SOP004', given: insertBefore(5, 'descripton: x') },
  'a misspelt shape': { code: 'SOP012', given: withLine(14, '    ASK --> DONE@{ shape: stadum, label: "Done" }') },
  'a misspelt shape data key': { code: 'SOP019', given: withLine(14, '    ASK --> DONE@{ shape: stadium, lable: "Done" }') },
  'a misspelt node yaml key': { code: 'SOP023', given: withLine(21, 'tols: [lookup]\ntools: [lookup]') },
  'a misspelt entry node': { code: 'SOP030', given: insertBefore(5, 'entry_node: STRAT') },
  'a misspelt hub': { code: 'SOP031', given: insertBefore(5, 'hubs: [AKS]') },
  'a misspelt node tool': { code: 'SOP040', given: withLine(21, 'tools: [lokup]') },
  'a misspelt escalation node': {
    code: 'SOP050',
    given: withLine(21, 'tools: [lookup]\nmax_visits: 2\nescalate_to: DOEN'),
  },
  'a misspelt node in a policy': { code: 'SOP054', given: insertBefore(5, 'policies:\n  p:\n    every_path_to: DONE\n    passes: AKS') },
  'a misspelt evidence tool': { code: 'SOP064', given: withLine(21, 'tools: [lookup]\nevidence: [lokup]') },
  'a misspelt `when` successor': {
    code: 'SOP068',
    given: withLine(21, 'tools: [lookup]\nwhen:\n  DOEN: lookup.found == true'),
  },
  'a misspelt fork join': {
    code: 'SOP077',
    given: withLine(21, 'tools: [lookup]\nfork: DOEN'),
  },
  'a `when` over a tool never read, beside a close one that is': {
    code: 'SOP069',
    given: insertBefore(
      19,
      '### START\n```yaml\ntools: [lookups]\n```\nGreet.\n',
      withLine(4, 'tools: [lookup, lookups]', withLine(21, 'when:\n  DONE: lookup.status == done')),
    ),
  },
  'a rename to a misspelt node': { code: 'SOP080', given: insertBefore(5, 'renames: {OLD: DOEN}') },
  'a mention of a renamed node': {
    code: 'SOP048',
    given: insertBefore(5, 'renames: {ASKING: ASK}', withLine(23, 'Ask the question, then go to ASKING.')),
  },
};

/** The case's diagnostic, its code actions, and the text with the first one applied. */
function actionsOf(text: string, diagnostic: Diagnostic, diagnostics?: readonly Diagnostic[]) {
  const document = sopDocument('sops/demo.md', text, compileDocument('sops/demo.md', text));
  const at = { line: diagnostic.line - 1, character: diagnostic.column - 1 };
  const actions = codeActionsFor(document, { start: at, end: at }, 'file:///demo.md', null, diagnostics).filter(
    (a) => a.diagnostics?.[0]?.code === diagnostic.code && a.diagnostics[0].range.start.line === at.line,
  );
  const edits = (actions[0]?.edit?.changes?.['file:///demo.md'] ?? []) as TextEdit[];
  return { actions, fixed: applyEdits(text, edits) };
}

const sameSite = (a: Diagnostic, b: Diagnostic) => a.code === b.code && a.line === b.line && a.column === b.column;

describe('quick fixes', () => {
  it('lists every code of the registry, with its fix or why it has none', () => {
    expect(Object.keys(QUICK_FIXES).sort()).toEqual(Object.keys(DIAGNOSTIC_CODES).sort());
  });

  const fixedCodes = new Set<string>();
  const all = [
    ...Object.entries(DIAGNOSTIC_CASES).map(([name, c]) => [name, c.code, c.given] as const),
    ...Object.entries(MORE_CASES).map(([name, c]) => [name, c.code, c.given] as const),
  ];
  for (const [name, code, given] of all) {
    it(`${code}: ${name}`, () => {
      const diagnostics = compileSop('sops/demo.md', given).diagnostics;
      const diagnostic = diagnostics.find((d) => d.code === code);
      expect(diagnostic, JSON.stringify(diagnostics, null, 2)).toBeDefined();
      const { actions, fixed } = actionsOf(given, diagnostic!);
      const names = replacementOf(diagnostic!.remediation) !== null;
      const adds = code === 'SOP040';
      expect(actions.length > 0, `${diagnostic!.remediation}: ${JSON.stringify(actions)}`).toBe(names || adds);
      if (actions.length === 0) return;
      fixedCodes.add(code);
      expect(QUICK_FIXES[code]).not.toMatch(/^none/);
      const after = compileSop('sops/demo.md', fixed).diagnostics;
      expect(
        after.some((d) => sameSite(d, diagnostic!) && d.message === diagnostic!.message),
        fixed,
      ).toBe(false);
      if (names) expect(actions[0]!.title).toMatch(/^Change `[^`]+` to `[^`]+`$/);
    });
  }

  describe('across files: from the diagnostics of the project check', () => {
    const CALLER = [
      '---',
      'agent: caller',
      'version: "1.0"',
      'tools: []',
      '---',
      '',
      '## SOP Flowchart',
      '```mermaid',
      'flowchart TD',
      '    START([Start]) --> CALL[[Call it]]',
      '    CALL -->|done| END([End])',
      '```',
      '',
      '## Node Prompts',
      '',
      '### CALL',
      '```yaml',
      'subflow: calee',
      'exits: {DONEE: END}',
      '```',
      '',
    ].join('\n');
    const CALLEE = BASE_SOP.replace('agent: demo', 'agent: callee');

    it('SOP072 and SOP074: the agent and the terminal named', () => {
      for (const [code, text] of [
        ['SOP072', CALLER],
        ['SOP074', CALLER.replace('subflow: calee', 'subflow: callee')],
      ] as const) {
        const diagnostics = compositionDiagnostics([compileSop('sops/demo.md', text), compileSop('sops/callee.md', CALLEE)]);
        const diagnostic = diagnostics.find((d) => d.code === code && replacementOf(d.remediation) !== null)!;
        expect(diagnostic, JSON.stringify(diagnostics)).toBeDefined();
        const { actions, fixed } = actionsOf(text, diagnostic, diagnostics);
        expect(actions.length, code).toBe(1);
        fixedCodes.add(code);
        const after = compositionDiagnostics([compileSop('sops/demo.md', fixed), compileSop('sops/callee.md', CALLEE)]);
        expect(
          after.filter((d) => sameSite(d, diagnostic)),
          fixed,
        ).toEqual([]);
      }
    });
  });

  it('has shown every code with a fix fixed', () => {
    const promised = Object.entries(QUICK_FIXES)
      .filter(([, fix]) => !fix.startsWith('none'))
      .map(([code]) => code);
    expect(promised.filter((code) => !fixedCodes.has(code))).toEqual([]);
  });
});
