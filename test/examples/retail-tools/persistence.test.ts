/**
 * `--db FILE` through the real server: the file is created from the seed, a change is in the file when its answer
 * arrives, a refused call and a read write nothing (same bytes, same modification time), a restarted server
 * continues from the file, and a damaged file stops the server at start without being overwritten. Without
 * `--db`, a restarted server starts again from the seed.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectHttp, connectStdio, RETAIL_MAIN, SEED_FILE, seed, startRetailHttp } from './retail-process.js';
import { spawnSync } from 'node:child_process';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const dbPath = () => {
  const dir = mkdtempSync(join(tmpdir(), 'retail-persist-'));
  dirs.push(dir);
  return { dir, file: join(dir, 'db.json') };
};
const fileState = (file: string) => ({ text: readFileSync(file, 'utf8'), mtime: statSync(file).mtimeMs });
const ELM = { address1: '456 Elm Ave', address2: 'Apt 2', city: 'Springfield', state: 'IL', country: 'USA', zip: '62704' };

describe('--db FILE', () => {
  it('creates the file from the seed, saves each change before answering, and writes nothing for reads and refusals', async () => {
    const { dir, file } = dbPath();
    const client = await connectStdio('v1', { db: file });
    try {
      expect(readFileSync(file, 'utf8')).toBe(readFileSync(SEED_FILE, 'utf8'));
      const untouched = fileState(file);
      // Reads and refusals: the file keeps its bytes and its modification time.
      await client.call('get_order_details', { order_id: '#W4817420' });
      await client.call('find_user_id_by_email', { email: 'sophia.martin4832@example.com' });
      expect((await client.call('cancel_pending_order', { order_id: '#W3172905', reason: 'no longer needed' })).isError).toBe(true);
      expect((await client.call('modify_pending_order_address', { order_id: '#W4817420', ...ELM, zip: '' })).isError).toBe(true);
      expect(
        (
          await client.call('exchange_delivered_order_items', {
            order_id: '#W6235914',
            item_ids: ['2106335193'],
            new_item_ids: ['6065192424'],
            payment_method_id: 'credit_card_4390581',
          })
        ).isError,
      ).toBe(true);
      expect(fileState(file)).toEqual(untouched);

      const answer = await client.call('modify_pending_order_address', { order_id: '#W4817420', ...ELM });
      expect(answer.isError).toBe(false);
      const saved = JSON.parse(readFileSync(file, 'utf8'));
      expect(saved.orders['#W4817420']).toEqual(answer.structured);
      expect(saved.orders['#W4817420'].address).toEqual(ELM);
      // Only that order changed.
      expect({ ...saved, orders: { ...saved.orders, '#W4817420': undefined } }).toEqual({
        ...seed(),
        orders: { ...seed().orders, '#W4817420': undefined },
      });

      const cancelled = await client.call('cancel_pending_order', { order_id: '#W6619432', reason: 'ordered by mistake' });
      expect(JSON.parse(readFileSync(file, 'utf8')).orders['#W6619432']).toEqual(cancelled.structured);
      expect(readdirSync(dir)).toEqual(['db.json']);
    } finally {
      await client.close();
    }
  });

  it('a restarted server continues from the file, over either transport', async () => {
    const { file } = dbPath();
    const first = await connectStdio('v2-legacy', { db: file });
    await first.call('modify_user_address', { user_id: 'sophia_martin_4832', ...ELM });
    await first.close();
    const server = await startRetailHttp({ db: file });
    try {
      const second = await connectHttp('v2-modern', server);
      expect((await second.call('get_user_details', { user_id: 'sophia_martin_4832' })).structured.address).toEqual(ELM);
      await second.close();
    } finally {
      await server.stop();
    }
  });

  it('without --db, a change lives only as long as the process', async () => {
    const first = await connectStdio('v1');
    await first.call('modify_user_address', { user_id: 'sophia_martin_4832', ...ELM });
    expect((await first.call('get_user_details', { user_id: 'sophia_martin_4832' })).structured.address).toEqual(ELM);
    await first.close();
    const second = await connectStdio('v1');
    expect((await second.call('get_user_details', { user_id: 'sophia_martin_4832' })).structured.address).toEqual(
      seed().users.sophia_martin_4832.address,
    );
    await second.close();
  });

  it.each([
    ['is not JSON', '{"users": [', /db\.json is not JSON/],
    [
      'names an order of an unknown user',
      readFileSync(SEED_FILE, 'utf8').replace('"user_id": "mei_chen_2719",\n      "address"', '"user_id": "nobody",\n      "address"'),
      /db\.json: orders\.#W6619432\.user_id: no user nobody/,
    ],
  ])('a file that %s stops the server at start (exit 2) and is left as it was', (_what, text, message) => {
    const { file } = dbPath();
    writeFileSync(file, text);
    const run = spawnSync(process.execPath, [RETAIL_MAIN, '--db', file], { input: '', encoding: 'utf8', timeout: 30_000 });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });
});
