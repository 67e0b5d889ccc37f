/** The bounded map the service keeps runs and session owners in: least recently used first out, whatever was used last. */
import { describe, expect, it } from 'vitest';
import { createLruMap } from '../../../runtime/support/lru-map.js';

describe('createLruMap', () => {
  it('drops the least recently used entry past its capacity, a get or a set counting as a use', () => {
    const map = createLruMap<string, number>(3);
    map.set('a', 1);
    map.set('b', 2);
    map.set('c', 3);
    expect(map.get('a')).toBe(1); // a is now the newest: b is the oldest
    map.set('d', 4);
    expect([map.get('b'), map.get('c'), map.get('a'), map.get('d')]).toEqual([undefined, 3, 1, 4]);
    map.set('c', 30); // c used again, d newest before it
    map.set('e', 5); // the oldest now is a
    expect([map.get('a'), map.get('c'), map.get('d'), map.get('e')]).toEqual([undefined, 30, 4, 5]);
    expect(map.size).toBe(3);
  });

  it('the newest key used again moves nothing, deleted or pruned it is forgotten', () => {
    const map = createLruMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    for (let i = 0; i < 3; i++) expect(map.get('b')).toBe(2);
    map.set('c', 3); // a out, b stays
    expect([map.get('a'), map.get('b')]).toEqual([undefined, 2]);
    map.delete('b');
    map.set('b', 20);
    map.set('d', 4); // c out: b was set after it
    expect([map.get('c'), map.get('b'), map.get('d')]).toEqual([undefined, 20, 4]);
    map.prune((key) => key === 'd');
    map.set('e', 5);
    map.set('f', 6); // b out
    expect([map.get('b'), map.get('e'), map.get('f'), map.size]).toEqual([undefined, 5, 6, 2]);
  });
});
