/**
 * The grammar of conditions (`generator/parse/conditions.ts`): every operator and every value form, exactness (no
 * value is converted), and each refusal with what was expected and where (offsets into the text); then the
 * conditions of `when` and `shows` in a SOP, both node-prompt forms, positioned in the file (the character that does
 * not parse when the value is written as it is, else the whole value); and input no SOP should hold (a condition of
 * 200,000 characters, garbage in `when`), which compiles to diagnostics in bounded time.
 */
import { describe, expect, it } from 'vitest';
import { compileSop } from '../../../generator/compile-sop.js';
import { parseCondition } from '../../../generator/parse/conditions.js';
import { BASE_SOP, withLine } from '../../support/sop-text.js';

const ok = (text: string, form: 'data' | 'answer' = 'data') => {
  const parsed = parseCondition(text, form);
  if (parsed.kind !== 'ok') throw new Error(`${text}: ${parsed.message}`);
  const { reference, op, values } = parsed.condition;
  return [reference.map((s) => s.name), op, values, parsed.condition.text];
};
const refused = (text: string, form: 'data' | 'answer' = 'data') => {
  const parsed = parseCondition(text, form);
  if (parsed.kind !== 'error') throw new Error(`${text} parsed`);
  return [parsed.message, text.slice(parsed.start, parsed.end)];
};

describe('parseCondition', () => {
  it.each([
    ['t.status == pending', [['t', 'status'], '==', ['pending']]],
    ['t.status != pending', [['t', 'status'], '!=', ['pending']]],
    ['t.status in [pending, processed]', [['t', 'status'], 'in', ['pending', 'processed']]],
    ['t.status not in [pending]', [['t', 'status'], 'not in', ['pending']]],
    ['t.status not   in[pending]', [['t', 'status'], 'not in', ['pending']]],
    ['t.total < 100', [['t', 'total'], '<', [100]]],
    ['t.total <= -1.5', [['t', 'total'], '<=', [-1.5]]],
    ['t.total > 1e3', [['t', 'total'], '>', [1000]]],
    ['t.total >= 0', [['t', 'total'], '>=', [0]]],
    ['t.status==pending', [['t', 'status'], '==', ['pending']]],
    ['t.status!=pending', [['t', 'status'], '!=', ['pending']]],
    ['t.payment_history.0.amount > 10', [['t', 'payment_history', '0', 'amount'], '>', [10]]],
  ])('%s', (text, [reference, op, values]) => {
    expect(ok(text).slice(0, 3)).toEqual([reference, op, values]);
  });

  it('reads every value form, and converts none', () => {
    expect(ok('t.s == "pending"')[2]).toEqual(['pending']);
    expect(ok('t.s == "a \\"quoted\\" \\u00e9"')[2]).toEqual(['a "quoted" é']);
    expect(ok("t.s == 'it is'")[2]).toEqual(['it is']);
    expect(ok('t.s == 12')[2]).toEqual([12]);
    expect(ok('t.s == "12"')[2]).toEqual(['12']);
    expect(ok('t.s == 007')[2]).toEqual(['007']); // JSON writes no such number: the text
    expect(ok('t.s == .5')[2]).toEqual(['.5']);
    expect(ok('t.s == true')[2]).toEqual([true]);
    expect(ok("t.s == 'true'")[2]).toEqual(['true']);
    expect(ok('t.s == false')[2]).toEqual([false]);
    expect(ok('t.s == null')[2]).toEqual([null]);
    expect(ok('t.s == True')[2]).toEqual(['True']);
    // Bare text runs to the end, trimmed, exactly as written.
    expect(ok('t.status == pending (item modified)  ')).toEqual([
      ['t', 'status'],
      '==',
      ['pending (item modified)'],
      't.status == pending (item modified)',
    ]);
    expect(ok('t.s in [pending (item modified), "a, b", \'c]\', 3, true, null]')[2]).toEqual([
      'pending (item modified)',
      'a, b',
      'c]',
      3,
      true,
      null,
    ]);
  });

  it('answer form: a bare field is `present`; the field needs no tool', () => {
    expect(ok('payment_history', 'answer')).toEqual([['payment_history'], 'present', [], 'payment_history']);
    expect(ok('  status == pending ', 'answer')).toEqual([['status'], '==', ['pending'], 'status == pending']);
  });

  it('says what was expected, where', () => {
    expect(refused('status == pending')).toEqual([
      'expected `TOOL.FIELD`: `status` names the field but not the tool whose answer is read (e.g. `get_order_details.status`)',
      'status',
    ]);
    expect(refused('t.status')).toEqual([
      'expected an operator (`==`, `!=`, `in`, `not in`, `<`, `<=`, `>`, `>=`) and a value after `t.status`, found the end of the condition',
      '',
    ]);
    expect(refused('t.status = x')).toEqual([
      'expected an operator (`==`, `!=`, `in`, `not in`, `<`, `<=`, `>`, `>=`) after `t.status`, found `=` (`=` is not one: write `==`)',
      '=',
    ]);
    expect(refused('t.status is pending')[1]).toBe('is');
    expect(refused('t.status ==')).toEqual(['expected a value after `==` (a text, a number, `true`, `false`, `null` or a list)', '']);
    expect(refused('t.status === x')).toEqual(['expected a value after `==`, found `=`: `===` is not an operator', '===']);
    expect(refused('== pending')).toEqual(['expected `TOOL.FIELD` (the tool whose answer is read, then its field), found `==`', '==']);
    expect(refused('t..status == x')).toEqual(['expected a field name after `.`', '.']);
    expect(refused('t.status. == x')[0]).toBe('expected a field name after `.`');
    expect(refused('t.items[0] == x')).toEqual(['a list item is a number segment: write `t.items.0`, not `t.items[…]`', '[']);
    expect(refused('t.s == "open')).toEqual(['the text opened with `"` is never closed', '"']);
    expect(refused("t.s == 'open")).toEqual(["the text opened with `'` is never closed", "'"]);
    expect(refused('t.s == "\\x"')[0]).toMatch(/^the text in double quotes is not a JSON string/);
    expect(refused('t.s == "a" b')).toEqual(['expected the end of the condition after the quoted text, found `b`', 'b']);
    expect(refused('t.s == 1e999')).toEqual(['the number `1e999` is too large', '1e999']);
  });

  it('refuses an operator the wrong kind of value', () => {
    expect(refused('t.s in pending')).toEqual(['`in` takes a list of values: write `in [a, b]` (for one value, `==`)', 'pending']);
    expect(refused('t.s not in pending')[0]).toBe('`not in` takes a list of values: write `not in [a, b]` (for one value, `!=`)');
    expect(refused('t.s == [a, b]')).toEqual([
      '`==` compares with one value, not a list (for one of several values, write `in [...]`)',
      '[a, b]',
    ]);
    expect(refused('t.s != [a]')[0]).toBe('`!=` compares with one value, not a list (for one of several values, write `not in [...]`)');
    for (const op of ['<', '<=', '>', '>=']) {
      expect(refused(`t.total ${op} "5"`)[0]).toBe(`\`${op}\` compares numbers: expected a number such as \`100\`, found the text \`5\``);
    }
    expect(refused('t.total < true')[0]).toBe('`<` compares numbers: expected a number such as `100`, found `true`');
  });

  it('refuses a malformed list', () => {
    expect(refused('t.s in []')).toEqual(['expected a value in the list: a list holds at least one', '[]']);
    expect(refused('t.s in [a,, b]')).toEqual(['expected a value before `,`', ',']);
    expect(refused('t.s in [a, ]')).toEqual(['expected a value after `,`', ']']);
    expect(refused('t.s in [a, [b]]')[0]).toBe('a list cannot hold a list: expected a text, a number, `true`, `false` or `null`');
    expect(refused('t.s in [a, b')).toEqual(['the list opened here is never closed: expected `]`', '[']);
    expect(refused('t.s in ["a" b]')).toEqual(['expected `,` or `]` after a value of the list, found `b]`', 'b]']);
    expect(refused('t.s in [a] b')).toEqual(['expected the end of the condition after the list, found `b`', 'b']);
  });

  it('is linear in the text: 200,000 characters of one kind or another parse or fail at once', () => {
    const started = performance.now();
    const long = 'x'.repeat(200_000);
    expect(parseCondition(`t.${long} == 1`, 'data').kind).toBe('ok');
    expect(parseCondition(`t.s == ${long}`, 'data').kind).toBe('ok');
    expect(parseCondition(`t.s in [${'a, '.repeat(60_000)}b]`, 'data').kind).toBe('ok');
    expect(parseCondition(`t.s in [${'['.repeat(100_000)}`, 'data').kind).toBe('error');
    expect(parseCondition(`t${'.'.repeat(100_000)}`, 'data').kind).toBe('error');
    expect(parseCondition(`t.s == "${'\\"'.repeat(100_000)}`, 'data').kind).toBe('error');
    const refusedLong = parseCondition(`${long} ${long}`, 'data');
    expect(refusedLong.kind === 'error' && refusedLong.message.length).toBeLessThan(400);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('conditions in a SOP', () => {
  /** BASE_SOP with ASK's yaml block replaced (line 21 onwards): ASK → DONE; ASK offers `lookup`. */
  const asked = (yaml: string) => withLine(21, `tools: [lookup]\n${yaml}`);
  const found = (text: string) =>
    compileSop('sops/demo.md', text).diagnostics.map((d) => [d.code, d.line, d.column, d.endLine, d.endColumn, d.message]);

  it('compiles `when` and `shows` of the heading form', () => {
    const { diagnostics, model } = compileSop(
      'sops/demo.md',
      asked('when:\n  DONE: lookup.status in [done, "closed"]\nevidence: { fresh: true, shows: [status == open, items.0] }'),
    );
    expect(diagnostics).toEqual([]);
    const ask = model!.prompts.find((p) => p.nodeId === 'ASK')!;
    expect(ask.when).toEqual([
      {
        target: 'DONE',
        span: { start: { line: 23, column: 3 }, end: { line: 23, column: 7 } },
        condition: {
          tool: { name: 'lookup', span: { start: { line: 23, column: 9 }, end: { line: 23, column: 15 } } },
          field: ['status'],
          op: 'in',
          values: ['done', 'closed'],
          text: 'lookup.status in [done, "closed"]',
          span: { start: { line: 23, column: 9 }, end: { line: 23, column: 42 } },
          fieldSpan: { start: { line: 23, column: 16 }, end: { line: 23, column: 22 } },
        },
      },
    ]);
    expect(ask.evidence).toMatchObject({
      fresh: true,
      shows: [
        { field: ['status'], op: '==', values: ['open'], text: 'status == open' },
        { field: ['items', '0'], op: 'present', values: [], text: 'items.0' },
      ],
    });
  });

  it('compiles the `node_prompts:` map form the same, with positions in its YAML', () => {
    const mapForm = BASE_SOP.replace(
      /### ASK[\s\S]*$/,
      '```yaml\nnode_prompts:\n  ASK:\n    tools: [lookup]\n    when:\n      DONE: "lookup.status == done"\n    prompt: Ask.\n```\n',
    );
    const { diagnostics, model } = compileSop('sops/demo.md', mapForm);
    expect(diagnostics).toEqual([]);
    const [entry] = model!.prompts.find((p) => p.nodeId === 'ASK')!.when;
    expect(entry).toMatchObject({
      target: 'DONE',
      span: { start: { line: 24, column: 7 } },
      condition: { tool: { name: 'lookup', span: { start: { line: 24, column: 14 }, end: { line: 24, column: 20 } } }, values: ['done'] },
    });
    expect(found(mapForm.replace('lookup.status == done', 'lookup.status == [done]'))).toEqual([
      [
        'SOP068',
        24,
        31,
        24,
        37,
        'The condition `lookup.status == [done]` does not parse: `==` compares with one value, not a list (for one of several values, write `in [...]`).',
      ],
    ]);
  });

  it('points at the whole value when its characters are not written as they are (escapes, folded lines)', () => {
    const escaped = found(asked('when:\n  DONE: "lookup.status \\u003d pending"'));
    expect(escaped).toEqual([
      [
        'SOP068',
        23,
        9,
        23,
        39,
        'The condition `lookup.status = pending` does not parse: expected an operator (`==`, `!=`, `in`, `not in`, `<`, `<=`, `>`, `>=`) after `lookup.status`, found `=` (`=` is not one: write `==`).',
      ],
    ]);
    const folded = found(asked('when:\n  DONE: lookup.status\n    = pending'));
    expect(folded.map((d) => d.slice(0, 5))).toEqual([['SOP068', 23, 9, 24, 14]]);
  });

  it('reads a tool named with dots as the longest frontmatter tool the reference starts with', () => {
    const dotted = withLine(
      4,
      'tools: [orders.get, orders]',
      withLine(21, 'tools: [orders.get]\nwhen:\n  DONE: orders.get.lines.0.sku == A-1'),
    );
    const { diagnostics, model } = compileSop('sops/demo.md', dotted);
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(model!.prompts.find((p) => p.nodeId === 'ASK')!.when[0]!.condition).toMatchObject({
      tool: { name: 'orders.get', span: { start: { line: 23, column: 9 }, end: { line: 23, column: 19 } } },
      field: ['lines', '0', 'sku'],
      values: ['A-1'],
    });
  });

  it('refuses what is not a condition, keeping the other entries', () => {
    expect(found(asked('when:\n  DONE: 5\n  START: [a]\nevidence: { shows: ["", {a: 1}, status ==] }'))).toEqual([
      ['SOP068', 23, 9, 23, 10, 'Expected a condition written as text, found `5`.'],
      ['SOP068', 24, 3, 24, 8, '`when` of `ASK` names `START`, which is not a successor of the node (its successors: DONE).'],
      ['SOP068', 24, 10, 24, 13, 'Expected a condition written as text, found a list.'],
      ['SOP068', 25, 21, 25, 23, 'Expected a condition written as text, found nothing.'],
      ['SOP068', 25, 25, 25, 31, 'Expected a condition written as text, found a map.'],
      [
        'SOP068',
        25,
        42,
        25,
        42,
        'The condition `status ==` does not parse: expected a value after `==` (a text, a number, `true`, `false`, `null` or a list).',
      ],
    ]);
    const errors = (text: string) => found(text).filter(([code]) => code !== 'SOP045');
    expect(errors(asked('when: [DONE]')).map((d) => d.slice(0, 3).concat(d[5]!))).toEqual([
      [
        'SOP022',
        22,
        7,
        'Node prompt key `when`: must be a map from a successor of the node to a condition, e.g. `COLLECT_CANCEL: get_order_details.status == pending`.',
      ],
    ]);
    expect(errors(asked('evidence: { shows: [] }')).map((d) => d[5])).toEqual([
      'Node prompt key `evidence.shows`: must list at least one condition, e.g. `status == pending`.',
    ]);
  });

  it('compiles garbage in `when` and a condition of 200,000 characters to diagnostics, quickly', () => {
    const started = performance.now();
    const garbage = asked(
      `when:\n  DONE: "${'[=<>!'.repeat(20_000)}"\n  ? [a, b]\n  : {c: d}\n  "": ~\n  NOPE: ${'lookup.'.repeat(20_000)}x == 1`,
    );
    const diagnostics = compileSop('sops/demo.md', garbage).diagnostics;
    expect(diagnostics.length).toBeGreaterThan(0);
    for (const d of diagnostics) expect(d.message.length).toBeLessThanOrEqual(1_000);
    const long = asked(`when:\n  DONE: lookup.status == ${'pending '.repeat(25_000)}`);
    const compiled = compileSop('sops/demo.md', long);
    expect(compiled.diagnostics).toEqual([]);
    expect(compiled.model!.prompts[0]!.when[0]!.condition!.values[0]).toHaveLength(25_000 * 8 - 1);
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});
