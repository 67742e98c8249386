import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { createSqliteTransactionStore } from './sqlite-transaction-store.ts';
import { row, runTransactionStoreContract } from '../test-support/contracts/transaction-store-contract.ts';
import type { TransactionStore } from './transaction-store.ts';
import { defaults } from '../defaults.ts';

const dir = mkdtempSync(join(tmpdir(), 'staygate-transactions-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

// Two handles: two connections on one file, as a gateway and the CLI.
runTransactionStoreContract(
  'sqlite (file)',
  async () => createSqliteTransactionStore({ path: join(dir, `t-${files++}.sqlite`), settings: defaults }),
  async () => {
    const path = join(dir, `t-${files++}.sqlite`);
    const first = createSqliteTransactionStore({ path, settings: defaults });
    const second = createSqliteTransactionStore({ path, settings: defaults });
    return {
      first,
      second,
      close: async () => {
        await Promise.all([first.close(), second.close()]);
      },
    };
  },
);
runTransactionStoreContract('sqlite (:memory:)', async () => createSqliteTransactionStore({ path: ':memory:', settings: defaults }));
// With no streaming connection to spare, a CSV page is read in one go: the same pages.
runTransactionStoreContract('sqlite (no streaming connection)', async () =>
  createSqliteTransactionStore({ path: join(dir, `t-${files++}.sqlite`), settings: { ...defaults, reportingReadConnections: 0 } }),
);

test('a CSV export broken off releases its connection, and exports run side by side', async () => {
  const store = createSqliteTransactionStore({
    path: join(dir, `t-${files++}.sqlite`),
    settings: { ...defaults, reportingReadConnections: 2 },
  });
  try {
    await store.applyReport(
      'supplier_a',
      Array.from({ length: 300 }, (_, i) => row(`G${String(i).padStart(3, '0')}`)),
      {
        syncedThrough: '2026-11-21T10:00:00.000Z',
        syncedAt: '2026-11-21T10:00:00.000Z',
      },
    );
    const q = {
      partnerId: 'p1',
      dateFilter: 'lastUpdatedDate' as const,
      startDate: '2026-01-01',
      endDate: '2026-12-31',
      limit: 300,
      page: 0,
    };
    for (let round = 0; round < 5; round++) {
      // Two exports open at once, each stopped after its first chunk, while the writer writes.
      const a = store.csvPage(q)[Symbol.asyncIterator]();
      const b = store.csvPage(q)[Symbol.asyncIterator]();
      assert.equal((await a.next()).done, false);
      assert.equal((await b.next()).done, false);
      await store.applyReport('supplier_b', [row(`H${round}`, { supplier: 'supplier_b' })], {
        syncedThrough: '2026-11-21T10:00:00.000Z',
        syncedAt: '2026-11-21T10:00:00.000Z',
      });
      await a.return!(undefined);
      await b.return!(undefined);
    }
    let lines = 0;
    for await (const chunk of store.csvPage(q)) lines += chunk.split('\r\n').length - 1;
    assert.equal(lines, 300);
  } finally {
    await store.close();
  }
});

test('lines stored by an older CSV rendering are rendered again when the store opens (a fullwidth ＝ escaped since issue 13)', async () => {
  const file = join(dir, `t-${files++}.sqlite`);
  const q = { partnerId: 'p1', dateFilter: 'lastUpdatedDate' as const, startDate: '2026-01-01', endDate: '2026-12-31', limit: 10, page: 0 };
  const csvOf = async (s: TransactionStore) => {
    let text = '';
    for await (const chunk of s.csvPage(q)) text += chunk;
    return text;
  };
  let store = createSqliteTransactionStore({ path: file, settings: defaults });
  await store.applyReport('supplier_a', [row('W1', { campaign: '\uFF1DHYPERLINK("http://evil.example")' })], {
    syncedThrough: '2026-11-21T10:00:00.000Z',
    syncedAt: '2026-11-21T10:00:00.000Z',
  });
  const current = await csvOf(store);
  await store.close();
  // As the first rendering (CSV_FORMAT 1) left it: the cell unescaped.
  const db = new Database(file);
  db.prepare("UPDATE transactions SET csv_line = replace(csv_line, '''\uFF1D', '\uFF1D')").run();
  db.prepare("UPDATE transactions_meta SET value = 1 WHERE name = 'csv_format'").run();
  db.close();
  store = createSqliteTransactionStore({ path: file, settings: defaults });
  try {
    assert.ok(current.includes("'\uFF1DHYPERLINK"), current);
    assert.equal(await csvOf(store), current);
  } finally {
    await store.close();
  }
});
