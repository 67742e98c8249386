import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMigratedSchema, freshPgStore, skipWithoutPostgres, twoPgStores } from '../test-support/pg.ts';
import { createPgTransactionStore } from './pg-transaction-store.ts';
import { row, runTransactionStoreContract } from '../test-support/contracts/transaction-store-contract.ts';
import type { TransactionQuery, TransactionStore } from './transaction-store.ts';
import { defaults } from '../defaults.ts';

// Each store on a schema of its own in the test database, dropped when it closes.
describe('PostgreSQL transaction store', { skip: await skipWithoutPostgres() }, () => {
  runTransactionStoreContract(
    'postgres',
    () => freshPgStore((pool) => createPgTransactionStore({ pool, settings: defaults })),
    () => twoPgStores((pool) => createPgTransactionStore({ pool, settings: defaults })),
  );

  it('a CSV export broken off gives its connection back, and exports run side by side', async () => {
    const store = await freshPgStore((pool) => createPgTransactionStore({ pool, settings: defaults }));
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

  // Read-ahead (docs/decisions.md 103): after a full CSV page, the next is read at once and kept
  // briefly for the partner's next request. Store `ahead` reads ahead on a pool of one connection,
  // so a query it is asked afterwards runs once the read ahead is done (the pool serves in order);
  // store `other` (no read-ahead, its own pool) is another gateway: it writes, and reads fresh.
  describe('CSV pages read ahead', () => {
    const sync = { syncedThrough: '2026-11-21T10:00:00.000Z', syncedAt: '2026-11-21T10:00:00.000Z' };
    const pageOf = (partnerId: string, page: number): TransactionQuery => ({
      partnerId,
      dateFilter: 'bookedDate',
      startDate: '2026-01-01',
      endDate: '2026-12-31',
      limit: 500,
      page,
    });
    const read = async (store: TransactionStore, query: TransactionQuery) => {
      let csv = '';
      for await (const lines of store.csvPage(query)) csv += lines;
      return csv;
    };
    // 1,200 rows of p1 and of p2, booked on one day, so the export's order is supplier, booking id.
    const rowsOf = (partnerId: string, changed = -1) =>
      Array.from({ length: 1_200 }, (_, i) =>
        row(`${partnerId}-${String(i).padStart(4, '0')}`, {
          partnerId,
          aid: partnerId,
          ...(i === changed ? { status: 'Approved' as const, lastUpdated: '2026-03-02T10:00:00.000Z' } : {}),
        }),
      );

    async function rig() {
      const schema = await createMigratedSchema();
      let clock = 1_000; // not 0: lru-cache takes an entry set at time 0 for one without a lifetime
      const ahead = await createPgTransactionStore({
        pool: schema.openPool(1),
        now: () => clock,
        settings: { ...defaults, reportingReadAheadMs: 2_000 },
      });
      const other = await createPgTransactionStore({ pool: schema.openPool(), settings: { ...defaults, reportingReadAheadMs: 0 } });
      await other.applyReport('supplier_a', [...rowsOf('p1'), ...rowsOf('p2')], sync);
      return {
        ahead,
        other,
        advance: (ms: number) => (clock += ms),
        /** Waits for what `ahead` reads ahead: a query behind it on its one connection. */
        settled: () => ahead.stats(),
        close: async () => {
          await ahead.close();
          await other.close();
          await schema.drop();
        },
      };
    }

    it('serves the next page read when the last was served: what a fresh read gave then', async () => {
      const r = await rig();
      try {
        const fresh = await read(r.other, pageOf('p1', 1));
        await read(r.ahead, pageOf('p1', 0));
        await r.settled();
        // Another gateway changes a row of page 1 (row 700) after it was read ahead: within the
        // lifetime the page read ahead is served, the page as it was when read.
        await r.other.applyReport('supplier_a', [rowsOf('p1', 700)[700]], sync);
        r.advance(1_999);
        const served = await read(r.ahead, pageOf('p1', 1));
        assert.equal(served, fresh, 'page 1 is the page read ahead, equal to a fresh read of that moment');
        assert.notEqual(await read(r.other, pageOf('p1', 1)), fresh, 'the change is on page 1 (the test would prove nothing otherwise)');
        // Served once: asked again, the page is read afresh.
        assert.match(await read(r.ahead, pageOf('p1', 1)), /Approved/, 'a page read ahead is served only once');
      } finally {
        await r.close();
      }
    });

    it('does not serve a page read ahead past its lifetime', async () => {
      const r = await rig();
      try {
        await read(r.ahead, pageOf('p1', 0));
        await r.settled();
        await r.other.applyReport('supplier_a', [rowsOf('p1', 700)[700]], sync);
        r.advance(2_001);
        assert.equal(await read(r.ahead, pageOf('p1', 1)), await read(r.other, pageOf('p1', 1)), 'read afresh: the change is in it');
      } finally {
        await r.close();
      }
    });

    it("does not serve a partner's page read ahead to another partner", async () => {
      const r = await rig();
      try {
        await read(r.ahead, pageOf('p1', 0));
        await r.settled();
        const p2 = await read(r.ahead, pageOf('p2', 1));
        assert.equal(p2, await read(r.other, pageOf('p2', 1)), "p2's own page 1");
        assert.doesNotMatch(p2, /p1-/, "none of p1's rows");
      } finally {
        await r.close();
      }
    });

    it('drops the pages read ahead when the store writes', async () => {
      const r = await rig();
      try {
        await read(r.ahead, pageOf('p1', 0));
        await r.settled();
        await r.ahead.applyReport('supplier_a', [rowsOf('p1', 700)[700]], sync);
        assert.match(await read(r.ahead, pageOf('p1', 1)), /Approved/, 'page 1 read after the write');
      } finally {
        await r.close();
      }
    });
  });
});
