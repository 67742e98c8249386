import type { PgPool } from '../store/pg-pool.ts';
import type { BookingStatus } from '../suppliers/supplier.ts';
import { pgTransactionPages, type PgPagesSettings } from './pg-transaction-pages.ts';
import { applyPgRows, assignPgPartners, rerenderPgCsv } from './pg-transaction-writes.ts';
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

export interface PgTransactionStoreOptions {
  /** A pool on the migrated database (store/migrations/postgres/0001 and 0005); the store never ends it. */
  pool: PgPool;
  /** `config.settings`: remembered page ends, the read-ahead's lifetime (0: none) and size. */
  settings: PgPagesSettings;
  /** The clock of the read-ahead's lifetime, in ms (tests drive it); performance.now() by default. */
  now?: () => number;
}

/**
 * Transactions in PostgreSQL, shared by every gateway and the CLI. A report is one database
 * transaction (durable at COMMIT; pg-transaction-writes.ts); a CSV page is one statement's one row
 * (docs/decisions.md 97; pg-transaction-pages.ts).
 */
export async function createPgTransactionStore(options: PgTransactionStoreOptions): Promise<TransactionStore> {
  const { pool } = options;
  await rerenderPgCsv(pool);
  const pages = pgTransactionPages(pool, options.settings, options.now);
  /** Pages read ahead are dropped when this store writes. */
  const writing = <T>(write: Promise<T>): Promise<T> => write.finally(() => pages.dropReadAhead());
  return {
    applyReport(supplier, rows, sync) {
      return writing(
        applyPgRows(pool, supplier, rows, (client) =>
          client.query(
            `INSERT INTO report_sync (supplier, synced_through, synced_at) VALUES ($1, $2, $3)
            ON CONFLICT (supplier) DO UPDATE SET synced_through = greatest(report_sync.synced_through, excluded.synced_through),
              synced_at = excluded.synced_at`,
            [supplier, sync.syncedThrough, sync.syncedAt],
          ),
        ),
      );
    },
    applyImport(supplier, rows, run) {
      return writing(
        applyPgRows(pool, supplier, rows, (client, result) =>
          client.query(
            `INSERT INTO transaction_imports (supplier, file, imported_at, rows, inserted, updated, unchanged, unattributed)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
            ON CONFLICT (supplier) DO UPDATE SET file = excluded.file, imported_at = excluded.imported_at, rows = excluded.rows,
              inserted = excluded.inserted, updated = excluded.updated, unchanged = excluded.unchanged, unattributed = excluded.unattributed`,
            [supplier, run.file, run.importedAt, result.received, result.inserted, result.updated, result.unchanged, run.unattributed],
          ),
        ),
      );
    },
    assignPartners(owners) {
      return writing(assignPgPartners(pool, owners));
    },
    query: pages.query,
    csvPage: pages.csvPage,
    ...pgTransactionReads(pool),
    async close() {
      // The pool belongs to whoever opened it (open-stores.ts).
      await pages.close();
    },
  };
}

/** The store's reads but pages: sync state, a partner's tallies and latest bookings, one booking, the status. */
function pgTransactionReads(pool: PgPool): Pick<TransactionStore, 'syncState' | 'tally' | 'latest' | 'get' | 'stats'> {
  return {
    async syncState(supplier) {
      const { rows } = await pool.query<SyncRow>('SELECT * FROM report_sync WHERE supplier = $1', [supplier]);
      return syncStateFromRow(rows[0]);
    },
    async tally({ partnerId, startDate, endDate, by }) {
      const { rows } = await pool.query<{ key: string | null; status: BookingStatus; bookings: number; cents: string }>(
        `SELECT ${TALLY_KEY[by]} AS key, status, count(*)::int AS bookings, sum(commission_cents) AS cents FROM transactions
          WHERE partner_id = $1 AND booked_at >= $2 AND booked_at < $3 GROUP BY 1, 2`,
        [partnerId, ...dayBounds(startDate, endDate)],
      );
      return rows.map((r): TransactionTally => ({ key: r.key, status: r.status, bookings: r.bookings, commissionCents: Number(r.cents) }));
    },
    async latest({ partnerId, startDate, endDate, limit }) {
      const { rows } = await pool.query<TransactionColumns>(
        `SELECT ${ROW_COLUMNS} FROM transactions
        WHERE partner_id = $1 AND booked_at >= $2 AND booked_at < $3 ORDER BY booked_at DESC, supplier DESC, booking_id DESC LIMIT $4`,
        [partnerId, ...dayBounds(startDate, endDate), limit],
      );
      return rows.map((row) => toRecord(fromColumns(row)));
    },
    async get(supplier, bookingId) {
      const { rows } = await pool.query<TransactionColumns>(
        `SELECT ${ROW_COLUMNS} FROM transactions WHERE supplier = $1 AND booking_id = $2`,
        [supplier, bookingId],
      );
      return rows.length === 0 ? null : fromColumns(rows[0]);
    },
    async stats() {
      const { rows: counts } = await pool.query<SupplierCount>(
        'SELECT supplier, count(*)::int AS n, count(*) FILTER (WHERE partner_id IS NULL)::int AS unattributed FROM transactions GROUP BY supplier',
      );
      const { rows: syncs } = await pool.query<SyncRow>('SELECT * FROM report_sync');
      const { rows: imports } = await pool.query<{ supplier: string } & TransactionImport>(SELECT_IMPORTS);
      return transactionStats(counts, syncs, imports);
    },
  };
}
