/** The compiler limits are documented as they are: docs/sop-format.md's table holds every value of generator/limits.ts. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../generator/limits.js';

describe('LIMITS', () => {
  it("are the values docs/sop-format.md's limits table gives", () => {
    const doc = readFileSync(new URL('../../docs/sop-format.md', import.meta.url), 'utf8');
    const table = doc.slice(doc.indexOf('## Compiler limits'), doc.indexOf('## Transitions'));
    for (const [name, value] of Object.entries(LIMITS)) expect(table, name).toContain(value.toLocaleString('en'));
  });
});
