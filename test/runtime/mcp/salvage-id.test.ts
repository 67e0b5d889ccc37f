import { describe, expect, it } from 'vitest';
import { salvageRequestId } from '../../../runtime/mcp/salvage-id.js';

const cut = (text: string, keep: number): [string, string] => [text.slice(0, keep), text.slice(-keep)];
const filler = 'z'.repeat(10_000);

describe('salvageRequestId: the id of a message too large to read, from its first and last bytes', () => {
  it('reads an id written first or last, a number or a string', () => {
    expect(salvageRequestId(...cut(`{"jsonrpc":"2.0","id":7,"method":"m","params":{"x":"${filler}"}}`, 100))).toBe(7);
    expect(salvageRequestId(...cut(`{"method":"m","params":{"x":"${filler}"},"jsonrpc":"2.0","id":"a\\"b"}`, 100))).toBe('a"b');
    expect(salvageRequestId(...cut(`{ "id" : -3 , "params":{"x":"${filler}"}}`, 100))).toBe(-3);
  });

  it("never takes a nested id, or one inside a string, for the message's", () => {
    expect(salvageRequestId(...cut(`{"params":{"id":1,"x":"${filler}","y":{"id":2}},"method":"m"}`, 100))).toBeUndefined();
    expect(salvageRequestId(...cut(`{"method":"m","params":{"x":"\\",\\"id\\":9,${filler}"}}`, 100))).toBeUndefined();
    expect(salvageRequestId(...cut(`{"x":["id",{"id":5}],"p":"${filler}"}`, 100))).toBeUndefined();
  });

  it('gives up on an id the kept bytes cut in two, rather than guess', () => {
    const text = `{"jsonrpc":"2.0","id":123456,"params":{"x":"${filler}"}}`;
    expect(salvageRequestId(text.slice(0, text.indexOf('123') + 3), '')).toBeUndefined();
  });
});
