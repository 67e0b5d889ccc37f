import { describe, expect, it } from 'vitest';
import { createCatalog } from '../../../runtime/agents/agent-catalog.js';
import { BUNDLE_FORMAT } from '../../../contract/compiled-sop.js';
import { SUPPORT_DESK, TINY_FLOW } from '../../fixtures/runtime/agents.js';

describe('agent catalog', () => {
  it('sorts entries by agent name and finds them by name or source file', () => {
    const catalog = createCatalog({ format: BUNDLE_FORMAT, agents: { tiny_flow: TINY_FLOW, support_desk: SUPPORT_DESK } });
    expect(catalog.entries.map((entry) => entry.meta.agent)).toEqual(['support_desk', 'tiny_flow']);
    expect(catalog.byName('tiny_flow')).toBe(TINY_FLOW);
    expect(catalog.bySourceFile('sops/support_desk.md')).toBe(SUPPORT_DESK);
    expect(catalog.byName('constructor')).toBeUndefined();
  });
});
