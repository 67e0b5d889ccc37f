import { describe, expect, it } from 'vitest';
import { combinedHash, headerComment, shortHash, sourceGlob } from '../../../generator/emit/header.js';
import { camelCaseAgent, compareCodeUnits, pascalCaseAgent } from '../../../generator/emit/naming.js';
import { machineTransitions } from '../../../generator/emit/transitions.js';

describe('agent names', () => {
  it.each([
    ['retail_customer_support', 'retailCustomerSupport', 'RetailCustomerSupport'],
    ['x', 'x', 'X'],
    ['v2_agent', 'v2Agent', 'V2Agent'],
    ['agent_2', 'agent2', 'Agent2'],
    ['double__underscore_', 'doubleUnderscore', 'DoubleUnderscore'],
    ['default', 'default', 'Default'],
  ])('%s → %s / %s', (agent, camel, pascal) => {
    expect(camelCaseAgent(agent)).toBe(camel);
    expect(pascalCaseAgent(agent)).toBe(pascal);
  });

  it('sorts by code units, whatever the locale', () => {
    expect(['b', 'B', 'a_b', 'a', 'a0'].sort(compareCodeUnits)).toEqual(['B', 'a', 'a0', 'a_b', 'b']);
  });
});

describe('header', () => {
  const hash = `sha256:${'ab'.repeat(32)}`;

  it('names the source, a 12-hex hash, the tool and the command', () => {
    expect(headerComment('sops/x.md', hash)).toBe(
      '// @generated from sops/x.md (sha256:abababababab) by sop-toolkit. DO NOT EDIT. Regenerate: npm run build:sops',
    );
  });

  it('keeps a line break in a path out of the comment', () => {
    expect(headerComment('sops/a\nb.md', hash)).not.toContain('\n');
  });

  it('rejects a malformed hash', () => {
    expect(() => shortHash('abc')).toThrow(/sha256:<hex>/);
  });

  it('combines hashes independently of order, and notices any change', () => {
    const a = { agent: 'a', file: 'sops/a.md', sourceHash: hash };
    const b = { agent: 'b', file: 'sops/b.md', sourceHash: hash };
    expect(combinedHash([a, b])).toBe(combinedHash([b, a]));
    expect(combinedHash([a, { ...b, sourceHash: `sha256:${'cd'.repeat(32)}` }])).not.toBe(combinedHash([a, b]));
    expect(combinedHash([a])).not.toBe(combinedHash([a, b]));
    expect(combinedHash([a, b])).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('globs the common folder', () => {
    expect(sourceGlob(['sops/a.md', 'sops/b.md'])).toBe('sops/*.md');
    expect(sourceGlob(['sops/a.md', 'other/b.md'])).toBe('*.md');
    expect(sourceGlob([])).toBe('sops/*.md');
  });
});

describe('machine transitions', () => {
  it('merges edges to one target, keeping first-edge order and joining distinct conditions', () => {
    const transitions = machineTransitions([
      { to: 'B', condition: 'x', style: 'solid' },
      { to: 'A', condition: null, style: 'dotted' },
      { to: 'B', condition: 'y', style: 'solid' },
      { to: 'B', condition: 'x', style: 'solid' },
      { to: 'A', condition: 'back', style: 'dotted' },
      { to: 'C', condition: null, style: 'thick' },
      { to: 'C', condition: null, style: 'solid' },
    ]);
    expect(transitions).toEqual([
      { event: 'GOTO.B', target: 'B', description: 'x | y', style: null },
      { event: 'GOTO.A', target: 'A', description: 'back', style: 'dotted' },
      { event: 'GOTO.C', target: 'C', description: null, style: null },
    ]);
  });
});
