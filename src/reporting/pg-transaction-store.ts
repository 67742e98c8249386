import { LRUCache } from 'lru-cache';
import type { QueryResultRow } from 'pg';
import { defaults } from '../defaults.ts';
import { inPgTransaction, type PgClient, type PgPool } from '../store/pg-pool.ts';
import { SUPPLIER_IDS, type SupplierId } from '../types.ts';
import type { TallyDimension } from '../clicks/click-store.ts';
import type { BookingStatus } from '../suppliers/supplier.ts';
import { CSV_FORMAT, csvLine } from './transaction-csv.ts';
import { fromColumns, toRecord, versionKey, type DateFilter, type TransactionColumns, type TransactionRow } from './transaction.ts';
import type {
  ApplyReportResult,
  SupplierSyncState,
  TransactionQuery,
  TransactionImport,
  TransactionStats,
  TransactionStore,
  TransactionTally,
} from './transaction-store.ts';

export interface PgTransactionStoreOptions {
  /** A pool on the migrated database (store/migrations/0001-...sql); the store never ends it. */
  pool: PgPool;
  /** Remembered page ends (defaults.reportingPageCursors). */
  pageCursors?: number;
  /** How long a CSV page read ahead is kept (defaults.reportingReadAheadMs); 0: none is read ahead. */
  readAheadMs?: number;
  /** The clock of the read-ahead's lifetime, in ms (tests drive it); performance.now() by default. */
  now?: () => number;
}

const COLUMN: Record<DateFilter, string> = {
  bookedDate: 'booked_at',
  startDate: 'start_date',
  endDate: 'end_date',
  lastUpdatedDate: 'last_updated',
};

/** The SQL of each tally dimension; `booked_at` is fixed-width ISO 8601, so its first 7 characters are the month. */
const TALLY_KEY: Record<TallyDimension, string> = {
  month: 'substr(booked_at, 1, 7)',
  campaign: 'campaign',
  device: 'device',
  supplier: 'supplier',
};

const ROW_COLUMNS = `supplier, booking_id, click_id, aid, partner_id, campaign, device, booked_at, start_date, end_date, status,
  commission_cents, quantity, information, destination, user_country, last_updated`;

/** Rows per multi-row upsert statement of a report. */
const WRITE_BATCH = 2_000;

// Any fixed 32-bit number: applying one supplier's report is serialised across processes (the
// scheduled sync of one gateway and `staygate transactions sync` elsewhere), so its counts are exact.
const REPORT_LOCK = 734_920_156;

/** Byte order of UTF-8 text, as COLLATE "C" (and SQLite) compare it. */
function compareText(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** As the SQLite store: a day's dates and times sort at or above the day and below the end day followed by 'T24'. */
function bounds(startDate: string, endDate: string): [string, string] {
  return [startDate, `${endDate}T24`];
}

/** Where a page ended: the sort key of its last row. */
type PageEnd = [value: string, supplier: string, bookingId: string];

/**
 * A page's rows in the export's order: the partner's rows in the filter's range from its start
 * ($3 lo) or after a remembered key ($3..$5), then LIMIT and OFFSET (their parameters named).
 */
function pageRange(filter: DateFilter, resume: boolean): { where: string; order: string; limit: string; offset: string } {
  const c = COLUMN[filter];
  return resume
    ? {
        where: `partner_id = $1 AND ${c} >= $3 AND ${c} < $2 AND (${c} > $3 OR supplier > $4 OR (supplier = $4 AND booking_id > $5))`,
        order: `ORDER BY ${c}, supplier, booking_id`,
        limit: '$6',
        offset: '$7',
      }
    : { where: `partner_id = $1 AND ${c} >= $3 AND ${c} < $2`, order: `ORDER BY ${c}, supplier, booking_id`, limit: '$4', offset: '$5' };
}

const VERSION = "(SELECT value FROM transactions_meta WHERE name = 'version')";

/**
 * The SQL of a page of records: the row columns of each, with the data version and its sort key,
 * read in the statement's one snapshot.
 */
function rowsSql(filter: DateFilter, resume: boolean): string {
  const { where, order, limit, offset } = pageRange(filter, resume);
  return `SELECT ${ROW_COLUMNS}, ${COLUMN[filter]} AS k1, supplier AS k2, booking_id AS k3, ${VERSION} AS version
    FROM transactions WHERE ${where} ${order} LIMIT ${limit} OFFSET ${offset}`;
}

/**
 * The SQL of a CSV page, one row: its lines concatenated by PostgreSQL (in the page's order: the
 * aggregate reads the ordered, limited subquery as it comes, as SQLite's group_concat does in the
 * SQLite store), how many, the sort key of the page's last row when the page is full (an
 * index-only scan of the same range), and the data version, in one snapshot. One row of one
 * text instead of 500 rows of five: half the CPU of PostgreSQL and the gateway together, which
 * the export's rate was bound by (docs/decisions.md 97).
 */
function csvPageSql(filter: DateFilter, resume: boolean): string {
  const { where, order, limit, offset } = pageRange(filter, resume);
  return `SELECT page.lines, page.n, last.k1, last.k2, last.k3, ${VERSION} AS version
    FROM (SELECT string_agg(csv_line, '') AS lines, count(*)::int AS n
      FROM (SELECT csv_line FROM transactions WHERE ${where} ${order} LIMIT ${limit} OFFSET ${offset}) lines) page
    LEFT JOIN (SELECT ${COLUMN[filter]} AS k1, supplier AS k2, booking_id AS k3 FROM transactions
      WHERE ${where} ${order} LIMIT 1 OFFSET ${offset} + ${limit} - 1) last ON true`;
}

/** A transaction row's columns in the upsert's order, as arrays (one per column) for unnest. */
const UPSERT = `INSERT INTO transactions (${ROW_COLUMNS}, version_key, csv_line)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
    $10::text[], $11::text[], $12::int8[], $13::int4[], $14::text[], $15::text[], $16::text[], $17::text[], $18::text[], $19::text[])
  ON CONFLICT (supplier, booking_id) DO UPDATE SET
    click_id = excluded.click_id, aid = excluded.aid, partner_id = coalesce(excluded.partner_id, transactions.partner_id),
    campaign = excluded.campaign, device = excluded.device, booked_at = excluded.booked_at, start_date = excluded.start_date,
    end_date = excluded.end_date, status = excluded.status, commission_cents = excluded.commission_cents,
    quantity = excluded.quantity, information = excluded.information, destination = excluded.destination,
    user_country = excluded.user_country, last_updated = excluded.last_updated, version_key = excluded.version_key,
    csv_line = excluded.csv_line
  WHERE excluded.last_updated > transactions.last_updated
     OR (excluded.last_updated = transactions.last_updated AND excluded.version_key > transactions.version_key)`;

async function upsertRows(client: PgClient, rows: readonly (TransactionRow & { versionKey: string; csvLine: string })[]): Promise<void> {
  for (let start = 0; start < rows.length; start += WRITE_BATCH) {
    const batch = rows.slice(start, start + WRITE_BATCH);
    const column = <K extends keyof (typeof batch)[number]>(key: K) => batch.map((row) => row[key]);
    await client.query(UPSERT, [
      column('supplier'),
      column('bookingId'),
      column('clickId'),
      column('aid'),
      column('partnerId'),
      column('campaign'),
      column('device'),
      column('bookedAt'),
      column('startDate'),
      column('endDate'),
      column('status'),
      column('commissionCents'),
      column('quantity'),
      column('information'),
      column('destination'),
      column('userCountry'),
      column('lastUpdated'),
      column('versionKey'),
      column('csvLine'),
    ]);
  }
}

const BUMP = "UPDATE transactions_meta SET value = value + 1 WHERE name = 'version'";

/**
 * Transactions in PostgreSQL, shared by every gateway and the CLI. A report is one database
 * transaction (durable at COMMIT); a CSV page is one statement's one row (docs/decisions.md 97).
 */
export async function createPgTransactionStore(options: PgTransactionStoreOptions): Promise<TransactionStore> {
  const { pool } = options;
  await rerenderCsv(pool);

  const pageEnds = new LRUCache<string, { version: string; end: PageEnd }>({ max: options.pageCursors ?? defaults.reportingPageCursors });
  const cursorKey = (q: TransactionQuery, page: number) =>
    [q.partnerId, q.dateFilter, q.startDate, q.endDate, q.limit, page].join('\u0001');

  type Sql = (filter: DateFilter, resume: boolean) => string;

  /** The statement and parameters of `query`'s page, `limit` rows of it. */
  function page(query: TransactionQuery, sql: Sql, limit: number) {
    const [lo, hi] = bounds(query.startDate, query.endDate);
    const previous = query.page > 0 ? pageEnds.get(cursorKey(query, query.page - 1)) : undefined;
    // A remembered end is used only when the rows read carry the same data version (checked after).
    const resume = previous?.end ?? null;
    const text = sql(query.dateFilter, resume !== null);
    return {
      // Named: each connection parses and plans it once (a page is exported 400 times in a row).
      name: `${sql.name}:${query.dateFilter}:${resume !== null}`,
      text,
      values:
        resume !== null
          ? [query.partnerId, hi, resume[0], resume[1], resume[2], limit, 0]
          : [query.partnerId, hi, lo, limit, query.page * query.limit],
      resumedFrom: previous?.version ?? null,
    };
  }

  function remember(query: TransactionQuery, last: Keyed) {
    pageEnds.set(cursorKey(query, query.page), { version: last.version, end: [last.k1, last.k2, last.k3] });
  }

  type Keyed = { k1: string; k2: string; k3: string; version: string };

  /**
   * The page's rows and `extra` more, by the remembered end when it is of the data read, else by
   * OFFSET. `version`: the data version of what was read, null when nothing was.
   */
  async function readPage<T extends QueryResultRow>(
    query: TransactionQuery,
    sql: Sql,
    extra: number,
    version: (rows: T[]) => string | null,
  ): Promise<T[]> {
    const first = page(query, sql, query.limit + extra);
    const { rows } = await pool.query<T>({ name: first.name, text: first.text, values: first.values });
    if (first.resumedFrom === null || version(rows) === first.resumedFrom) return rows;
    // The data moved since that page end was read (or nothing follows it): what OFFSET gives.
    pageEnds.delete(cursorKey(query, query.page - 1));
    const again = page(query, sql, query.limit + extra);
    return (await pool.query<T>({ name: again.name, text: again.text, values: again.values })).rows;
  }

  type CsvPage = { lines: string | null; n: number; k1: string | null; k2: string | null; k3: string | null; version: string };

  /** A CSV page read now; a full page's end is remembered, so the next page seeks there. */
  async function readCsvPage(query: TransactionQuery): Promise<CsvPage> {
    // One statement on the shared pool, one round trip, one snapshot, one row: no connection is
    // held while the client reads (docs/decisions.md 97).
    const [csv] = await readPage<CsvPage>(query, csvPageSql, 0, ([row]) => (row.n > 0 ? row.version : null));
    if (csv.n === query.limit && csv.k1 !== null) remember(query, csv as CsvPage & Keyed);
    return csv;
  }

  // Read-ahead (docs/decisions.md 103): an export asks for page after page, each a round trip
  // client -> gateway -> PostgreSQL and back; the next page is read while the client takes this
  // one, kept briefly under the partner and the exact query (cursorKey), served once. Pages read
  // ahead are dropped when this store writes, and never served past their lifetime: a write by
  // another process (another gateway's report sync, the CLI) can be missed for that long.
  const readAheadMs = options.readAheadMs ?? defaults.reportingReadAheadMs;
  const readAhead =
    readAheadMs > 0
      ? new LRUCache<string, Promise<CsvPage>>({
          max: defaults.reportingReadAheadPages,
          ttl: readAheadMs,
          // Every lookup asks the clock (the default caches it for 1 ms on a timer).
          ttlResolution: 0,
          ...(options.now ? { perf: { now: options.now } } : {}),
        })
      : null;

  const inFlight = new Set<Promise<CsvPage>>();

  async function* csvPage(query: TransactionQuery): AsyncGenerator<string> {
    const key = cursorKey(query, query.page);
    const ahead = readAhead?.get(key);
    if (ahead !== undefined) readAhead!.delete(key);
    // A read ahead that failed is read again now: the partner gets what a fresh read gives.
    const csv = ahead === undefined ? await readCsvPage(query) : await ahead.catch(() => readCsvPage(query));
    if (readAhead !== null && csv.n === query.limit) {
      const next = { ...query, page: query.page + 1 };
      const reading = readCsvPage(next);
      reading.catch(() => {}); // served (and read again) only if asked for
      // Tracked until it settles, dropped from the cache or not: close() waits for it.
      inFlight.add(reading);
      void reading.finally(() => inFlight.delete(reading)).catch(() => {});
      readAhead.set(cursorKey(next, next.page), reading);
    }
    if (csv.n > 0) yield csv.lines!;
  }

  async function syncState(supplier: SupplierId): Promise<SupplierSyncState> {
    const { rows } = await pool.query<{ synced_through: string; synced_at: string }>(
      'SELECT synced_through, synced_at FROM report_sync WHERE supplier = $1',
      [supplier],
    );
    return { syncedThrough: rows[0]?.synced_through ?? null, syncedAt: rows[0]?.synced_at ?? null };
  }

  /**
   * A report or an import, all or nothing: the upserts under the supplier's lock, then `record`
   * keeps what it was (its synced period, or the import) in the same transaction.
   */
  async function applyRows(
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
      // The report's rows in order, each against what is held or what an earlier row of the
      // report put there: the same outcome and counts as applying them one by one (the SQLite
      // store), written as one multi-row upsert of each booking's winner.
      const result: ApplyReportResult = { received: rows.length, inserted: 0, updated: 0, unchanged: 0, changes: [] };
      const winners = new Map<string, TransactionRow & { versionKey: string; csvLine: string }>();
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
        winners.set(row.bookingId, { ...row, versionKey: key, csvLine: csvLine(toRecord(row)) });
      }
      await upsertRows(client, [...winners.values()]);
      await record(client, result);
      if (winners.size > 0) await client.query(BUMP);
      return result;
    }).finally(() => readAhead?.clear());
  }

  return {
    applyReport(supplier, rows, sync) {
      return applyRows(supplier, rows, (client) =>
        client.query(
          `INSERT INTO report_sync (supplier, synced_through, synced_at) VALUES ($1, $2, $3)
          ON CONFLICT (supplier) DO UPDATE SET synced_through = greatest(report_sync.synced_through, excluded.synced_through),
            synced_at = excluded.synced_at`,
          [supplier, sync.syncedThrough, sync.syncedAt],
        ),
      );
    },
    applyImport(supplier, rows, run) {
      return applyRows(supplier, rows, (client, result) =>
        client.query(
          `INSERT INTO transaction_imports (supplier, file, imported_at, rows, inserted, updated, unchanged, unattributed)
          VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
          ON CONFLICT (supplier) DO UPDATE SET file = excluded.file, imported_at = excluded.imported_at, rows = excluded.rows,
            inserted = excluded.inserted, updated = excluded.updated, unchanged = excluded.unchanged, unattributed = excluded.unattributed`,
          [supplier, run.file, run.importedAt, result.received, result.inserted, result.updated, result.unchanged, run.unattributed],
        ),
      );
    },
    syncState,
    async assignPartners(owners) {
      if (owners.size === 0) return 0;
      return inPgTransaction(pool, async (client) => {
        const { rowCount } = await client.query(
          `UPDATE transactions t SET partner_id = o.partner
          FROM unnest($1::text[], $2::text[]) AS o(aid, partner) WHERE t.aid = o.aid AND t.partner_id IS NULL`,
          [[...owners.keys()], [...owners.values()]],
        );
        const changed = rowCount ?? 0;
        if (changed > 0) await client.query(BUMP);
        return changed;
      }).finally(() => readAhead?.clear());
    },
    async query(query) {
      const rows = await readPage<TransactionColumns & Keyed>(query, rowsSql, 1, (read) => read[0]?.version ?? null);
      const hasMore = rows.length > query.limit;
      if (hasMore) rows.pop();
      if (rows.length === query.limit) remember(query, rows[rows.length - 1]);
      return { records: rows.map((row) => toRecord(fromColumns(row))), hasMore };
    },
    csvPage,
    async tally({ partnerId, startDate, endDate, by }) {
      const { rows } = await pool.query<{ key: string | null; status: BookingStatus; bookings: number; cents: string }>(
        `SELECT ${TALLY_KEY[by]} AS key, status, count(*)::int AS bookings, sum(commission_cents) AS cents FROM transactions
          WHERE partner_id = $1 AND booked_at >= $2 AND booked_at < $3 GROUP BY 1, 2`,
        [partnerId, ...bounds(startDate, endDate)],
      );
      return rows.map((r): TransactionTally => ({ key: r.key, status: r.status, bookings: r.bookings, commissionCents: Number(r.cents) }));
    },
    async latest({ partnerId, startDate, endDate, limit }) {
      const { rows } = await pool.query<TransactionColumns>(
        `SELECT ${ROW_COLUMNS} FROM transactions
        WHERE partner_id = $1 AND booked_at >= $2 AND booked_at < $3 ORDER BY booked_at DESC, supplier DESC, booking_id DESC LIMIT $4`,
        [partnerId, ...bounds(startDate, endDate), limit],
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
    async stats(): Promise<TransactionStats> {
      const { rows } = await pool.query<{ supplier: string; n: number; unattributed: number }>(
        'SELECT supplier, count(*)::int AS n, count(*) FILTER (WHERE partner_id IS NULL)::int AS unattributed FROM transactions GROUP BY supplier',
      );
      const { rows: synced } = await pool.query<{ supplier: string; synced_through: string; synced_at: string }>(
        'SELECT * FROM report_sync',
      );
      const { rows: imports } = await pool.query<{ supplier: string } & TransactionImport>(
        `SELECT supplier, file, imported_at AS "importedAt", rows, inserted, updated, unchanged, unattributed FROM transaction_imports`,
      );
      const bySupplier = {} as TransactionStats['bySupplier'];
      for (const supplier of SUPPLIER_IDS) {
        const state = synced.find((s) => s.supplier === supplier);
        const run = imports.find((i) => i.supplier === supplier);
        bySupplier[supplier] = {
          syncedThrough: state?.synced_through ?? null,
          syncedAt: state?.synced_at ?? null,
          transactions: rows.find((r) => r.supplier === supplier)?.n ?? 0,
          lastImport:
            run === undefined
              ? null
              : {
                  file: run.file,
                  importedAt: run.importedAt,
                  rows: run.rows,
                  inserted: run.inserted,
                  updated: run.updated,
                  unchanged: run.unchanged,
                  unattributed: run.unattributed,
                },
        };
      }
      return { total: rows.reduce((a, r) => a + r.n, 0), unattributed: rows.reduce((a, r) => a + r.unattributed, 0), bySupplier };
    },
    async close() {
      // The pool belongs to whoever opened it (open-stores.ts); pages still being read ahead
      // finish first, so it is not ended under them.
      readAhead?.clear();
      await Promise.allSettled([...inFlight]);
    },
  };
}

/** Lines rendered by an older CSV_FORMAT are rendered again, once, by whichever process opens first. */
async function rerenderCsv(pool: PgPool): Promise<void> {
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
