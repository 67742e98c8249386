import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { defaults } from '../defaults.ts';
import { SUPPLIER_IDS, type HotelIdRef, type Stay } from '../types.ts';
import { decodeIndexChunk, encodeIndexChunk, INDEX_CHUNK_ROWS } from './index-chunk.ts';
import type { IndexRow, RankedStay, Store } from './store.ts';

export interface SqliteStoreOptions {
  /** File of the database; ':memory:' for a throw-away store. Missing parent folders are created. */
  path: string;
}

/**
 * Bumped when the inventory tables change shape. The inventory is a copy of the suppliers'
 * feeds, so an old layout is dropped and re-ingested rather than migrated.
 */
const SCHEMA_VERSION = 4; // 4: index chunks carry each listing's rating and stars

const INVENTORY_VERSION_KEY = 'inventory_version';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) WITHOUT ROWID;

  -- One row per stay: its service id and the whole Stay as JSON, for getStays(). idx is the
  -- rowid, so lookups by idx need no extra index.
  CREATE TABLE IF NOT EXISTS stays (
    idx INTEGER PRIMARY KEY,
    id TEXT NOT NULL,
    doc TEXT NOT NULL
  );

  -- The index rows of INDEX_CHUNK_ROWS consecutive stays per row, packed (store/index-chunk.ts):
  -- the boot-time scan of a million stays is ~60 reads, not a million rows of a dozen cells.
  CREATE TABLE IF NOT EXISTS index_chunks (
    first_idx INTEGER PRIMARY KEY,
    row_count INTEGER NOT NULL,
    numbers BLOB NOT NULL,
    h3 TEXT NOT NULL,
    names TEXT NOT NULL
  );

  -- Every supplier id of every stay.
  CREATE TABLE IF NOT EXISTS listing_ids (
    supplier_stay_id TEXT NOT NULL,
    supplier INTEGER NOT NULL, -- index in SUPPLIER_IDS
    idx INTEGER NOT NULL
  );
`;

/**
 * Lookup indexes, dropped before a bulk replace and built after it: sorting once is several
 * times faster than inserting 160k random keys into a b-tree. listing_ids_key leads with the id,
 * so a bare hotelids entry finds every supplier's match in one range, a prefixed one narrows by
 * supplier; it covers idx, so no table row is read.
 */
const INDEXES = `
  CREATE UNIQUE INDEX IF NOT EXISTS stays_id ON stays (id);
  CREATE INDEX IF NOT EXISTS listing_ids_key ON listing_ids (supplier_stay_id, supplier, idx);
`;
const DROP_INDEXES = 'DROP INDEX IF EXISTS stays_id; DROP INDEX IF EXISTS listing_ids_key;';

const SUPPLIER_INDEX = new Map<string, number>(SUPPLIER_IDS.map((id, i) => [id, i]));

function checkDense(stays: readonly RankedStay[]): void {
  const n = stays.length;
  const seenIdx = new Uint8Array(n);
  const seenRank = new Uint8Array(n);
  for (const stay of stays) {
    if (!Number.isInteger(stay.idx) || stay.idx < 0 || stay.idx >= n || seenIdx[stay.idx]) {
      throw new Error(`replaceInventory: idx must be dense 0..${n - 1}, got ${stay.idx} (stay ${stay.id})`);
    }
    if (!Number.isInteger(stay.rank) || stay.rank < 0 || stay.rank >= n || seenRank[stay.rank]) {
      throw new Error(`replaceInventory: rank must be dense 0..${n - 1}, got ${stay.rank} (stay ${stay.id})`);
    }
    seenIdx[stay.idx] = 1;
    seenRank[stay.rank] = 1;
  }
}

/**
 * The embedded Store: one SQLite file, WAL so readers never wait for the writer, synchronous=FULL
 * so an ingest that returned is on disk (the next start trusts it and skips ingestion).
 * better-sqlite3 is synchronous; the async methods only honour the Store contract.
 */
export function createSqliteStore(options: SqliteStoreOptions): Store {
  if (options.path !== ':memory:' && options.path !== '') mkdirSync(dirname(options.path), { recursive: true });
  const db = new Database(options.path);
  // Before anything is written (it only applies to a new file): rows of ~1 KB pack better and a
  // bulk replace writes fewer pages than with the 4 KB default.
  db.pragma('page_size = 8192');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  // A replace writes a WAL as big as the inventory; without a limit the file keeps that size forever.
  db.pragma('journal_size_limit = 67108864');

  db.transaction(() => {
    const userVersion = db.pragma('user_version', { simple: true }) as number;
    if (userVersion !== SCHEMA_VERSION) {
      db.exec('DROP TABLE IF EXISTS stays; DROP TABLE IF EXISTS stay_docs; DROP TABLE IF EXISTS index_chunks; DROP TABLE IF EXISTS listing_ids;');
    }
    db.exec(SCHEMA);
    db.exec(INDEXES);
    if (userVersion !== SCHEMA_VERSION) {
      // Without its tables the old version label would claim an inventory that is gone.
      db.prepare('DELETE FROM meta WHERE key = ?').run(INVENTORY_VERSION_KEY);
      db.pragma(`user_version = ${SCHEMA_VERSION}`);
    }
  })();

  const getVersion = db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?');
  const setVersion = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  const insertStay = db.prepare('INSERT INTO stays (idx, id, doc) VALUES (?, ?, ?)');
  const insertChunk = db.prepare('INSERT INTO index_chunks (first_idx, row_count, numbers, h3, names) VALUES (?, ?, ?, ?, ?)');
  const insertListingId = db.prepare('INSERT INTO listing_ids (supplier_stay_id, supplier, idx) VALUES (?, ?, ?)');
  const selectChunk = db.prepare<[number], { first_idx: number; row_count: number; numbers: Buffer; h3: string; names: string }>(
    'SELECT first_idx, row_count, numbers, h3, names FROM index_chunks WHERE first_idx >= ? ORDER BY first_idx LIMIT 1');
  const selectDoc = db.prepare<[number], { doc: string }>('SELECT doc FROM stays WHERE idx = ?');
  const selectByServiceId = db.prepare<[string], { idx: number }>('SELECT idx FROM stays WHERE id = ?');
  const selectByAnySupplierId = db.prepare<[string], { idx: number }>('SELECT idx FROM listing_ids WHERE supplier_stay_id = ?');
  const selectBySupplierId = db.prepare<[string, number], { idx: number }>(
    'SELECT idx FROM listing_ids WHERE supplier_stay_id = ? AND supplier = ?');

  const currentVersion = (): string | null => getVersion.get(INVENTORY_VERSION_KEY)?.value ?? null;

  const replace = db.transaction((stays: readonly RankedStay[], version: string) => {
    db.exec(`${DROP_INDEXES} DELETE FROM stays; DELETE FROM index_chunks; DELETE FROM listing_ids;`);
    // In idx order, whatever order they came in (checkDense made sure idx is a permutation).
    const byIdx: RankedStay[] = new Array(stays.length);
    for (const stay of stays) byIdx[stay.idx] = stay;
    for (const ranked of byIdx) {
      const { rank: _rank, ...stay } = ranked;
      insertStay.run(stay.idx, stay.id, JSON.stringify(stay));
      for (const listing of stay.listings) {
        insertListingId.run(listing.supplierStayId, SUPPLIER_INDEX.get(listing.supplier), stay.idx);
      }
    }
    for (let from = 0; from < byIdx.length; from += INDEX_CHUNK_ROWS) {
      const chunk = encodeIndexChunk(byIdx.slice(from, from + INDEX_CHUNK_ROWS));
      insertChunk.run(chunk.firstIdx, chunk.rowCount, chunk.numbers, chunk.h3, chunk.names);
    }
    // A duplicate service id fails here and rolls the whole replace back.
    db.exec(INDEXES);
    setVersion.run(INVENTORY_VERSION_KEY, version);
  });

  let closed = false;

  return {
    async inventoryVersion() {
      return currentVersion();
    },

    async replaceInventory(stays, version) {
      checkDense(stays);
      replace(stays, version);
    },

    async *indexRows(batchSize = defaults.indexRowsBatchSize) {
      if (!(batchSize >= 1)) throw new RangeError(`indexRows: batchSize must be >= 1, got ${batchSize}`);
      // One chunk per read (no cursor held across yields, so other calls may run meanwhile); a
      // replace between two reads would mix inventories, so it fails loudly.
      const version = currentVersion();
      let batch: IndexRow[] = [];
      const full: IndexRow[][] = [];
      const emit = (row: IndexRow): void => {
        batch.push(row);
        if (batch.length === batchSize) {
          full.push(batch);
          batch = [];
        }
      };
      for (let from = 0; ;) {
        if (from > 0 && currentVersion() !== version) throw new Error('indexRows: the inventory was replaced while it was read');
        const chunk = selectChunk.get(from);
        if (chunk === undefined) break;
        decodeIndexChunk({ firstIdx: chunk.first_idx, rowCount: chunk.row_count, numbers: chunk.numbers, h3: chunk.h3, names: chunk.names }, emit);
        yield* full.splice(0);
        from = chunk.first_idx + chunk.row_count;
      }
      if (batch.length > 0) yield batch;
    },

    async getStays(idxs) {
      const stays: Stay[] = [];
      for (const idx of idxs) {
        const row = Number.isInteger(idx) ? selectDoc.get(idx) : undefined;
        if (row) stays.push(JSON.parse(row.doc) as Stay);
      }
      return stays;
    },

    async resolveHotelIds(refs: readonly HotelIdRef[]) {
      return refs.map((ref) => {
        const found = new Set<number>();
        if (ref.supplier === null) {
          for (const row of selectByServiceId.all(ref.id)) found.add(row.idx);
          for (const row of selectByAnySupplierId.all(ref.id)) found.add(row.idx);
        } else {
          const supplier = SUPPLIER_INDEX.get(ref.supplier);
          if (supplier !== undefined) for (const row of selectBySupplierId.all(ref.id, supplier)) found.add(row.idx);
        }
        return [...found].sort((a, b) => a - b);
      });
    },

    async close() {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
}
