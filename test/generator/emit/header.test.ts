import { describe, expect, it } from 'vitest';
import { headerComment, sourceGlob } from '../../../generator/emit/header.js';
import { machineTransitions } from '../../../generator/emit/transitions.js';

describe('header', () => {
  it('names the source, the tool and the command, and nothing that changes with the content', () => {
    expect(headerComment('sops/x.md')).toBe('// @generated from sops/x.md by sop-toolkit. DO NOT EDIT. Regenerate: npm run build:sops');
  });

  it('keeps a line break in a path out of the comment', () => {
    expect(headerComment('sops/a\nb.md')).not.toContain('\n');
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
