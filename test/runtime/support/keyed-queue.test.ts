import { describe, expect, it } from 'vitest';
import { createKeyedQueue } from '../../../runtime/support/keyed-queue.js';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('keyed queue', () => {
  it('runs tasks of one key one after the other, in order', async () => {
    const queue = createKeyedQueue();
    const log: string[] = [];
    const task = (name: string) => async () => {
      log.push(`${name} start`);
      await tick();
      log.push(`${name} end`);
      return name;
    };
    const results = await Promise.all([queue.run('a', task('1')), queue.run('a', task('2')), queue.run('a', task('3'))]);
    expect(results).toEqual(['1', '2', '3']);
    expect(log).toEqual(['1 start', '1 end', '2 start', '2 end', '3 start', '3 end']);
  });

  it('lets different keys interleave, and a failure not block the next task', async () => {
    const queue = createKeyedQueue();
    const log: string[] = [];
    let release = () => {};
    const blocked = queue.run('a', () => new Promise<void>((resolve) => (release = resolve)).then(() => log.push('a')));
    await queue.run('b', async () => log.push('b'));
    release();
    await blocked;
    expect(log).toEqual(['b', 'a']);
    await expect(queue.run('c', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(queue.run('c', async () => 'after')).resolves.toBe('after');
  });

  it('turns a task that throws synchronously into a rejection, and keeps the key usable', async () => {
    const queue = createKeyedQueue();
    const throwing = (): Promise<string> => {
      throw new Error('sync boom');
    };
    await expect(queue.run('a', throwing)).rejects.toThrow('sync boom');
    const queued = [queue.run('a', throwing), queue.run('a', async () => 'next')];
    await expect(queued[0]).rejects.toThrow('sync boom');
    await expect(queued[1]).resolves.toBe('next');
  });
});
