/** `sop inspect FILE`: the compiled model of one SOP as JSON, diagnostics included. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BASE_SOP, withLine } from '../support/sop-text.js';
import { runCli } from '../support/run-cli.js';

describe('sop inspect', () => {
  it('prints what the compiler understood of the retail SOP', () => {
    const r = runCli(['inspect', 'sops/retail_customer_support.md']);
    expect(r.code, r.stderr).toBe(0);
    const view = JSON.parse(r.stdout);
    expect(view).toMatchObject({
      file: 'sops/retail_customer_support.md',
      agent: 'retail_customer_support',
      version: '1.0',
      entry_node: 'START',
      hubs: ['ROUTE'],
      prompt_form: 'headings',
      diagnostics: [],
    });
    expect(view.nodes[0]).toEqual({ id: 'START', type: 'stadium', description: 'User contacts Agent', line: expect.any(Number) });
    expect(view.edges).toContainEqual({
      from: 'IS_PENDING_C',
      to: 'DENY_CANCEL',
      condition: 'no',
      style: 'solid',
      line: expect.any(Number),
    });
    expect(view.decision_nodes).toHaveLength(7);
    expect(view.terminal_nodes).toHaveLength(12);
    expect(view.prompts.AUTH.tools).toEqual(['find_user_id_by_email', 'find_user_id_by_name_zip']);
    expect(view.system_prompt_sections).toEqual(['Role', 'Global Rules', 'Domain Reference', 'How to Use the SOP Graph', 'SOP Flowchart']);
    expect(view.system_prompt).toMatch(/^## Role\n/);
  });

  it('exits 1 with the diagnostics for a broken file, and 2 for a missing one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sop-inspect-'));
    try {
      writeFileSync(join(dir, 'x.md'), withLine(19, '### ASKK', BASE_SOP));
      const r = runCli(['inspect', 'x.md'], dir);
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout).diagnostics).toMatchObject([{ code: 'SOP020', line: 19, column: 1, file: 'x.md' }]);
      expect(runCli(['inspect', 'missing.md'], dir).code).toBe(2);
      expect(runCli(['inspect'], dir).code).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
