/**
 * Reading what a domain call returned (`contract/run/call-results.ts`): found, empty or an error, through the
 * wrappers real servers put around a value, and the fields and entities conditions and evidence read.
 */
import { describe, expect, it } from 'vitest';
import { entityInAnswer, fieldAt, readAnswer, scalarAt } from '../../../contract/run/call-results.js';

describe('readAnswer', () => {
  it('reads a τ²-bench answer through its `result` wrapper, and JSON text inside it', () => {
    expect(readAnswer({ structured: { result: 'daiki_sanchez_3253' } })).toEqual({ kind: 'found', value: 'daiki_sanchez_3253' });
    expect(readAnswer({ text: '{"result":"daiki_sanchez_3253"}' })).toEqual({ kind: 'found', value: 'daiki_sanchez_3253' });
    expect(readAnswer({ text: '{"result":"{\\"order_id\\":\\"#W1\\",\\"status\\":\\"pending\\"}"}' })).toEqual({
      kind: 'found',
      value: { order_id: '#W1', status: 'pending' },
    });
  });

  it('prefers the structured content, else JSON in the text, else the text', () => {
    expect(readAnswer({ structured: { user_id: 'u1' }, text: 'ignored' })).toEqual({ kind: 'found', value: { user_id: 'u1' } });
    expect(readAnswer({ text: '[{"order_id":"#W1"}]' })).toEqual({ kind: 'found', value: [{ order_id: '#W1' }] });
    expect(readAnswer({ text: 'Transfer successful' })).toEqual({ kind: 'found', value: 'Transfer successful' });
  });

  it.each([
    ['empty text', { text: '' }],
    ['blank text', { text: '  \n' }],
    ['an empty list', { text: '[]' }],
    ['an empty object', { text: '{}' }],
    ['null', { text: 'null' }],
    ['a wrapped empty value', { structured: { result: '' } }],
    ['an object of empty values', { structured: { users: [], next: null } }],
    ['no answer at all', {}],
  ])('finds nothing in %s', (_, result) => {
    expect(readAnswer(result)).toEqual({ kind: 'empty' });
  });

  it('finds nothing in an error, whatever it says, nor in an answer that is only an error (logs without an error flag)', () => {
    expect(readAnswer({ text: 'User not found', isError: true })).toEqual({ kind: 'error' });
    expect(readAnswer({ structured: { user_id: 'u1' }, isError: true })).toEqual({ kind: 'error' });
    expect(readAnswer({ text: '{"error":"No order has the id \\"#W0\\"."}' })).toEqual({ kind: 'error' });
    expect(readAnswer({ structured: { error: 'not found', code: 404 } })).toEqual({ kind: 'error' });
    expect(readAnswer({ structured: { order_id: '#W1', error: null } })).toEqual({
      kind: 'found',
      value: { order_id: '#W1', error: null },
    });
  });
});

describe('fields and entities', () => {
  const order = { order_id: '#W1', status: 'pending (item modified)', items: [{ price: 12.5 }], constructor: 'field' };

  it('reads a field by its path, a number naming a list item, own properties only', () => {
    expect(scalarAt(order, ['status'])).toBe('pending (item modified)');
    expect(scalarAt(order, ['items', '0', 'price'])).toBe(12.5);
    expect(scalarAt(order, ['items'])).toBeUndefined();
    expect(fieldAt(order, ['constructor'])).toBe('field');
    expect(fieldAt({ status: 'x' }, ['constructor'])).toBeUndefined();
    expect(fieldAt({ status: 'x' }, ['toString'])).toBeUndefined();
    expect(fieldAt(order, ['items', '-1'])).toBeUndefined();
  });

  it('finds the entity an answer names: an id answered alone, or its field of that name', () => {
    expect(entityInAnswer('daiki_sanchez_3253', 'user_id')).toBe('daiki_sanchez_3253');
    expect(entityInAnswer({ user_id: 'u1', name: 'x' }, 'user_id')).toBe('u1');
    expect(entityInAnswer(order, 'order_id')).toBe('#W1');
    expect(entityInAnswer('No user has that email address', 'user_id')).toBeUndefined();
    expect(entityInAnswer({ name: 'x' }, 'user_id')).toBeUndefined();
  });
});
