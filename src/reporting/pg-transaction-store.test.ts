import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { freshPgStore, skipWithoutPostgres, twoPgStores } from '../test-support/pg.ts';
import { createPgTransactionStore } from './pg-transaction-store.ts';
import { row, runTransactionStoreContract } from './transaction-store-contract.ts';

// Each store on a schema of its own in the test database, dropped when it closes.
describe('PostgreSQL transaction store', { skip: await skipWithoutPostgres() }, () => {
  runTransactionStoreContract(
    'postgres',
    () => freshPgStore((pool) => createPgTransactionStore({ pool })),
    () => twoPgStores((pool) => createPgTransactionStore({ pool })),
  );

  it('a CSV export broken off gives its connection back, and exports run side by side', async () => {
    const store = await freshPgStore((pool) => createPgTransactionStore({ pool }));
    try {
      const sync = { syncedThrough: '2026-11-21T10:00:00.000Z', syncedAt: '2026-11-21T10:00:00.000Z' };
      await store.applyReport(
        'supplier_a',
        Array.from({ length: 600 }, (_, i) => row(`G${String(i).padStart(3, '0')}`)),
        sync,
      );
      const q = {
        partnerId: 'p1',
        dateFilter: 'lastUpdatedDate' as const,
        startDate: '2026-01-01',
        endDate: '2026-12-31',
        limit: 500,
        page: 0,
      };
      // The pool has 4 connections: 5 rounds of 2 broken-off exports would exhaust it if one leaked.
      for (let round = 0; round < 5; round++) {
        const a = store.csvPage(q)[Symbol.asyncIterator]();
        const b = store.csvPage(q)[Symbol.asyncIterator]();
        assert.equal((await a.next()).done, false);
        assert.equal((await b.next()).done, false);
        await store.applyReport('supplier_b', [row(`H${round}`, { supplier: 'supplier_b' })], sync);
        await a.return!(undefined);
        await b.return!(undefined);
      }
      let lines = 0;
      for await (const chunk of store.csvPage(q)) lines += chunk.split('\r\n').length - 1;
      assert.equal(lines, 500);
    } finally {
      await store.close();
    }
  });
});
