import { inPgTransaction, type PgClient, type PgPool } from '../store/pg-pool.ts';
import type { SupplierId } from '../types.ts';
import { CSV_FORMAT, csvLine } from './transaction-csv.ts';
import {
  fromColumns,
  KEEP_NEWEST,
  ROW_COLUMNS,
  toColumns,
  WRITE_COLUMNS,
  type TransactionColumns,
  type WrittenColumns,
} from './transaction-row.ts';
import { toRecord, versionKey, type TransactionRow } from './transaction.ts';
import type { ApplyReportResult } from './transaction-store.ts';

/** Rows per multi-row upsert statement of a report, and per update of a re-rendering. */
const WRITE_BATCH = 2_000;

// Any fixed 32-bit number: applying one supplier's report is serialised across processes (the
// scheduled sync of one gateway and `staygate transactions sync` elsewhere), so its counts are exact.
const REPORT_LOCK = 734_920_156;

export const BUMP = "UPDATE transactions_meta SET value = value + 1 WHERE name = 'version'";

/** The array type of each written column, for unnest. */
const ARRAY_TYPE: Partial<Record<(typeof WRITE_COLUMNS)[number], string>> = { commission_cents: 'int8[]', quantity: 'int4[]' };

/** Every written column as one array parameter, then the newest of each booking wins. */
const UPSERT = `INSERT INTO transactions (${WRITE_COLUMNS.join(', ')})
  SELECT * FROM unnest(${WRITE_COLUMNS.map((c, i) => `$${i + 1}::${ARRAY_TYPE[c] ?? 'text[]'}`).join(', ')})
  ${KEEP_NEWEST}`;

/** Byte order of UTF-8 text, as COLLATE "C" (and SQLite) compare it. */
function compareText(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

async function upsertRows(client: PgClient, rows: readonly WrittenColumns[]): Promise<void> {
  for (let start = 0; start < rows.length; start += WRITE_BATCH) {
    const batch = rows.slice(start, start + WRITE_BATCH);
    await client.query(
      UPSERT,
      WRITE_COLUMNS.map((column) => batch.map((row) => row[column])),
    );
  }
}

/**
 * The report's rows in order, each against what is held or what an earlier row of the report put
 * there: the same outcome and counts as applying them one by one (the SQLite store), as the
 * winner of each booking to upsert.
 */
function winnersOf(rows: readonly TransactionRow[], held: Map<string, { lastUpdated: string; versionKey: string }>) {
  const result: ApplyReportResult = { received: rows.length, inserted: 0, updated: 0, unchanged: 0, changes: [] };
  const winners = new Map<string, TransactionRow>();
  for (const row of rows) {
    const key = versionKey(row);
    const current = held.get(row.bookingId);
    if (current !== undefined) {
      const order = compareText(row.lastUpdated, current.lastUpdated);
      if (order < 0 || (order === 0 && compareText(key, current.versionKey) <= 0)) {
        result.unchanged++;
        continue;
      }
      result.updated++;
    } else {
      result.inserted++;
    }
    result.changes.push({ bookingId: row.bookingId, lastUpdated: row.lastUpdated, kind: current === undefined ? 'new' : 'newer' });
    held.set(row.bookingId, { lastUpdated: row.lastUpdated, versionKey: key });
    winners.set(row.bookingId, row);
  }
  return { result, winners: [...winners.values()].map(toColumns) };
}

/**
 * A report or an import, all or nothing: the upserts under the supplier's lock, then `record`
 * keeps what it was (its synced period, or the import) in the same transaction.
 */
export async function applyPgRows(
  pool: PgPool,
  supplier: SupplierId,
  rows: readonly TransactionRow[],
  record: (client: PgClient, result: ApplyReportResult) => Promise<unknown>,
): Promise<ApplyReportResult> {
  for (const row of rows) if (row.supplier !== supplier) throw new Error(`a ${row.supplier} row in a report of ${supplier}`);
  return inPgTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [REPORT_LOCK, supplier]);
    const ids = [...new Set(rows.map((row) => row.bookingId))];
    const held = new Map<string, { lastUpdated: string; versionKey: string }>();
    if (ids.length > 0) {
      const { rows: existing } = await client.query<{ booking_id: string; last_updated: string; version_key: string }>(
        'SELECT booking_id, last_updated, version_key FROM transactions WHERE supplier = $1 AND booking_id = ANY($2::text[])',
        [supplier, ids],
      );
      for (const e of existing) held.set(e.booking_id, { lastUpdated: e.last_updated, versionKey: e.version_key });
    }
    const { result, winners } = winnersOf(rows, held);
    await upsertRows(client, winners);
    await record(client, result);
    if (winners.length > 0) await client.query(BUMP);
    return result;
  });
}

/** Gives every unowned transaction of an aid in `owners` (aid -> partner) to that partner; how many. */
export function assignPgPartners(pool: PgPool, owners: ReadonlyMap<string, string>): Promise<number> {
  if (owners.size === 0) return Promise.resolve(0);
  return inPgTransaction(pool, async (client) => {
    const { rowCount } = await client.query(
      `UPDATE transactions t SET partner_id = o.partner
      FROM unnest($1::text[], $2::text[]) AS o(aid, partner) WHERE t.aid = o.aid AND t.partner_id IS NULL`,
      [[...owners.keys()], [...owners.values()]],
    );
    const changed = rowCount ?? 0;
    if (changed > 0) await client.query(BUMP);
    return changed;
  });
}

/** Lines rendered by an older CSV_FORMAT are rendered again, once, by whichever process opens first. */
export async function rerenderPgCsv(pool: PgPool): Promise<void> {
  const format = await pool.query<{ value: string }>("SELECT value FROM transactions_meta WHERE name = 'csv_format'");
  if (Number(format.rows[0]?.value) === CSV_FORMAT) return;
  await inPgTransaction(pool, async (client) => {
    const locked = await client.query<{ value: string }>("SELECT value FROM transactions_meta WHERE name = 'csv_format' FOR UPDATE");
    if (Number(locked.rows[0]?.value) === CSV_FORMAT) return;
    const { rows } = await client.query<TransactionColumns>(`SELECT ${ROW_COLUMNS} FROM transactions`);
    const lines = rows.map((row) => csvLine(toRecord(fromColumns(row))));
    for (let start = 0; start < rows.length; start += WRITE_BATCH) {
      const batch = rows.slice(start, start + WRITE_BATCH);
      await client.query(
        `UPDATE transactions t SET csv_line = u.line FROM unnest($1::text[], $2::text[], $3::text[]) AS u(supplier, booking_id, line)
        WHERE t.supplier = u.supplier AND t.booking_id = u.booking_id`,
        [batch.map((r) => r.supplier), batch.map((r) => r.booking_id), lines.slice(start, start + WRITE_BATCH)],
      );
    }
    await client.query("UPDATE transactions_meta SET value = $1 WHERE name = 'csv_format'", [CSV_FORMAT]);
    await client.query(BUMP);
  });
}
