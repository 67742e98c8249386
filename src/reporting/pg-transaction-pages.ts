import { LRUCache } from 'lru-cache';
import type { QueryResultRow } from 'pg';
import type { PgPool } from '../store/pg-pool.ts';
import type { Settings } from '../types.ts';
import { DATE_COLUMN, dayBounds, fromColumns, ROW_COLUMNS, type TransactionColumns } from './transaction-row.ts';
import { toRecord, type DateFilter } from './transaction.ts';
import type { TransactionQuery, TransactionRecordPage } from './transaction-store.ts';

export type PgPagesSettings = Pick<Settings, 'reportingPageCursors' | 'reportingReadAheadMs' | 'reportingReadAheadPages'>;

/** Where a page ended: the sort key of its last row. */
type PageEnd = [value: string, supplier: string, bookingId: string];

/**
 * A page's rows in the export's order: the partner's rows in the filter's range from its start
 * ($3 lo) or after a remembered key ($3..$5), then LIMIT and OFFSET (their parameters named).
 */
function pageRange(filter: DateFilter, resume: boolean): { where: string; order: string; limit: string; offset: string } {
  const c = DATE_COLUMN[filter];
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
  return `SELECT ${ROW_COLUMNS}, ${DATE_COLUMN[filter]} AS k1, supplier AS k2, booking_id AS k3, ${VERSION} AS version
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
    LEFT JOIN (SELECT ${DATE_COLUMN[filter]} AS k1, supplier AS k2, booking_id AS k3 FROM transactions
      WHERE ${where} ${order} LIMIT 1 OFFSET ${offset} + ${limit} - 1) last ON true`;
}

/**
 * The pages of a partner's transactions on PostgreSQL: each page one statement on the shared pool,
 * resumed after the previous page's remembered last row when the rows read carry the same data
 * version, else by OFFSET; a CSV page's next page read ahead (docs/decisions.md 103). `now`: the
 * clock of the read-ahead's lifetime in ms (tests drive it), performance.now() by default.
 */
export function pgTransactionPages(pool: PgPool, settings: PgPagesSettings, now?: () => number) {
  const pageEnds = new LRUCache<string, { version: string; end: PageEnd }>({ max: settings.reportingPageCursors });
  const cursorKey = (q: TransactionQuery, page: number) =>
    [q.partnerId, q.dateFilter, q.startDate, q.endDate, q.limit, page].join('\u0001');

  type Sql = (filter: DateFilter, resume: boolean) => string;

  /** The statement and parameters of `query`'s page, `limit` rows of it. */
  function page(query: TransactionQuery, sql: Sql, limit: number) {
    const [lo, hi] = dayBounds(query.startDate, query.endDate);
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

  const readAhead = settings.reportingReadAheadMs > 0 ? readAheadPages<CsvPage>(settings, now) : null;

  async function* csvPage(query: TransactionQuery): AsyncGenerator<string> {
    const key = cursorKey(query, query.page);
    const ahead = readAhead?.take(key);
    // A read ahead that failed is read again now: the partner gets what a fresh read gives.
    const csv = ahead === undefined ? await readCsvPage(query) : await ahead.catch(() => readCsvPage(query));
    if (readAhead !== null && csv.n === query.limit) {
      const next = { ...query, page: query.page + 1 };
      readAhead.put(cursorKey(next, next.page), readCsvPage(next));
    }
    if (csv.n > 0) yield csv.lines!;
  }

  return {
    async query(query: TransactionQuery): Promise<TransactionRecordPage> {
      const rows = await readPage<TransactionColumns & Keyed>(query, rowsSql, 1, (read) => read[0]?.version ?? null);
      const hasMore = rows.length > query.limit;
      if (hasMore) rows.pop();
      if (rows.length === query.limit) remember(query, rows[rows.length - 1]);
      return { records: rows.map((row) => toRecord(fromColumns(row))), hasMore };
    },
    csvPage,
    /** Pages read ahead are dropped: this store wrote. */
    dropReadAhead(): void {
      readAhead?.clear();
    },
    /** Pages still being read ahead finish first, so the pool is not ended under them. */
    async close(): Promise<void> {
      await readAhead?.close();
    },
  };
}

/**
 * Read-ahead (docs/decisions.md 103): an export asks for page after page, each a round trip
 * client -> gateway -> PostgreSQL and back; the next page is read while the client takes this one,
 * kept briefly under the partner and the exact query (cursorKey), served once. Pages read ahead are
 * dropped when this store writes, and never served past their lifetime: a write by another process
 * (another gateway's report sync, the CLI) can be missed for that long.
 */
function readAheadPages<T>(settings: PgPagesSettings, now: (() => number) | undefined) {
  const pages = new LRUCache<string, Promise<T>>({
    max: settings.reportingReadAheadPages,
    ttl: settings.reportingReadAheadMs,
    // Every lookup asks the clock (the default caches it for 1 ms on a timer).
    ttlResolution: 0,
    ...(now ? { perf: { now } } : {}),
  });
  const inFlight = new Set<Promise<T>>();
  return {
    /** The page read ahead under `key`, served once. */
    take(key: string): Promise<T> | undefined {
      const page = pages.get(key);
      if (page !== undefined) pages.delete(key);
      return page;
    },
    put(key: string, reading: Promise<T>): void {
      reading.catch(() => {}); // served (and read again) only if asked for
      // Tracked until it settles, dropped from the cache or not: close() waits for it.
      inFlight.add(reading);
      void reading.finally(() => inFlight.delete(reading)).catch(() => {});
      pages.set(key, reading);
    },
    clear(): void {
      pages.clear();
    },
    async close(): Promise<void> {
      pages.clear();
      await Promise.allSettled([...inFlight]);
    },
  };
}
