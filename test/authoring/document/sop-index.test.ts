/**
 * The index of names, from the compiler's results: every place a node id is written, narrowed to the id itself
 * (inside quotes, inside a `### ` heading), patterns left out; and, in a file too broken to model, what the parse
 * still has (the flowchart's occurrences, the prompt headings).
 */
import { describe, expect, it } from 'vitest';
import { sopDocument } from '../../../authoring/document/sop-document.js';
import { compileDocument } from '../../../generator/project/compile-document.js';
import { BASE_SOP } from '../../support/sop-text.js';

const docOf = (text: string) => sopDocument('sops/demo.md', text, compileDocument('sops/demo.md', text));
const written = (text: string, id: string) => {
  const doc = docOf(text);
  return (doc.index().nodes.get(id) ?? []).map((s) => [s.kind, doc.lines.textOf(s.span), s.span.start.line]);
};

describe('indexSop', () => {
  it('finds every place a node id is written, each span exactly the id', () => {
    const text = BASE_SOP.replace(
      'tools: [lookup]\n---',
      'tools: [lookup]\nhubs: ["ASK"]\npolicies:\n  asked:\n    every_path_to: DONE\n    passes: [ASK, A*]\n---',
    );
    expect(written(text, 'ASK')).toEqual([
      ['declaration', 'ASK', 18],
      ['hub', 'ASK', 5],
      ['policy', 'ASK', 9],
      ['flowchart', 'ASK', 19],
      ['prompt', 'ASK', 24],
    ]);
  });

  it('still indexes the flowchart and the prompts of a file whose frontmatter does not parse', () => {
    const text = BASE_SOP.replace('version: "1.0"', 'version: [1');
    const doc = docOf(text);
    expect(doc.build.compiled.model).toBeNull();
    expect([...doc.index().nodes.keys()]).toEqual(['START', 'ASK', 'DONE']);
    expect(written(text, 'ASK').map(([kind]) => kind)).toEqual(['declaration', 'flowchart', 'prompt']);
    expect(doc.index().siteAt({ line: 19, column: 5 })).toMatchObject({ name: 'ASK', kind: 'prompt' });
  });

  it('indexes a `when` key as its node, and the tool a condition reads as the tool, each span exactly the name', () => {
    const text = BASE_SOP.replace(
      '```yaml\ntools: [lookup]\n```',
      '```yaml\ntools: [lookup]\nevidence: { tools: [lookup] }\nwhen:\n  DONE: lookup.status == done\n  "ASK": \'lookup.x in [1]\'\n```',
    );
    expect(written(text, 'DONE').map(([kind, name, line]) => [kind, name, line])).toEqual([
      ['declaration', 'DONE', 14],
      ['when', 'DONE', 24],
    ]);
    expect(written(text, 'ASK').filter(([kind]) => kind === 'when')).toEqual([['when', 'ASK', 25]]);
    const doc = docOf(text);
    const tools = (doc.index().tools.get('lookup') ?? []).map((s) => [s.kind, doc.lines.textOf(s.span), s.span.start.line, s.owner]);
    expect(tools).toEqual([
      ['tool_declaration', 'lookup', 4, undefined],
      ['node_tools', 'lookup', 21, 'ASK'],
      ['evidence', 'lookup', 22, 'ASK'],
      ['condition', 'lookup', 24, 'ASK'],
      ['condition', 'lookup', 25, 'ASK'],
    ]);
    expect(doc.index().siteAt({ line: 24, column: 10 })).toMatchObject({ name: 'lookup', kind: 'condition' });
    expect(doc.index().siteAt({ line: 24, column: 4 })).toMatchObject({ name: 'DONE', kind: 'when', owner: 'ASK' });
  });

  it('leaves out a tool whose characters in a condition are not written as they are (an escape, a folded line)', () => {
    const text = BASE_SOP.replace(
      '```yaml\ntools: [lookup]\n```',
      '```yaml\ntools: [lookup]\nwhen:\n  DONE: "look\\u0075p.status == done"\n  ASK: >-\n    lookup.status\n    == done\n```',
    );
    const doc = docOf(text);
    expect(doc.build.compiled.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code)).toEqual(['SOP068']); // ASK is no successor
    expect((doc.index().tools.get('lookup') ?? []).map((s) => s.kind)).toEqual(['tool_declaration', 'node_tools']);
    expect(written(text, 'DONE').map(([kind]) => kind)).toEqual(['declaration', 'when']);
  });
});
