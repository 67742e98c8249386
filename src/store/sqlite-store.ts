import { randomUUID } from 'node:crypto';
import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { defaults } from '../defaults.ts';
import { SUPPLIER_IDS, type HotelIdRef, type Stay } from '../types.ts';
import { checkDense } from './check-dense.ts';
import { contentDigest } from './content-digest.ts';
import { encodeIndexChunk, INDEX_CHUNK_ROWS, indexRowsFromChunks, type StoredIndexChunk } from './index-chunk.ts';
import type { RankedStay, StayIdEntry, Store, VersionReader } from './store.ts';
import { versionsToPrune } from './versions-to-prune.ts';

export interface SqliteStoreOptions {
  /** File of the database; ':memory:' for a throw-away store. Missing parent folders are created. */
  path: string;
  /** A reader silent this long no longer keeps its versions (defaults.contentReaderTtlMs; tests shorten it). */
  readerTtlMs?: number;
}

/**
 * Bumped when the inventory tables change shape. The inventory is a copy of the suppliers'
 * feeds, so an old layout is dropped and re-ingested rather than migrated.
 */
const SCHEMA_VERSION = 5; // 5: content versions side by side, and the stay id map

const INVENTORY_VERSION_KEY = 'inventory_version';
const INVENTORY_NO_KEY = 'inventory_no';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) WITHOUT ROWID;

  -- Every content version written (docs/decisions.md 57): its tables are stays_<no>,
  -- index_chunks_<no> and listing_ids_<no>; immutable once published. The served one is
  -- meta.inventory_no. digest: store/content-digest.ts, so that stays identical to the served
  -- version's publish nothing (docs/decisions.md 80).
  CREATE TABLE IF NOT EXISTS content_versions (
    no INTEGER PRIMARY KEY,
    label TEXT NOT NULL,
    published INTEGER NOT NULL DEFAULT 0,
    info TEXT NOT NULL DEFAULT '{}',
    digest TEXT
  );

  -- The stay id of every listing ever seen (supplier listing -> stay id), never deleted: a stay
  -- keeps its id while any of its listings remains, and a retired id is never handed out again.
  CREATE TABLE IF NOT EXISTS stay_ids (
    supplier INTEGER NOT NULL, -- index in SUPPLIER_IDS
    supplier_stay_id TEXT NOT NULL,
    stay_id TEXT NOT NULL,
    PRIMARY KEY (supplier, supplier_stay_id)
  ) WITHOUT ROWID;

  -- The versions each open store handle reads (docs/decisions.md 69), renewed by its heartbeat:
  -- publishing drops no version a reader whose heartbeat is within the TTL holds.
  CREATE TABLE IF NOT EXISTS content_readers (
    reader TEXT NOT NULL,
    version_no INTEGER NOT NULL,
    heartbeat_ms INTEGER NOT NULL,
    PRIMARY KEY (reader, version_no)
  ) WITHOUT ROWID;
`;

/**
 * One content version's tables. stays: the whole Stay as JSON, idx as the rowid. index_chunks:
 * INDEX_CHUNK_ROWS consecutive stays' index rows per row, packed (store/index-chunk.ts), so the
 * scan of a million stays is ~60 reads. listing_ids: every supplier id of every stay; its index
 * leads with the id, so a bare hotelids entry finds every supplier's match in one range. Indexes
 * exist before the rows: a version is written in small transactions beside the served one (a long
 * one would hold the file's write lock against clicks and keys), never as one bulk insert.
 */
const versionSchema = (no: number): string => `
  CREATE TABLE IF NOT EXISTS stays_${no} (idx INTEGER PRIMARY KEY, id TEXT NOT NULL, doc TEXT NOT NULL);
  CREATE UNIQUE INDEX IF NOT EXISTS stays_${no}_id ON stays_${no} (id);
  CREATE TABLE IF NOT EXISTS index_chunks_${no} (first_idx INTEGER PRIMARY KEY, row_count INTEGER NOT NULL, numbers BLOB NOT NULL, h3 TEXT NOT NULL, names TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS listing_ids_${no} (supplier_stay_id TEXT NOT NULL, supplier INTEGER NOT NULL, idx INTEGER NOT NULL);
  CREATE INDEX IF NOT EXISTS listing_ids_${no}_key ON listing_ids_${no} (supplier_stay_id, supplier, idx);
`;
const dropVersion = (no: number): string =>
  `DROP TABLE IF EXISTS stays_${no}; DROP TABLE IF EXISTS index_chunks_${no}; DROP TABLE IF EXISTS listing_ids_${no};`;

/** Stays written per transaction while a version is built: each holds the write lock for tens of ms. */
const WRITE_BATCH = 2_000;

const SUPPLIER_INDEX = new Map<string, number>(SUPPLIER_IDS.map((id, i) => [id, i]));

/**
 * The embedded Store: one SQLite file, WAL so readers never wait for the writer, synchronous=FULL
 * so an ingest that returned is on disk (the next start trusts it and skips ingestion).
 * better-sqlite3 is synchronous; the async methods only honour the Store contract.
 */
export function createSqliteStore(options: SqliteStoreOptions): Store {
  const onDisk = options.path !== ':memory:' && options.path !== '';
  if (onDisk) mkdirSync(dirname(options.path), { recursive: true });
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
      const tables = db
        .prepare<[], { name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND (name LIKE 'stays%' OR name LIKE 'index_chunks%' OR name LIKE 'listing_ids%' OR name IN ('content_versions', 'stay_ids'))",
        )
        .all();
      for (const { name } of tables) db.exec(`DROP TABLE IF EXISTS "${name}"`);
    }
    db.exec(SCHEMA);
    // A file of before the digest (same schema otherwise): its versions have none, so the next
    // publish writes a version, and the ones after it compare.
    const columns = db.prepare<[], { name: string }>("SELECT name FROM pragma_table_info('content_versions')").all();
    if (!columns.some((c) => c.name === 'digest')) db.exec('ALTER TABLE content_versions ADD COLUMN digest TEXT');
    if (userVersion !== SCHEMA_VERSION) {
      // Without its tables the old version label would claim an inventory that is gone.
      db.prepare('DELETE FROM meta WHERE key IN (?, ?)').run(INVENTORY_VERSION_KEY, INVENTORY_NO_KEY);
      db.pragma(`user_version = ${SCHEMA_VERSION}`);
    }
  })();

  const getMeta = db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?');
  const setMeta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  const selectInfo = db.prepare<[number], { label: string; info: string }>(
    'SELECT label, info FROM content_versions WHERE no = ? AND published = 1',
  );
  const selectDigest = db.prepare<[number], { digest: string | null }>('SELECT digest FROM content_versions WHERE no = ?');
  const updateInfo = db.prepare('UPDATE content_versions SET info = ? WHERE no = ?');
  const upsertId = db.prepare(
    'INSERT INTO stay_ids (supplier, supplier_stay_id, stay_id) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET stay_id = excluded.stay_id',
  );
  const recordIds = (entries: readonly StayIdEntry[]): void => {
    for (const e of entries) upsertId.run(SUPPLIER_INDEX.get(e.supplier), e.supplierStayId, e.stayId);
  };
  const currentNo = (): number | null => {
    const value = getMeta.get(INVENTORY_NO_KEY)?.value;
    return value === undefined ? null : Number(value);
  };
  const currentLabel = (): string | null => getMeta.get(INVENTORY_VERSION_KEY)?.value ?? null;
  const readerTtlMs = options.readerTtlMs ?? defaults.contentReaderTtlMs;

  // This handle's reads (holdVersions): one id per handle, its rows renewed by a heartbeat.
  const readerId = randomUUID();
  let held: number[] = [];
  let heartbeat: NodeJS.Timeout | null = null;
  const deleteHolds = db.prepare('DELETE FROM content_readers WHERE reader = ?');
  const insertHold = db.prepare('INSERT INTO content_readers (reader, version_no, heartbeat_ms) VALUES (?, ?, ?)');
  const selectPublished = db.prepare<[number], { no: number }>('SELECT no FROM content_versions WHERE no = ? AND published = 1');
  const recordHolds = db.transaction((nos: readonly number[]): number[] => {
    deleteHolds.run(readerId);
    const now = Date.now();
    for (const no of new Set(nos)) insertHold.run(readerId, no, now);
    return nos.filter((no) => selectPublished.get(no) !== undefined);
  });

  /** Readers of one version, prepared once: a served version is read until the gateway swaps. */
  const readers = new Map<number, VersionReader>();
  const reader = (no: number): VersionReader => {
    let found = readers.get(no);
    if (found === undefined) {
      found = versionReader(db, no);
      readers.set(no, found);
    }
    return found;
  };

  /** Writes a version's rows beside the served one, WRITE_BATCH stays a transaction, then publishes it. */
  async function publish(stays: readonly RankedStay[], label: string, info: unknown, ids?: readonly StayIdEntry[]): Promise<number> {
    checkDense(stays);
    const byIdx: RankedStay[] = new Array(stays.length);
    for (const stay of stays) byIdx[stay.idx] = stay;
    const digest = contentDigest(byIdx);
    // The served version's stays again: nothing is written but its info and the ids (docs/decisions.md 80).
    // Immediate: no other handle publishes between the comparison and the update.
    const unchanged = db
      .transaction((): number | null => {
        const served = currentNo();
        if (served === null || selectDigest.get(served)?.digest !== digest) return null;
        updateInfo.run(JSON.stringify(info ?? {}), served);
        recordIds(ids ?? []);
        return served;
      })
      .immediate();
    if (unchanged !== null) return unchanged;
    const no = db.transaction(() => {
      const next = (db.prepare<[], { no: number | null }>('SELECT max(no) AS no FROM content_versions').get()?.no ?? 0) + 1;
      db.prepare('INSERT INTO content_versions (no, label, published, info, digest) VALUES (?, ?, 0, ?, ?)').run(
        next,
        label,
        JSON.stringify(info ?? {}),
        digest,
      );
      db.exec(dropVersion(next) + versionSchema(next));
      return next;
    })();
    const insertStay = db.prepare(`INSERT INTO stays_${no} (idx, id, doc) VALUES (?, ?, ?)`);
    const insertChunk = db.prepare(`INSERT INTO index_chunks_${no} (first_idx, row_count, numbers, h3, names) VALUES (?, ?, ?, ?, ?)`);
    const insertListingId = db.prepare(`INSERT INTO listing_ids_${no} (supplier_stay_id, supplier, idx) VALUES (?, ?, ?)`);
    try {
      for (let from = 0; from < byIdx.length; from += WRITE_BATCH) {
        db.transaction(() => {
          for (const ranked of byIdx.slice(from, from + WRITE_BATCH)) {
            const { rank: _rank, ...stay } = ranked;
            insertStay.run(stay.idx, stay.id, JSON.stringify(stay));
            for (const listing of stay.listings)
              insertListingId.run(listing.supplierStayId, SUPPLIER_INDEX.get(listing.supplier), stay.idx);
          }
        })();
        await new Promise((resolve) => setImmediate(resolve)); // other work of this thread, and other connections' writes, between batches
      }
      db.transaction(() => {
        for (let from = 0; from < byIdx.length; from += INDEX_CHUNK_ROWS) {
          const chunk = encodeIndexChunk(byIdx.slice(from, from + INDEX_CHUNK_ROWS));
          insertChunk.run(chunk.firstIdx, chunk.rowCount, chunk.numbers, chunk.h3, chunk.names);
        }
      })();
      for (let from = 0; from < (ids?.length ?? 0); from += WRITE_BATCH * 5)
        db.transaction(recordIds)(ids!.slice(from, from + WRITE_BATCH * 5));
    } catch (error) {
      db.exec(dropVersion(no));
      db.prepare('DELETE FROM content_versions WHERE no = ?').run(no);
      throw error;
    }
    // Published in one step: the version pointer and label move together. Older versions are
    // dropped unless among the newest two or held by a live reader (docs/decisions.md 69): a
    // gateway reads the version it serves until it swaps, however many were published meanwhile.
    db.transaction(() => {
      db.prepare('UPDATE content_versions SET published = 1 WHERE no = ?').run(no);
      setMeta.run(INVENTORY_NO_KEY, String(no));
      setMeta.run(INVENTORY_VERSION_KEY, label);
      const cutoff = Date.now() - readerTtlMs;
      db.prepare('DELETE FROM content_readers WHERE heartbeat_ms <= ?').run(cutoff);
      const live = new Set(
        db
          .prepare<[], { version_no: number }>('SELECT DISTINCT version_no FROM content_readers')
          .all()
          .map((r) => r.version_no),
      );
      const versions = db.prepare<[], { no: number; published: number }>('SELECT no, published FROM content_versions').all();
      for (const old of versionsToPrune(
        versions.map((v) => ({ no: v.no, published: v.published === 1 })),
        no,
        live,
        defaults.contentVersionsKept,
      )) {
        db.exec(dropVersion(old));
        db.prepare('DELETE FROM content_versions WHERE no = ?').run(old);
        readers.delete(old);
      }
    })();
    // The version went through the WAL, which otherwise keeps the size of the largest write (up to
    // journal_size_limit): emptied now, so the file is all the store takes between refreshes
    // (docs/decisions.md 81). New writers wait while it runs: a short wait for readers only, and
    // when one reads on past it, the WAL is emptied at a later publish.
    const busyMs = db.pragma('busy_timeout', { simple: true }) as number;
    db.pragma('busy_timeout = 200');
    try {
      db.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      db.pragma(`busy_timeout = ${busyMs}`);
    }
    return no;
  }

  const current = (): VersionReader | null => {
    const no = currentNo();
    return no === null ? null : reader(no);
  };

  let closed = false;

  return {
    async inventoryVersion() {
      return currentLabel();
    },

    async currentContent() {
      const no = currentNo();
      if (no === null) return null;
      const row = selectInfo.get(no);
      return row === undefined ? null : { no, label: row.label, info: JSON.parse(row.info) as unknown };
    },

    async replaceInventory(stays, version) {
      await publish(stays, version, {});
    },

    async publishContent(stays, label, info, ids) {
      return publish(stays, label, info, ids);
    },

    version(no) {
      return reader(no);
    },

    async holdVersions(nos) {
      if (closed) throw new Error('holdVersions: the store is closed');
      held = [...nos];
      const readable = recordHolds(held);
      if (held.length === 0 && heartbeat !== null) {
        clearInterval(heartbeat);
        heartbeat = null;
      } else if (held.length > 0 && heartbeat === null) {
        // Renewed from this handle's own timer, so a reader's record lives exactly as long as the
        // handle (a killed process stops renewing it). Never keeps the process alive.
        heartbeat = setInterval(() => {
          try {
            recordHolds(held);
          } catch {
            // The next beat tries again; a lost minute only lets a publisher drop these versions.
          }
        }, defaults.contentReaderHeartbeatMs);
        heartbeat.unref();
      }
      return readable;
    },

    async stayIds() {
      const map = new Map<string, string>();
      for (const row of db
        .prepare<[], { supplier: number; supplier_stay_id: string; stay_id: string }>(
          'SELECT supplier, supplier_stay_id, stay_id FROM stay_ids',
        )
        .iterate()) {
        map.set(`${SUPPLIER_IDS[row.supplier]}:${row.supplier_stay_id}`, row.stay_id);
      }
      return map;
    },

    indexRows(batchSize) {
      return current()?.indexRows(batchSize) ?? (async function* () {})();
    },

    async getStays(idxs) {
      return current()?.getStays(idxs) ?? [];
    },

    async resolveHotelIds(refs) {
      return current()?.resolveHotelIds(refs) ?? refs.map(() => []);
    },

    async diskBytes() {
      if (!onDisk) return (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);
      return fileBytes(options.path) + fileBytes(`${options.path}-wal`);
    },

    async close() {
      if (closed) return;
      closed = true;
      if (heartbeat !== null) clearInterval(heartbeat);
      deleteHolds.run(readerId);
      db.close();
    },
  };
}

/** A file's size; 0 when it does not exist (no WAL between a checkpoint and the next write). */
function fileBytes(file: string): number {
  try {
    return statSync(file).size;
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return 0;
    throw error;
  }
}

/** The reads of one content version: its tables never change once published. */
function versionReader(db: Database.Database, no: number): VersionReader {
  const selectChunk = db.prepare<[number], StoredIndexChunk>(
    `SELECT first_idx, row_count, numbers, h3, names FROM index_chunks_${no} WHERE first_idx >= ? ORDER BY first_idx LIMIT 1`,
  );
  const selectDoc = db.prepare<[number], { doc: string }>(`SELECT doc FROM stays_${no} WHERE idx = ?`);
  const selectDocs = db.prepare<[number, number], { doc: string }>(`SELECT doc FROM stays_${no} WHERE idx >= ? AND idx < ? ORDER BY idx`);
  const selectByServiceId = db.prepare<[string], { idx: number }>(`SELECT idx FROM stays_${no} WHERE id = ?`);
  const selectByAnySupplierId = db.prepare<[string], { idx: number }>(`SELECT idx FROM listing_ids_${no} WHERE supplier_stay_id = ?`);
  const selectBySupplierId = db.prepare<[string, number], { idx: number }>(
    `SELECT idx FROM listing_ids_${no} WHERE supplier_stay_id = ? AND supplier = ?`,
  );
  return {
    no,
    indexRows(batchSize = defaults.indexRowsBatchSize) {
      return indexRowsFromChunks((from) => selectChunk.get(from), batchSize);
    },
    async getStays(idxs) {
      const stays: Stay[] = [];
      for (const idx of idxs) {
        const row = Number.isInteger(idx) ? selectDoc.get(idx) : undefined;
        if (row) stays.push(JSON.parse(row.doc) as Stay);
      }
      return stays;
    },
    async *allStays(batch = WRITE_BATCH) {
      for (let from = 0; ; from += batch) {
        const rows = selectDocs.all(from, from + batch);
        if (rows.length === 0) return;
        yield rows.map((row) => JSON.parse(row.doc) as Stay);
      }
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
  };
}
