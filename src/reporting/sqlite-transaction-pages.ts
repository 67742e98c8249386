import type Database from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { openSqlite } from '../store/open-sqlite.ts';
import type { Settings } from '../types.ts';
import { DATE_COLUMN, dayBounds, fromColumns, ROW_COLUMNS, type TransactionColumns } from './transaction-row.ts';
import { toRecord, type DateFilter } from './transaction.ts';
import type { TransactionQuery, TransactionRecordPage } from './transaction-store.ts';

export type SqlitePagesSettings = Pick<Settings, 'reportingReadConnections' | 'reportingPageCursors'>;

/** CSV lines per chunk read and written: a line is ~200-250 bytes, a chunk ~60 KB. */
const CHUNK_LINES = 250;

/** Where a page ended: the sort key of its last row. */
type PageEnd = [value: string, supplier: string, bookingId: string];

type Shape = 'rows' | 'csv' | 'key';

/** A connection's prepared page queries, per dateFilter and selection. */
interface PageStatements {
  byOffset: Database.Statement;
  afterKey: Database.Statement;
}

/** A connection pages are read on, with its statements. */
interface Reader {
  db: Database.Database;
  version: Database.Statement<[], { value: number }>;
  statements: Map<string, PageStatements>;
}

/**
 * The rows of a page, `@limit` of them from `@offset`, either counted from the start of the range
 * or after a remembered key. `shape`: the stored columns (JSON), the CSV lines of the rows
 * concatenated by SQLite in the rows' order (a subquery with ORDER BY and LIMIT runs as a
 * co-routine feeding the aggregate in order; the contract suite and the benchmark check it), or
 * the sort key alone, read from the index.
 */
function pageStatements(db: Database.Database, filter: DateFilter, shape: Shape): PageStatements {
  const c = DATE_COLUMN[filter];
  const order = `ORDER BY ${c}, supplier, booking_id`;
  const columns = shape === 'rows' ? ROW_COLUMNS : shape === 'csv' ? 'csv_line' : `${c} AS k1, supplier AS k2, booking_id AS k3`;
  const wrap = (sql: string) => (shape === 'csv' ? `SELECT group_concat(csv_line, '') AS lines, count(*) AS n FROM (${sql})` : sql);
  return {
    byOffset: db.prepare(
      wrap(`SELECT ${columns} FROM transactions
      WHERE partner_id = @partner AND ${c} >= @lo AND ${c} < @hi ${order} LIMIT @limit OFFSET @offset`),
    ),
    // The range starts at the last key itself (the index seeks there); ties on it are sorted out
    // by supplier and booking id.
    afterKey: db.prepare(
      wrap(`SELECT ${columns} FROM transactions
      WHERE partner_id = @partner AND ${c} >= @k1 AND ${c} < @hi
        AND (${c} > @k1 OR supplier > @k2 OR (supplier = @k2 AND booking_id > @k3))
      ${order} LIMIT @limit OFFSET @offset`),
    ),
  };
}

const readerOf = (connection: Database.Database): Reader => ({
  db: connection,
  version: connection.prepare<[], { value: number }>("SELECT value FROM transactions_meta WHERE name = 'version'"),
  statements: new Map(),
});

/**
 * The pages of a partner's transactions on the SQLite file: `query` reads a page of records on the
 * store's connection; `csvPage` streams a page's CSV on a connection of its own (up to
 * reportingReadConnections, none with ':memory:'), in one read transaction however slowly the
 * client reads. Page p+1 of a query continues after page p's remembered last row when the data
 * has not moved since (its version), else by OFFSET.
 */
export function sqliteTransactionPages(db: Database.Database, path: string, settings: SqlitePagesSettings) {
  const memory = path === ':memory:' || path === '';
  const pageEnds = new LRUCache<string, { version: number; end: PageEnd }>({ max: settings.reportingPageCursors });
  const cursorKey = (q: TransactionQuery, lo: string, hi: string, page: number) =>
    [q.partnerId, q.dateFilter, lo, hi, q.limit, page].join('\u0001');
  const main = readerOf(db);
  const maxReaders = memory ? 0 : settings.reportingReadConnections;
  const idle: Reader[] = [];
  let readers = 0;
  let closed = false;

  /** A page of `query` on `r`, inside the caller's read transaction. */
  function pageOf(r: Reader, query: TransactionQuery) {
    const [lo, hi] = dayBounds(query.startDate, query.endDate);
    const version = r.version.get()!.value;
    const previous = query.page > 0 ? pageEnds.get(cursorKey(query, lo, hi, query.page - 1)) : undefined;
    const resume = previous !== undefined && previous.version === version ? previous.end : null;
    const statementsOf = (shape: Shape): Database.Statement => {
      const key = `${query.dateFilter}|${shape}`;
      let statements = r.statements.get(key);
      if (statements === undefined) {
        statements = pageStatements(r.db, query.dateFilter, shape);
        r.statements.set(key, statements);
      }
      return resume !== null ? statements.afterKey : statements.byOffset;
    };
    const params = (limit: number, offset: number) =>
      resume !== null
        ? { partner: query.partnerId, hi, limit, offset, k1: resume[0], k2: resume[1], k3: resume[2] }
        : { partner: query.partnerId, lo, hi, limit, offset: offset + query.page * query.limit };
    return {
      /** The page's rows, and `extra` more. */
      rows: (extra: number) => statementsOf('rows').all(params(query.limit + extra, 0)) as TransactionColumns[],
      /** The CSV lines of `size` rows from `offset` within the page, as one string. */
      csv: (offset: number, size: number) => statementsOf('csv').get(params(size, offset)) as { lines: string | null; n: number },
      /** Keeps where this page ended, for the next page (once read, and only when it was full). */
      remember: () => {
        const last = statementsOf('key').get(params(1, query.limit - 1)) as { k1: string; k2: string; k3: string } | undefined;
        if (last !== undefined) pageEnds.set(cursorKey(query, lo, hi, query.page), { version, end: [last.k1, last.k2, last.k3] });
      },
    };
  }

  /** The page's CSV in chunks of CHUNK_LINES lines, each read when the consumer asks for it. */
  function* csvChunks(r: Reader, query: TransactionQuery): Generator<string> {
    const page = pageOf(r, query);
    let read = 0;
    while (read < query.limit) {
      const size = Math.min(CHUNK_LINES, query.limit - read);
      const { lines, n } = page.csv(read, size);
      if (n > 0) yield lines!;
      read += n;
      if (n < size) return;
    }
    page.remember();
  }

  return {
    query: db.transaction((query: TransactionQuery): TransactionRecordPage => {
      const page = pageOf(main, query);
      const rows = page.rows(1);
      const hasMore = rows.length > query.limit;
      if (hasMore) rows.pop();
      if (rows.length === query.limit) page.remember();
      return { records: rows.map((row) => toRecord(fromColumns(row))), hasMore };
    }),

    async *csvPage(query: TransactionQuery): AsyncGenerator<string> {
      let r: Reader | null = idle.pop() ?? null;
      if (r === null && readers < maxReaders) {
        r = readerOf(openSqlite(path));
        readers++;
      }
      if (r === null) {
        // Every streaming connection is busy: this page is read in one go (at most `limit` lines).
        yield* db.transaction(() => [...csvChunks(main, query)])();
        return;
      }
      // One read transaction for the page: every chunk and the version are of one snapshot,
      // however slowly the client reads; the connection is the export's alone meanwhile.
      r.db.exec('BEGIN');
      try {
        yield* csvChunks(r, query);
      } finally {
        r.db.exec('COMMIT');
        if (closed) r.db.close();
        else idle.push(r);
      }
    },

    /** Closes the streaming connections (one still streaming closes when its page ends). */
    close(): void {
      closed = true;
      for (const r of idle.splice(0)) r.db.close();
    },
  };
}
