import type Database from 'better-sqlite3';
import { openSqlite } from '../store/open-sqlite.ts';
import { writeWithoutWaiting } from '../store/write-without-waiting.ts';
import type { TallyDimension } from '../clicks/click-store.ts';
import { sqliteTransactionPages, type SqlitePagesSettings } from './sqlite-transaction-pages.ts';
import { sqliteTransactionWrites } from './sqlite-transaction-writes.ts';
import {
  dayBounds,
  fromColumns,
  ROW_COLUMNS,
  SELECT_IMPORTS,
  syncStateFromRow,
  TALLY_KEY,
  transactionStats,
  type SupplierCount,
  type SyncRow,
  type TransactionColumns,
} from './transaction-row.ts';
import { toRecord } from './transaction.ts';
import type { TransactionImport, TransactionStore, TransactionTally } from './transaction-store.ts';

export interface SqliteTransactionStoreOptions {
  /** The gateway's database file (`<data dir>/staygate.sqlite`), or ':memory:'. */
  path: string;
  /** `config.settings`: connections for streaming exports (none with ':memory:'), remembered page ends. */
  settings: SqlitePagesSettings;
}

/**
 * Transactions in the gateway's SQLite file (migrations/sqlite/0001 and 0005; WAL, synchronous
 * FULL: a report applied survives a hard kill). Writes: sqlite-transaction-writes.ts; pages and
 * exports: sqlite-transaction-pages.ts; the partner's summaries and the status here.
 */
export function createSqliteTransactionStore(options: SqliteTransactionStoreOptions): TransactionStore {
  const db = openSqlite(options.path);
  const writes = sqliteTransactionWrites(db);
  const pages = sqliteTransactionPages(db, options.path, options.settings);
  const reads = sqliteTransactionReads(db);
  const saveSync = db.prepare(`INSERT INTO report_sync (supplier, synced_through, synced_at) VALUES (?, ?, ?)
    ON CONFLICT (supplier) DO UPDATE SET synced_through = max(synced_through, excluded.synced_through), synced_at = excluded.synced_at`);
  const saveImport = db.prepare(`INSERT OR REPLACE INTO transaction_imports
    (supplier, file, imported_at, rows, inserted, updated, unchanged, unattributed)
    VALUES (@supplier, @file, @importedAt, @rows, @inserted, @updated, @unchanged, @unattributed)`);
  let closed = false;
  return {
    async applyReport(supplier, rows, sync) {
      return writeWithoutWaiting(db, () => writes.apply(supplier, rows, () => saveSync.run(supplier, sync.syncedThrough, sync.syncedAt)));
    },
    async applyImport(supplier, rows, run) {
      return writeWithoutWaiting(db, () =>
        writes.apply(supplier, rows, ({ received, inserted, updated, unchanged }) =>
          saveImport.run({ supplier, ...run, rows: received, inserted, updated, unchanged }),
        ),
      );
    },
    async assignPartners(owners) {
      return writeWithoutWaiting(db, () => writes.assignPartners(owners));
    },
    async query(query) {
      return pages.query(query);
    },
    csvPage: pages.csvPage,
    ...reads,
    async close() {
      if (closed) return;
      closed = true;
      pages.close();
      db.close();
    },
  };
}

/** The store's reads but pages: sync state, a partner's tallies and latest bookings, one booking, the status. */
function sqliteTransactionReads(db: Database.Database): Pick<TransactionStore, 'syncState' | 'tally' | 'latest' | 'get' | 'stats'> {
  const selectSync = db.prepare<[string], SyncRow>('SELECT * FROM report_sync WHERE supplier = ?');
  const selectOne = db.prepare<[string, string], TransactionColumns>(
    `SELECT ${ROW_COLUMNS} FROM transactions WHERE supplier = ? AND booking_id = ?`,
  );
  // Summaries read the (partner_id, booked_at, ...) index: one range scan of the partner's period.
  const tallies = Object.fromEntries(
    Object.entries(TALLY_KEY).map(([by, key]) => [
      by,
      db.prepare<[string, string, string], TransactionTally>(
        `SELECT ${key} AS key, status, count(*) AS bookings, sum(commission_cents) AS commissionCents FROM transactions
      WHERE partner_id = ? AND booked_at >= ? AND booked_at < ? GROUP BY 1, 2`,
      ),
    ]),
  ) as Record<TallyDimension, Database.Statement<[string, string, string], TransactionTally>>;
  const selectLatest = db.prepare<[string, string, string, number], TransactionColumns>(`SELECT ${ROW_COLUMNS} FROM transactions
    WHERE partner_id = ? AND booked_at >= ? AND booked_at < ? ORDER BY booked_at DESC, supplier DESC, booking_id DESC LIMIT ?`);
  const selectCounts = db.prepare<[], SupplierCount>(
    'SELECT supplier, count(*) AS n, coalesce(sum(partner_id IS NULL), 0) AS unattributed FROM transactions GROUP BY supplier',
  );
  const selectSyncs = db.prepare<[], SyncRow>('SELECT * FROM report_sync');
  const selectImports = db.prepare<[], { supplier: string } & TransactionImport>(SELECT_IMPORTS);
  return {
    async syncState(supplier) {
      return syncStateFromRow(selectSync.get(supplier));
    },
    async tally({ partnerId, startDate, endDate, by }) {
      return tallies[by].all(partnerId, ...dayBounds(startDate, endDate));
    },
    async latest({ partnerId, startDate, endDate, limit }) {
      return selectLatest.all(partnerId, ...dayBounds(startDate, endDate), limit).map((row) => toRecord(fromColumns(row)));
    },
    async get(supplier, bookingId) {
      const row = selectOne.get(supplier, bookingId);
      return row === undefined ? null : fromColumns(row);
    },
    async stats() {
      return db.transaction(() => transactionStats(selectCounts.all(), selectSyncs.all(), selectImports.all()))();
    },
  };
}
