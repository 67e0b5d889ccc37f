import { describe, expect, it } from 'vitest';
import { createCatalog } from '../../../runtime/agents/agent-catalog.js';
import { BUNDLE_FORMAT } from '../../../contract/compiled-sop.js';
import { FIXTURE_BUNDLE, SUPPORT_DESK, TINY_FLOW } from '../../fixtures/runtime/agents.js';

describe('agent catalog', () => {
  it('sorts entries by agent name and finds them by name or source file', () => {
    const catalog = createCatalog({ format: BUNDLE_FORMAT, agents: { tiny_flow: TINY_FLOW, support_desk: SUPPORT_DESK } });
    expect(catalog.entries.map((entry) => entry.meta.agent)).toEqual(['support_desk', 'tiny_flow']);
    expect(catalog.byName('tiny_flow')).toBe(TINY_FLOW);
    expect(catalog.bySourceFile('sops/support_desk.md')).toBe(SUPPORT_DESK);
    expect(catalog.byName('constructor')).toBeUndefined();
  });

  it('prepares an agent once, on first use', () => {
    const catalog = createCatalog(FIXTURE_BUNDLE);
    const first = catalog.prepared(SUPPORT_DESK);
    expect(catalog.prepared(SUPPORT_DESK)).toBe(first);
    expect(first.name).toBe('support_desk');
  });

  it('refuses an entry whose transition table disagrees with its edges', () => {
    const broken = { ...TINY_FLOW, transitions: { ...TINY_FLOW.transitions, successors: { BEGIN: ['DONE'], STEP: ['DONE'], DONE: [] } } };
    const catalog = createCatalog({ format: BUNDLE_FORMAT, agents: { tiny_flow: broken } });
    expect(() => catalog.prepared(broken)).toThrow('the transition table and the edges of BEGIN disagree');
  });
});
