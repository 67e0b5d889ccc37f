/**
 * Reading a field path through a published output schema (`cli/schema-fields.ts`), as `sop build --check-tools`
 * does for conditions: object properties, `anyOf` / `oneOf` / `allOf`, `$ref` within the schema, `items` and
 * `prefixItems` for number segments, maps (`additionalProperties` as a schema), a `result` wrapper, the values an
 * `enum` or `const` allows; whatever the schema does not say counts as possible; a schema made to be expensive stops
 * being read, not the build.
 */
import { describe, expect, it } from 'vitest';
import { fieldVerdict } from '../../cli/schema-fields.js';

const ORDER = {
  $defs: {
    Item: { type: 'object', properties: { sku: { type: 'string' }, price: { type: 'number' } }, additionalProperties: false },
  },
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['pending', 'delivered'] },
    items: { type: 'array', items: { $ref: '#/$defs/Item' } },
    pair: { type: 'array', prefixItems: [{ type: 'string' }, { $ref: '#/$defs/Item' }], items: false },
    options: { type: 'object', additionalProperties: { type: 'string' } },
    kind: { oneOf: [{ const: 'a' }, { const: 'b' }] },
    anything: {},
  },
  additionalProperties: false,
};

const missing = (schema: unknown, path: string, values: (string | number | null)[] = []) => {
  const verdict = fieldVerdict(schema, path.split('.'), values);
  return verdict.kind === 'missing' ? [verdict.index, verdict.fields, verdict.wrapped] : 'possible';
};

describe('fieldVerdict', () => {
  it('follows properties, $ref, items and prefixItems, maps and unions', () => {
    for (const path of ['status', 'items.0.sku', 'items.12.price', 'pair.0', 'pair.1.sku', 'options.color', 'kind', 'anything.x.y']) {
      expect(missing(ORDER, path), path).toBe('possible');
    }
    expect(missing(ORDER, 'stauts')).toEqual([0, ['status', 'items', 'pair', 'options', 'kind', 'anything'], false]);
    expect(missing(ORDER, 'items.0.skus')).toEqual([2, ['sku', 'price'], false]);
    expect(missing(ORDER, 'items.first')).toEqual([1, [], false]);
    expect(missing(ORDER, 'pair.2')).toEqual([1, [], false]);
    expect(missing(ORDER, 'status.x')).toEqual([1, [], false]);
  });

  it('reads a field possible when some branch has it, and names the fields of all branches', () => {
    const answerOrError = { anyOf: [ORDER, { type: 'object', properties: { error: { type: 'string' } }, additionalProperties: false }] };
    expect(missing(answerOrError, 'error')).toBe('possible');
    expect(missing(answerOrError, 'items.0.sku')).toBe('possible');
    expect(missing(answerOrError, 'eror')).toEqual([0, ['status', 'items', 'pair', 'options', 'kind', 'anything', 'error'], false]);
    const all = {
      allOf: [{ properties: { a: { type: 'string' } }, additionalProperties: false }, { properties: { b: { type: 'number' } } }],
    };
    expect(missing(all, 'b')).toBe('possible');
  });

  it('reads through a `result` wrapper, as the answer is read', () => {
    const wrapped = { type: 'object', properties: { result: ORDER }, required: ['result'] };
    expect(missing(wrapped, 'status')).toBe('possible');
    expect(missing(wrapped, 'result')).toEqual([0, ['status', 'items', 'pair', 'options', 'kind', 'anything'], true]);
    // Text in the wrapper may hold JSON: nothing can be said.
    expect(missing({ properties: { result: { type: 'string' } } }, 'anything')).toBe('possible');
  });

  it('names the values an enum or const does not allow', () => {
    expect(fieldVerdict(ORDER, ['status'], ['pending', 'pendng', 3])).toEqual({
      kind: 'possible',
      impossibleValues: ['pendng', 3],
      allowed: ['pending', 'delivered'],
    });
    expect(fieldVerdict(ORDER, ['kind'], ['b'])).toMatchObject({ impossibleValues: [] });
    expect(fieldVerdict(ORDER, ['kind'], ['c'])).toMatchObject({ impossibleValues: ['c'], allowed: ['a', 'b'] });
    expect(fieldVerdict(ORDER, ['items', '0', 'sku'], ['x'])).toMatchObject({ impossibleValues: [] });
  });

  it('counts as possible what the schema does not say', () => {
    for (const schema of [undefined, true, {}, { type: 'object' }, { type: 'object', additionalProperties: true, properties: {} }]) {
      expect(missing(schema, 'a.b'), JSON.stringify(schema)).toBe('possible');
    }
    expect(missing({ type: 'object', properties: { a: {} }, patternProperties: { '^x': {} } }, 'xy')).toBe('possible');
    expect(missing({ $ref: 'https://example.com/order.json' }, 'status')).toBe('possible');
    expect(missing({ $ref: '#/$defs/Nope' }, 'status')).toBe('possible');
    expect(missing({ type: 'array' }, '0.a')).toBe('possible');
  });

  it('stops reading a schema of references to itself or of unions within unions, and decides at once', () => {
    const loop = { $defs: { A: { $ref: '#/$defs/B' }, B: { $ref: '#/$defs/A' } }, $ref: '#/$defs/A' };
    expect(missing(loop, 'x')).toBe('possible');
    let wide: unknown = { type: 'object', properties: { leaf: { type: 'string' } }, additionalProperties: false };
    for (let i = 0; i < 30; i++) wide = { anyOf: [wide, wide] };
    const started = performance.now();
    expect(missing(wide, 'leaf')).toBe('possible');
    expect(missing(wide, 'other')).toBe('possible');
    expect(performance.now() - started).toBeLessThan(500);
  });
});
