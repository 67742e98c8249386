import type Database from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { defaults } from '../defaults.ts';
import { openSqlite } from '../store/open-sqlite.ts';
import { SUPPLIER_IDS, type SupplierId } from '../types.ts';
import { CSV_FORMAT, csvLine } from './transaction-csv.ts';
import { fromColumns, toRecord, versionKey, type DateFilter, type TransactionColumns, type TransactionRow } from './transaction.ts';
import type { TallyDimension } from '../clicks/click-store.ts';
import type {
  ApplyReportResult,
  SupplierSyncState,
  TransactionQuery,
  TransactionImport,
  TransactionStats,
  TransactionStore,
  TransactionTally,
} from './transaction-store.ts';

export interface SqliteTransactionStoreOptions {
  /** The gateway's database file (`<data dir>/staygate.sqlite`), or ':memory:'. */
  path: string;
  /** Connections for streaming exports (defaults.reportingReadConnections); none with ':memory:'. */
  readConnections?: number;
  /** Remembered page ends (defaults.reportingPageCursors). */
  pageCursors?: number;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS transactions (
    supplier TEXT NOT NULL,
    booking_id TEXT NOT NULL,
    click_id TEXT,
    aid TEXT,
    partner_id TEXT,
    campaign TEXT,
    device TEXT NOT NULL,
    booked_at TEXT NOT NULL,      -- ISO 8601 UTC, fixed width: compares as text
    start_date TEXT NOT NULL,     -- YYYY-MM-DD
    end_date TEXT NOT NULL,
    status TEXT NOT NULL,
    commission_cents INTEGER NOT NULL,
    quantity INTEGER NOT NULL,
    information TEXT NOT NULL,
    destination TEXT NOT NULL,
    user_country TEXT NOT NULL,
    last_updated TEXT NOT NULL,   -- ISO 8601 UTC: the supplier's version of the booking
    version_key TEXT NOT NULL,    -- breaks ties between versions with the same last_updated
    csv_line TEXT NOT NULL,       -- the record rendered once at write: exports only stream it
    UNIQUE (supplier, booking_id)
  ); -- a rowid table: rows are large, and an index reaches a row by its integer rowid (2-5x faster exports than WITHOUT ROWID)
  -- One per dateFilter: a partner's page is a range of one of them, in the export's order.
  CREATE INDEX IF NOT EXISTS transactions_last_updated ON transactions (partner_id, last_updated, supplier, booking_id);
  CREATE INDEX IF NOT EXISTS transactions_booked_at ON transactions (partner_id, booked_at, supplier, booking_id);
  CREATE INDEX IF NOT EXISTS transactions_start_date ON transactions (partner_id, start_date, supplier, booking_id);
  CREATE INDEX IF NOT EXISTS transactions_end_date ON transactions (partner_id, end_date, supplier, booking_id);
  CREATE INDEX IF NOT EXISTS transactions_unowned ON transactions (aid) WHERE partner_id IS NULL;

  CREATE TABLE IF NOT EXISTS report_sync (
    supplier TEXT PRIMARY KEY,
    synced_through TEXT NOT NULL,
    synced_at TEXT NOT NULL
  ) WITHOUT ROWID;

  -- The last CSV import of each supplier (staygate transactions import), for transactions status.
  CREATE TABLE IF NOT EXISTS transaction_imports (
    supplier TEXT PRIMARY KEY,
    file TEXT NOT NULL,
    imported_at TEXT NOT NULL,
    rows INTEGER NOT NULL,
    inserted INTEGER NOT NULL,
    updated INTEGER NOT NULL,
    unchanged INTEGER NOT NULL,
    unattributed INTEGER NOT NULL
  ) WITHOUT ROWID;

  -- 'version' moves with every change of a transaction (in the same database transaction), so a
  -- remembered page end is used only on the data it was read from; 'csv_format' see CSV_FORMAT.
  CREATE TABLE IF NOT EXISTS transactions_meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
  INSERT OR IGNORE INTO transactions_meta (name, value) VALUES ('version', 0);
`;

const COLUMN: Record<DateFilter, string> = {
  bookedDate: 'booked_at',
  startDate: 'start_date',
  endDate: 'end_date',
  lastUpdatedDate: 'last_updated',
};

const ROW_COLUMNS = `supplier, booking_id, click_id, aid, partner_id, campaign, device, booked_at, start_date, end_date, status,
  commission_cents, quantity, information, destination, user_country, last_updated`;

/**
 * The [lo, hi) bounds of the filter's column for the query's UTC days, as text: a day's dates
 * ('YYYY-MM-DD') and times ('YYYY-MM-DDTHH:MM:SS.sssZ') all sort at or above the day itself and
 * below the day followed by 'T24' (ISO 8601's end of a day). No "next day" is computed: the day
 * after 9999-12-31 has no four-digit form, and "+010000-01-01" sorts below every stored date.
 */
function bounds(query: TransactionQuery): [string, string] {
  return [query.startDate, `${query.endDate}T24`];
}

/** The SQL of each tally dimension; `booked_at` is fixed-width ISO 8601, so its first 7 characters are the month. */
const TALLY_KEY: Record<TallyDimension, string> = {
  month: 'substr(booked_at, 1, 7)',
  campaign: 'campaign',
  device: 'device',
  supplier: 'supplier',
};

/** CSV lines per chunk read and written: a line is ~200-250 bytes, a chunk ~60 KB. */
const CHUNK_LINES = 250;

/** Where a page ended: the sort key of its last row. */
type PageEnd = [value: string, supplier: string, bookingId: string];

/** A connection's prepared page queries, per dateFilter and selection. */
interface PageStatements {
  byOffset: Database.Statement;
  afterKey: Database.Statement;
}

/**
 * The rows of a page, `@limit` of them from `@offset`, either counted from the start of the range
 * or after a remembered key. `shape`: the stored columns (JSON), the CSV lines of the rows
 * concatenated by SQLite in the rows' order (a subquery with ORDER BY and LIMIT runs as a
 * co-routine feeding the aggregate in order; the contract suite and the benchmark check it), or
 * the sort key alone, read from the index.
 */
function pageStatements(db: Database.Database, filter: DateFilter, shape: 'rows' | 'csv' | 'key'): PageStatements {
  const c = COLUMN[filter];
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

/** Transactions in the gateway's SQLite file (WAL, synchronous FULL: a report applied survives a hard kill). */
export function createSqliteTransactionStore(options: SqliteTransactionStoreOptions): TransactionStore {
  const memory = options.path === ':memory:' || options.path === '';
  const db = openSqlite(options.path);
  db.exec(SCHEMA);

  const upsert = db.prepare(`INSERT INTO transactions (${ROW_COLUMNS}, version_key, csv_line)
    VALUES (@supplier, @bookingId, @clickId, @aid, @partnerId, @campaign, @device, @bookedAt, @startDate, @endDate, @status,
      @commissionCents, @quantity, @information, @destination, @userCountry, @lastUpdated, @versionKey, @csvLine)
    ON CONFLICT (supplier, booking_id) DO UPDATE SET
      click_id = excluded.click_id, aid = excluded.aid, partner_id = coalesce(excluded.partner_id, transactions.partner_id),
      campaign = excluded.campaign, device = excluded.device, booked_at = excluded.booked_at, start_date = excluded.start_date,
      end_date = excluded.end_date, status = excluded.status, commission_cents = excluded.commission_cents,
      quantity = excluded.quantity, information = excluded.information, destination = excluded.destination,
      user_country = excluded.user_country, last_updated = excluded.last_updated, version_key = excluded.version_key,
      csv_line = excluded.csv_line
    WHERE excluded.last_updated > transactions.last_updated
       OR (excluded.last_updated = transactions.last_updated AND excluded.version_key > transactions.version_key)`);
  const exists = db.prepare<[string, string], { one: number }>('SELECT 1 AS one FROM transactions WHERE supplier = ? AND booking_id = ?');
  const selectOne = db.prepare<[string, string], TransactionColumns>(
    `SELECT ${ROW_COLUMNS} FROM transactions WHERE supplier = ? AND booking_id = ?`,
  );
  const saveSync = db.prepare(`INSERT INTO report_sync (supplier, synced_through, synced_at) VALUES (?, ?, ?)
    ON CONFLICT (supplier) DO UPDATE SET synced_through = max(synced_through, excluded.synced_through), synced_at = excluded.synced_at`);
  const selectSync = db.prepare<[string], { synced_through: string; synced_at: string }>(
    'SELECT synced_through, synced_at FROM report_sync WHERE supplier = ?',
  );
  const saveImport = db.prepare(`INSERT OR REPLACE INTO transaction_imports
    (supplier, file, imported_at, rows, inserted, updated, unchanged, unattributed)
    VALUES (@supplier, @file, @importedAt, @rows, @inserted, @updated, @unchanged, @unattributed)`);
  const selectImports = db.prepare<[], { supplier: string } & TransactionImport>(
    `SELECT supplier, file, imported_at AS importedAt, rows, inserted, updated, unchanged, unattributed FROM transaction_imports`,
  );
  const bump = db.prepare("UPDATE transactions_meta SET value = value + 1 WHERE name = 'version'");
  const assign = db.prepare('UPDATE transactions SET partner_id = ? WHERE aid = ? AND partner_id IS NULL');
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
  // As bounds() above: the days' own text, the end day followed by 'T24'.
  const bookedBounds = (startDate: string, endDate: string): [string, string] => [startDate, `${endDate}T24`];
  const unownedAids = db.prepare<[], { aid: string }>('SELECT DISTINCT aid FROM transactions WHERE partner_id IS NULL AND aid IS NOT NULL');

  // Lines rendered by an older CSV_FORMAT are rendered again, once.
  const format = db.prepare<[], { value: number }>("SELECT value FROM transactions_meta WHERE name = 'csv_format'").get();
  if (format?.value !== CSV_FORMAT) {
    db.transaction(() => {
      const rerender = db.prepare('UPDATE transactions SET csv_line = ? WHERE supplier = ? AND booking_id = ?');
      for (const row of db.prepare<[], TransactionColumns>(`SELECT ${ROW_COLUMNS} FROM transactions`).all()) {
        rerender.run(csvLine(toRecord(fromColumns(row))), row.supplier, row.booking_id);
      }
      db.prepare("INSERT OR REPLACE INTO transactions_meta (name, value) VALUES ('csv_format', ?)").run(CSV_FORMAT);
      bump.run();
    })();
  }

  // A report or an import: the same upserts, then `record` keeps what it was (its synced period, or the import).
  const apply = db.transaction(
    (supplier: SupplierId, rows: readonly TransactionRow[], record: (result: ApplyReportResult) => void): ApplyReportResult => {
      const result: ApplyReportResult = { received: rows.length, inserted: 0, updated: 0, unchanged: 0, changes: [] };
      for (const row of rows) {
        if (row.supplier !== supplier) throw new Error(`a ${row.supplier} row in a report of ${supplier}`);
        const existed = exists.get(supplier, row.bookingId) !== undefined;
        const changes = upsert.run({ ...row, versionKey: versionKey(row), csvLine: csvLine(toRecord(row)) }).changes;
        if (changes === 0) {
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
  );

  // Page ends of recent pages: page p+1 of the same query continues after page p's last row.
  const pageEnds = new LRUCache<string, { version: number; end: PageEnd }>({ max: options.pageCursors ?? defaults.reportingPageCursors });
  const cursorKey = (q: TransactionQuery, lo: string, hi: string, page: number) =>
    [q.partnerId, q.dateFilter, lo, hi, q.limit, page].join('\u0001');

  interface Reader {
    db: Database.Database;
    version: Database.Statement<[], { value: number }>;
    statements: Map<string, PageStatements>;
  }
  const reader = (connection: Database.Database): Reader => ({
    db: connection,
    version: connection.prepare<[], { value: number }>("SELECT value FROM transactions_meta WHERE name = 'version'"),
    statements: new Map(),
  });
  const main = reader(db);
  const maxReaders = memory ? 0 : (options.readConnections ?? defaults.reportingReadConnections);
  const idle: Reader[] = [];
  let readers = 0;

  /**
   * A page of `query` on `r`, inside the caller's read transaction: after the remembered end of
   * the previous page when it was read from the same data (version), else by OFFSET.
   */
  function pageOf(r: Reader, query: TransactionQuery) {
    const [lo, hi] = bounds(query);
    const statementsOf = (shape: 'rows' | 'csv' | 'key'): Database.Statement => {
      const key = `${query.dateFilter}|${shape}`;
      let statements = r.statements.get(key);
      if (statements === undefined) {
        statements = pageStatements(r.db, query.dateFilter, shape);
        r.statements.set(key, statements);
      }
      return resume !== null ? statements.afterKey : statements.byOffset;
    };
    const version = r.version.get()!.value;
    const previous = query.page > 0 ? pageEnds.get(cursorKey(query, lo, hi, query.page - 1)) : undefined;
    const resume = previous !== undefined && previous.version === version ? previous.end : null;
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

  async function* csvPage(query: TransactionQuery): AsyncGenerator<string> {
    let r: Reader | null = idle.pop() ?? null;
    if (r === null && readers < maxReaders) {
      r = reader(openSqlite(options.path));
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
  }

  let closed = false;
  return {
    async applyReport(supplier, rows, sync) {
      return apply(supplier, rows, () => saveSync.run(supplier, sync.syncedThrough, sync.syncedAt));
    },
    async applyImport(supplier, rows, run) {
      return apply(supplier, rows, ({ received, inserted, updated, unchanged }) =>
        saveImport.run({ supplier, ...run, rows: received, inserted, updated, unchanged }),
      );
    },
    async syncState(supplier) {
      const row = selectSync.get(supplier);
      return { syncedThrough: row?.synced_through ?? null, syncedAt: row?.synced_at ?? null };
    },
    async assignPartners(owners) {
      return db.transaction(() => {
        let changed = 0;
        for (const { aid } of unownedAids.all()) {
          const partner = owners.get(aid);
          if (partner !== undefined) changed += assign.run(partner, aid).changes;
        }
        if (changed > 0) bump.run();
        return changed;
      })();
    },
    async query(query) {
      return db.transaction(() => {
        const page = pageOf(main, query);
        const rows = page.rows(1);
        const hasMore = rows.length > query.limit;
        if (hasMore) rows.pop();
        if (rows.length === query.limit) page.remember();
        return { records: rows.map((row) => toRecord(fromColumns(row))), hasMore };
      })();
    },
    csvPage,
    async tally({ partnerId, startDate, endDate, by }) {
      return tallies[by].all(partnerId, ...bookedBounds(startDate, endDate));
    },
    async latest({ partnerId, startDate, endDate, limit }) {
      return selectLatest.all(partnerId, ...bookedBounds(startDate, endDate), limit).map((row) => toRecord(fromColumns(row)));
    },
    async get(supplier, bookingId) {
      const row = selectOne.get(supplier, bookingId);
      return row === undefined ? null : fromColumns(row);
    },
    async stats(): Promise<TransactionStats> {
      const counts = db
        .prepare<[], { total: number; unattributed: number }>(
          'SELECT count(*) AS total, coalesce(sum(partner_id IS NULL), 0) AS unattributed FROM transactions',
        )
        .get()!;
      const per = new Map(
        db
          .prepare<[], { supplier: string; n: number }>('SELECT supplier, count(*) AS n FROM transactions GROUP BY supplier')
          .all()
          .map((r) => [r.supplier, r.n]),
      );
      const imports = new Map(selectImports.all().map(({ supplier, ...run }) => [supplier, run]));
      const bySupplier = {} as TransactionStats['bySupplier'];
      for (const supplier of SUPPLIER_IDS) {
        const state: SupplierSyncState = {
          syncedThrough: selectSync.get(supplier)?.synced_through ?? null,
          syncedAt: selectSync.get(supplier)?.synced_at ?? null,
        };
        bySupplier[supplier] = { ...state, transactions: per.get(supplier) ?? 0, lastImport: imports.get(supplier) ?? null };
      }
      return { total: counts.total, unattributed: counts.unattributed, bySupplier };
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const r of idle.splice(0)) r.db.close();
      db.close();
    },
  };
}
