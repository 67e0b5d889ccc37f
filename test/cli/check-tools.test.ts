/**
 * `sop build --check-tools` against real domain servers (the example retail server over stdio, started as the SOP
 * names it): the repository's retail SOP passes; a misspelt tool, an evidence `about` that no evidence tool names,
 * a tool two servers offer, an unset variable and a server that cannot be reached are SOP067, each at the author's
 * text, with the exit code of an error. Without the flag nothing is reached.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RETAIL_MAIN } from '../examples/retail-tools/retail-process.js';
import { PROJECT_ROOT, runCli } from '../support/run-cli.js';

const app = mkdtempSync(join(tmpdir(), 'sop-check-tools-'));
afterAll(() => rmSync(app, { recursive: true, force: true }));

function sop(frontmatter: string, checkNode: string): string {
  return [
    '---',
    'agent: shop',
    'version: "1"',
    frontmatter,
    '---',
    '',
    '## Role',
    'Helps.',
    '',
    '## SOP Flowchart',
    '```mermaid',
    'flowchart TD',
    '    START([Start]) --> CHECK["Check the order"]',
    '    CHECK --> DONE([Done])',
    '```',
    '',
    '## Node Prompts',
    '',
    '### CHECK',
    '```yaml',
    checkNode,
    '```',
    'Read the order.',
    '',
  ].join('\n');
}

describe('sop build --check-tools', () => {
  it("passes the repository's SOP that names the example retail server", () => {
    const result = runCli(['build', '--check', '--check-tools', '--sops', 'sops', '--format', 'json'], PROJECT_ROOT);
    const json = JSON.parse(result.stdout) as { details: { code: string; file: string }[] };
    // The helpdesk SOP names a server on the internet, which this machine cannot reach; the retail SOP is clean.
    expect(json.details.filter((d) => d.file === 'sops/retail_customer_support.md')).toEqual([]);
    expect(json.details.filter((d) => d.file === 'sops/it_helpdesk_password_reset.md').map((d) => d.code)).toEqual(['SOP067']);
  });

  it('reports each problem at its own line, and fails', () => {
    mkdirSync(join(app, 'sops'), { recursive: true });
    writeFileSync(join(app, 'package.json'), '{"name":"app","private":true}\n');
    const server = `command: node\n    args: [${JSON.stringify(RETAIL_MAIN)}]`;
    writeFileSync(
      join(app, 'sops', 'shop.md'),
      sop(
        [
          'mcp_servers:',
          `  - name: retail\n    ${server}`,
          `  - name: retail-copy\n    ${server}`,
          '  - name: gone\n    url: "${SHOP_URL_NOT_SET}/mcp"',
          'tools: [get_order_detail, get_order_details]',
        ].join('\n'),
        'tools: [get_order_details]\nevidence: { about: order_number }',
      ),
    );
    const result = runCli(['build', '--check-tools'], app);
    expect(result.code, result.stdout + result.stderr).toBe(1);
    const found = result.stdout.split('\n').filter((line) => line.includes(' SOP067 '));
    expect(found).toEqual([
      'sops/shop.md:8:11 error SOP067 Servers `retail` and `retail-copy` both offer `find_user_id_by_email`, `find_user_id_by_name_zip`, ' +
        '`get_user_details`, `get_order_details`, `get_product_details` and 10 more: a call could not say which one it means.',
      'sops/shop.md:11:11 error SOP067 Cannot reach server gone: url: the environment variable SHOP_URL_NOT_SET is not set.',
    ]);
    // Names the servers do not offer are judged only when every server was reached.
    expect(found.filter((line) => line.includes('get_order_detail`'))).toEqual([]);
  });

  it('finds a misspelt tool and an evidence argument no evidence tool names, with what was meant', () => {
    writeFileSync(
      join(app, 'sops', 'shop.md'),
      sop(
        `mcp_servers:\n  - name: retail\n    command: node\n    args: [${JSON.stringify(RETAIL_MAIN)}]\ntools: [get_order_detail, get_order_details]`,
        'tools: [get_order_details]\nevidence: { about: order_number }',
      ),
    );
    const result = runCli(['build', '--check-tools'], app);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'sops/shop.md:8:9 error SOP067 The tool `get_order_detail` is not offered: none of its servers (retail) offers it.',
    );
    expect(result.stdout).toContain('help: Did you mean `get_order_details`?');
    expect(result.stdout).toMatch(
      /sops\/shop\.md:\d+:\d+ error SOP067 `CHECK`'s evidence is about `order_number`, but `get_order_details` neither takes nor answers `order_number`/,
    );
  });

  it("checks the fields conditions read against the tools' output schemas: a field no answer has, a value no answer has", () => {
    const text = [
      '---',
      'agent: shop',
      'version: "1"',
      `mcp_servers:\n  - name: retail\n    command: node\n    args: [${JSON.stringify(RETAIL_MAIN)}]`,
      'tools: [get_order_details, calculate]',
      '---',
      '',
      '## SOP Flowchart',
      '```mermaid',
      'flowchart TD',
      '    START([Start]) --> CHECK["Read the order"]',
      '    CHECK --> IS{Pending?}',
      '    IS -->|a| A([A])',
      '    IS -->|b| B([B])',
      '    IS -->|c| C([C])',
      '    IS -->|d| D([D])',
      '    IS -->|e| E([E])',
      '```',
      '',
      '## Node Prompts',
      '',
      '### CHECK',
      '```yaml',
      'tools: [get_order_details, calculate]',
      'evidence:',
      '  tools: [get_order_details]',
      '  shows: [status != cancelled, payment_history.0.amount, adress.city]',
      '```',
      'Read it.',
      '',
      '### IS',
      '```yaml',
      'when:',
      '  A: get_order_details.stauts == pending',
      '  B: get_order_details.status in [pending, pendng]',
      '  C: get_order_details.items.0.options.color == red',
      '  D: get_order_details.items.0.pricee > 10',
      '  E: calculate.result > 10',
      '```',
      '',
    ].join('\n');
    mkdirSync(join(app, 'sops'), { recursive: true });
    writeFileSync(join(app, 'package.json'), '{"name":"app","private":true}\n');
    writeFileSync(join(app, 'sops', 'shop.md'), text);
    const result = runCli(['build', '--check-tools'], app);
    expect(result.code, result.stdout + result.stderr).toBe(1);
    const found = result.stdout.split('\n').filter((line) => line.includes(' SOP067 '));
    expect(found).toEqual([
      "sops/shop.md:30:58 error SOP067 `CHECK`'s condition `adress.city` reads `adress`, which no answer of `get_order_details` can have: " +
        'its output schema has the fields `order_id`, `user_id`, `address`, `items`, `status`, `fulfillments`, `payment_history`, ' +
        '`cancel_reason`, `exchange_items`, `exchange_new_items`, `exchange_payment_method_id`, `exchange_price_difference`, ' +
        '`return_items`, `return_payment_method_id`, `error` there.',
      "sops/shop.md:37:24 error SOP067 `IS`'s condition `get_order_details.stauts == pending` reads `stauts`, which no answer of " +
        '`get_order_details` can have: its output schema has the fields `order_id`, `user_id`, `address`, `items`, `status`, ' +
        '`fulfillments`, `payment_history`, `cancel_reason`, `exchange_items`, `exchange_new_items`, `exchange_payment_method_id`, ' +
        '`exchange_price_difference`, `return_items`, `return_payment_method_id`, `error` there.',
      'sops/shop.md:38:6 error SOP067 `IS`\'s condition `get_order_details.status in [pending, pendng]` compares `status` with `"pendng"`, ' +
        'which the output schema of `get_order_details` does not allow there (its values: `"pending"`, `"pending (item modified)"`, ' +
        '`"processed"`, `"delivered"`, `"cancelled"`, `"exchange requested"`, `"return requested"`).',
      "sops/shop.md:40:24 error SOP067 `IS`'s condition `get_order_details.items.0.pricee > 10` reads `items.0.pricee`, which no answer " +
        'of `get_order_details` can have: its output schema has the fields `name`, `product_id`, `item_id`, `price`, `options` there.',
      "sops/shop.md:41:16 error SOP067 `IS`'s condition `calculate.result > 10` reads `result`, which no answer of `calculate` can have: " +
        'its output schema (its answer read through the `result` wrapper) has the fields `error` there.',
    ]);
    const help = result.stdout.split('\n').filter((line) => line.trim().startsWith('help:'));
    expect(help).toEqual(
      expect.arrayContaining([
        expect.stringContaining('Did you mean `address`?'),
        expect.stringContaining('Did you mean `status`?'),
        expect.stringContaining('Did you mean `pending`?'),
        expect.stringContaining('Did you mean `price`?'),
      ]),
    );
  });

  it('reaches nothing without the flag', () => {
    const result = runCli(['build'], app);
    expect(result.stdout).not.toContain('SOP067');
  });
});
