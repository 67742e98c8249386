import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { defaults } from '../defaults.ts';
import { foldText } from '../fold-text.ts';
import { SUPPLIER_IDS, type HotelIdRef, type Stay, type StayType, type SupplierId } from '../types.ts';
import type { IndexRow, RankedStay, Store } from './store.ts';

export interface SqliteStoreOptions {
  /** File of the database; ':memory:' for a throw-away store. Missing parent folders are created. */
  path: string;
}

/**
 * Bumped when the inventory tables change shape. The inventory is a copy of the suppliers'
 * feeds, so an old layout is dropped and re-ingested rather than migrated.
 */
const SCHEMA_VERSION = 1;

const INVENTORY_VERSION_KEY = 'inventory_version';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) WITHOUT ROWID;

  -- One row per stay. idx is the rowid, so idx-ordered scans and lookups need no extra index.
  -- The filter columns feed indexRows(); doc is the whole Stay as JSON for getStays().
  CREATE TABLE IF NOT EXISTS stays (
    idx INTEGER PRIMARY KEY,
    id TEXT NOT NULL,
    rank INTEGER NOT NULL,
    lat REAL NOT NULL,
    lng REAL NOT NULL,
    h3 TEXT NOT NULL,
    type TEXT NOT NULL,
    suppliers INTEGER NOT NULL, -- bit i set = SUPPLIER_IDS[i] sells the stay
    stars REAL,
    rating REAL NOT NULL,
    review_count INTEGER NOT NULL,
    search_name TEXT NOT NULL,
    doc TEXT NOT NULL
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

/** The 16 possible supplier sets, built once and frozen: 1M index rows share them instead of allocating. */
const SUPPLIER_SETS: SupplierId[][] = Array.from({ length: 1 << SUPPLIER_IDS.length }, (_, mask) =>
  Object.freeze(SUPPLIER_IDS.filter((_, i) => (mask & (1 << i)) !== 0)) as SupplierId[]);

const SUPPLIER_INDEX = new Map<string, number>(SUPPLIER_IDS.map((id, i) => [id, i]));

function supplierMask(stay: Stay): number {
  let mask = 0;
  for (const listing of stay.listings) mask |= 1 << (SUPPLIER_INDEX.get(listing.supplier) ?? 0);
  return mask;
}

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

type IndexRowTuple = [number, number, number, number, string, string, number, number | null, number, number, string];

/**
 * The embedded Store: one SQLite file, WAL so readers never wait for the writer, synchronous=FULL
 * so an ingest that returned is on disk (the next start trusts it and skips ingestion).
 * better-sqlite3 is synchronous; the async methods only honour the Store contract.
 */
export function createSqliteStore(options: SqliteStoreOptions): Store {
  if (options.path !== ':memory:' && options.path !== '') mkdirSync(dirname(options.path), { recursive: true });
  const db = new Database(options.path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');

  db.transaction(() => {
    const userVersion = db.pragma('user_version', { simple: true }) as number;
    if (userVersion !== SCHEMA_VERSION) db.exec('DROP TABLE IF EXISTS stays; DROP TABLE IF EXISTS listing_ids;');
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
  const insertStay = db.prepare(`
    INSERT INTO stays (idx, id, rank, lat, lng, h3, type, suppliers, stars, rating, review_count, search_name, doc)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertListingId = db.prepare('INSERT INTO listing_ids (supplier_stay_id, supplier, idx) VALUES (?, ?, ?)');
  const selectIndexRows = db.prepare<[number, number]>(`
    SELECT idx, rank, lat, lng, h3, type, suppliers, stars, rating, review_count, search_name
    FROM stays WHERE idx >= ? ORDER BY idx LIMIT ?`).raw(true);
  const selectDoc = db.prepare<[number], { doc: string }>('SELECT doc FROM stays WHERE idx = ?');
  const selectByServiceId = db.prepare<[string], { idx: number }>('SELECT idx FROM stays WHERE id = ?');
  const selectByAnySupplierId = db.prepare<[string], { idx: number }>('SELECT idx FROM listing_ids WHERE supplier_stay_id = ?');
  const selectBySupplierId = db.prepare<[string, number], { idx: number }>(
    'SELECT idx FROM listing_ids WHERE supplier_stay_id = ? AND supplier = ?');

  const currentVersion = (): string | null => getVersion.get(INVENTORY_VERSION_KEY)?.value ?? null;

  const replace = db.transaction((stays: readonly RankedStay[], version: string) => {
    db.exec(`${DROP_INDEXES} DELETE FROM stays; DELETE FROM listing_ids;`);
    for (const ranked of stays) {
      const { rank, ...stay } = ranked;
      const rating = stay.averageRating;
      insertStay.run(
        stay.idx, stay.id, rank, stay.lat, stay.lng, stay.h3, stay.type, supplierMask(stay),
        rating.hotelStars, rating.value, rating.count, foldText(stay.name), JSON.stringify(stay),
      );
      for (const listing of stay.listings) {
        insertListingId.run(listing.supplierStayId, SUPPLIER_INDEX.get(listing.supplier), stay.idx);
      }
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
      // Batches are separate reads (keyset paging, no cursor held across yields, so other calls
      // may run meanwhile); a replace between two batches would mix inventories, so it fails loudly.
      const version = currentVersion();
      for (let from = 0; ;) {
        if (from > 0 && currentVersion() !== version) throw new Error('indexRows: the inventory was replaced while it was read');
        const tuples = selectIndexRows.all(from, batchSize) as IndexRowTuple[];
        if (tuples.length === 0) return;
        const rows: IndexRow[] = new Array(tuples.length);
        for (let i = 0; i < tuples.length; i++) {
          const t = tuples[i];
          rows[i] = {
            idx: t[0], rank: t[1], lat: t[2], lng: t[3], h3: t[4], type: t[5] as StayType,
            suppliers: SUPPLIER_SETS[t[6]], stars: t[7], rating: t[8], reviewCount: t[9], searchName: t[10],
          };
        }
        yield rows;
        if (tuples.length < batchSize) return;
        from = tuples[tuples.length - 1][0] + 1;
      }
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
