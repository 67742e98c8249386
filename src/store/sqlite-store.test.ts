import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { createSqliteStore } from './sqlite-store.ts';
import { runStoreContract } from '../test-support/contracts/store-contract.ts';
import { syntheticStays } from '../test-support/synthetic-stays.ts';
import { defaults } from '../defaults.ts';

const dir = mkdtempSync(join(tmpdir(), 'staygate-sqlite-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const freshPath = (): string => join(dir, `store-${files++}.sqlite`);

runStoreContract(
  'sqlite (file)',
  async () => {
    const path = freshPath();
    return {
      open: async (options) => createSqliteStore({ path, ...options }),
      drop: async () => {
        for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
      },
    };
  },
  { shared: true },
);
runStoreContract(
  'sqlite (:memory:)',
  async () => ({ open: async (options) => createSqliteStore({ path: ':memory:', ...options }), drop: async () => undefined }),
  { shared: false },
);

describe('sqlite store', () => {
  it('keeps the inventory across reopening the file', async () => {
    const path = freshPath();
    const first = createSqliteStore({ path, settings: defaults });
    await first.publishContent(syntheticStays(10), 'v-persist', {});
    await first.close();
    await first.close(); // idempotent
    const second = createSqliteStore({ path, settings: defaults });
    try {
      assert.equal((await second.currentContent())?.label, 'v-persist');
      const [found] = await second.resolveHotelIds([{ raw: '100003', supplier: null, id: '100003' }]);
      assert.deepEqual(found, [3]);
      assert.equal((await second.getStays([9]))[0].name, 'Hotel Number 9');
    } finally {
      await second.close();
    }
  });

  it("reads a version whose chunks' table was made before chunks kept cells: no cells, the rows as they were", async () => {
    const path = freshPath();
    const first = createSqliteStore({ path, settings: defaults });
    const no = await first.publishContent(syntheticStays(10), 'before cells', {}, [], () => new Uint8Array(4));
    await first.close();
    const db = new Database(path);
    db.exec(`ALTER TABLE index_chunks_${no} DROP COLUMN cells`);
    db.close();
    const second = createSqliteStore({ path, settings: defaults });
    try {
      const chunks = [];
      for await (const chunk of second.indexChunks()) chunks.push(chunk);
      assert.deepEqual(
        chunks.map((c) => [c.firstIdx, c.rowCount, c.cells]),
        [[0, 10, null]],
      );
    } finally {
      await second.close();
    }
  });

  it('creates missing parent folders', async () => {
    const store = createSqliteStore({ path: join(dir, 'a', 'b', 'store.sqlite'), settings: defaults });
    assert.equal(await store.currentContent(), null);
    await store.close();
  });

  it('writes 160k stays and streams their index rows, in order', async (t) => {
    const n = 160_000;
    const stays = syntheticStays(n);
    const store = createSqliteStore({ path: freshPath(), settings: defaults });
    try {
      let start = performance.now();
      await store.publishContent(stays, 'big', {});
      const writeMs = performance.now() - start;
      start = performance.now();
      let rows = 0;
      for await (const chunk of store.indexChunks()) {
        assert.equal(chunk.firstIdx, rows);
        rows += chunk.rowCount;
      }
      const readMs = performance.now() - start;
      t.diagnostic(`publishContent ${n}: ${writeMs.toFixed(0)} ms; indexChunks: ${readMs.toFixed(0)} ms`);
      assert.equal(rows, n);
      // The times are printed, not asserted: a test holds no wall-clock budget (issue 13).
    } finally {
      await store.close();
    }
  });
});
