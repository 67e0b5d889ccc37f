/**
 * The preview's walk and view on the repository's SOPs: each answer is the runtime's own goto_node text, a move the
 * SOP refuses is shown refused and changes nothing, tokens are counted only with a counter; diagnostics are put on
 * the node they are about (its declaration, its prompt's yaml block, a tool it names), or on none.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sopDocument } from '../../../authoring/document/sop-document.js';
import { markProblems } from '../../../authoring/preview/diagram-marks.js';
import { previewView } from '../../../authoring/preview/preview-view.js';
import { playWalk } from '../../../authoring/preview/walk.js';
import { compileDocument } from '../../../generator/project/compile-document.js';
import { compiledAgentOf } from '../../../generator/project/compiled-agent.js';
import { prepareAgent } from '../../../contract/answers/prepared-agent.js';
import { EMPTY_RUN_STATE } from '../../../runtime/store/run-store.js';
import { gotoNode } from '../../../runtime/tools/goto-node.js';
import { PROJECT_ROOT } from '../../support/run-cli.js';
import { BASE_SOP } from '../../support/sop-text.js';

const retail = readFileSync(join(PROJECT_ROOT, 'sops', 'retail_customer_support.md'), 'utf8');

function agentOf(text: string) {
  const agent = compiledAgentOf(compileDocument('sops/x.md', text).compiled);
  if (!agent.ok) throw new Error('does not compile');
  return agent.sop;
}

describe('playWalk', () => {
  it("answers each move with the runtime's goto_node text, refuses an illegal one without moving, counts tokens when it can", () => {
    const sop = agentOf(retail);
    const walk = playWalk(sop, ['START', 'AUTH', 'DO_CANCEL', 'ROUTE'], (text) => text.length);
    expect(walk.entry).toBe('START');
    expect(walk.steps.map((s) => [s.move, s.valid])).toEqual([
      ['START', true],
      ['AUTH', true],
      ['DO_CANCEL', false],
      ['ROUTE', true],
    ]);
    expect(walk.steps[2]!.path).toEqual(['START', 'AUTH']); // the refusal changed nothing
    expect(JSON.parse(walk.steps[2]!.answer)).toMatchObject({ valid: false, current_node: 'AUTH' });
    const agent = prepareAgent(sop);
    const start = gotoNode(agent, EMPTY_RUN_STATE, { node_id: 'START' });
    expect(walk.steps[0]!.answer).toBe(start.text);
    expect(walk.steps[0]!.tokens).toBe(start.text!.length);
    expect(walk.next).toContain('CHK_CANCEL');
    expect(playWalk(sop, ['START'], null).steps[0]!.tokens).toBeNull();
  });
});

describe('previewView', () => {
  it('puts each diagnostic on the node it is about, marks those nodes on the diagram, and turns the walk off on errors', () => {
    const text = BASE_SOP.replace('```yaml\ntools: [lookup]', '```yaml\ntools: [lookup, fetch]\nmax_visits: 2').replace(
      '    ASK --> DONE([Done])',
      '    ASK --> DONE([Done])\n    LOST["Never reached"] --> DONE',
    );
    const build = compileDocument('sops/demo.md', text);
    const view = previewView(sopDocument('sops/demo.md', text, build), build.compiled.diagnostics, ['sops/demo.md']);
    expect(view.diagnostics.map((d) => [d.code, d.node])).toEqual([
      ['SOP041', 'LOST'],
      ['SOP040', 'ASK'],
      ['SOP051', 'ASK'],
    ]);
    expect(view.diagram).toContain('class ASK sop_error');
    expect(view.diagram).toContain('class LOST sop_warning');
    expect(view.walkProblem).toBe('The SOP has 1 error: fix it to walk it.');
    expect(view.nodes.map((n) => n.id)).toEqual(['START', 'ASK', 'DONE', 'LOST']);
  });

  it('leaves the diagram as written when nothing is wrong, and never writes an id that is not a node', () => {
    expect(markProblems('flowchart TD\n  A --> B', ['A', 'B'], new Map())).toBe('flowchart TD\n  A --> B');
    expect(markProblems('flowchart TD\n  A --> B', ['A', 'B'], new Map([['evil\nclick A call x()', 'error']]))).toBe(
      'flowchart TD\n  A --> B',
    );
  });
});
