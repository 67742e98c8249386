import type Database from 'better-sqlite3';
import type { SupplierId } from '../types.ts';
import { CSV_FORMAT, csvLine } from './transaction-csv.ts';
import { fromColumns, KEEP_NEWEST, ROW_COLUMNS, toColumns, WRITE_COLUMNS, type TransactionColumns } from './transaction-row.ts';
import { toRecord, type TransactionRow } from './transaction.ts';
import type { ApplyReportResult } from './transaction-store.ts';

/**
 * The writes of the SQLite transaction store, each one transaction that moves the data version
 * with the rows (page ends remembered before are then not used): applying a report or an import,
 * and giving unowned transactions to their partners. Lines rendered by an older CSV_FORMAT are
 * rendered again when the writes are prepared. Each reads before it writes, so each takes the
 * file's write lock first (BEGIN IMMEDIATE, waiting out the busy timeout): a deferred transaction
 * whose snapshot another connection moves on before its first write is refused at once
 * (SQLITE_BUSY_SNAPSHOT), and a sync would fail for nothing.
 */
export function sqliteTransactionWrites(db: Database.Database) {
  const upsert = db.prepare(`INSERT INTO transactions (${WRITE_COLUMNS.join(', ')})
    VALUES (${WRITE_COLUMNS.map((c) => `@${c}`).join(', ')}) ${KEEP_NEWEST}`);
  const exists = db.prepare<[string, string], { one: number }>('SELECT 1 AS one FROM transactions WHERE supplier = ? AND booking_id = ?');
  const bump = db.prepare("UPDATE transactions_meta SET value = value + 1 WHERE name = 'version'");
  const assign = db.prepare('UPDATE transactions SET partner_id = ? WHERE aid = ? AND partner_id IS NULL');
  const unownedAids = db.prepare<[], { aid: string }>('SELECT DISTINCT aid FROM transactions WHERE partner_id IS NULL AND aid IS NOT NULL');

  rerenderCsv(db, () => bump.run());

  return {
    /** A report or an import: the upserts one by one, then `record` keeps what it was (its synced period, or the import). */
    apply: db.transaction(
      (supplier: SupplierId, rows: readonly TransactionRow[], record: (result: ApplyReportResult) => void): ApplyReportResult => {
        const result: ApplyReportResult = { received: rows.length, inserted: 0, updated: 0, unchanged: 0, changes: [] };
        for (const row of rows) {
          if (row.supplier !== supplier) throw new Error(`a ${row.supplier} row in a report of ${supplier}`);
          const existed = exists.get(supplier, row.bookingId) !== undefined;
          if (upsert.run(toColumns(row)).changes === 0) {
            result.unchanged++;
            continue;
          }
          if (existed) result.updated++;
          else result.inserted++;
          result.changes.push({ bookingId: row.bookingId, lastUpdated: row.lastUpdated, kind: existed ? 'newer' : 'new' });
        }
        record(result);
        if (result.inserted + result.updated > 0) bump.run();
        return result;
      },
    ).immediate,
    /** Gives every unowned transaction of an aid in `owners` to that partner; how many. */
    assignPartners: db.transaction((owners: ReadonlyMap<string, string>): number => {
      let changed = 0;
      for (const { aid } of unownedAids.all()) {
        const partner = owners.get(aid);
        if (partner !== undefined) changed += assign.run(partner, aid).changes;
      }
      if (changed > 0) bump.run();
      return changed;
    }).immediate,
  };
}

/** Lines rendered by an older CSV_FORMAT (or before the format was recorded) are rendered again, once. */
function rerenderCsv(db: Database.Database, bump: () => void): void {
  const format = db.prepare<[], { value: number }>("SELECT value FROM transactions_meta WHERE name = 'csv_format'").get();
  if (format?.value === CSV_FORMAT) return;
  db.transaction(() => {
    const rerender = db.prepare('UPDATE transactions SET csv_line = ? WHERE supplier = ? AND booking_id = ?');
    for (const row of db.prepare<[], TransactionColumns>(`SELECT ${ROW_COLUMNS} FROM transactions`).all()) {
      rerender.run(csvLine(toRecord(fromColumns(row))), row.supplier, row.booking_id);
    }
    db.prepare("INSERT OR REPLACE INTO transactions_meta (name, value) VALUES ('csv_format', ?)").run(CSV_FORMAT);
    bump();
  }).immediate();
}
