import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { stayIdKey, type StayIdRow } from './content-rows.ts';
import { openSqlite } from './open-sqlite.ts';
import { readerHolds } from './reader-holds.ts';
import { sqliteContentMeta } from './sqlite-content-meta.ts';
import { sqlitePublisher } from './sqlite-publish.ts';
import { sqliteVersionReader } from './sqlite-version-reader.ts';
import { StayIdMap } from './stay-id-map.ts';
import type { ContentStoreSettings, Store, VersionReader } from './store.ts';
import { writeWithoutWaiting } from './write-without-waiting.ts';

export interface SqliteStoreOptions {
  /** File of the database; ':memory:' for a throw-away store. Missing parent folders are created. */
  path: string;
  /** `config.settings` (tests shorten contentReaderTtlMs). */
  settings: ContentStoreSettings;
}

/**
 * The embedded Store: one SQLite file (its tables: migrations/sqlite/0002 and each version's,
 * sqlite-content-tables.ts), WAL so readers never wait for the writer, synchronous=FULL so a
 * publish that returned is on disk (the next start trusts it and skips ingestion). better-sqlite3
 * is synchronous; the async methods only honour the Store contract.
 */
export function createSqliteStore(options: SqliteStoreOptions): Store {
  const { settings } = options;
  const onDisk = options.path !== ':memory:' && options.path !== '';
  const db = openSqlite(options.path);
  // A publish writes a WAL as big as the inventory; without a limit the file keeps that size forever.
  db.pragma('journal_size_limit = 67108864');
  const meta = sqliteContentMeta(db);

  /** Readers of one version, prepared once: a served version is read until the gateway swaps. */
  const readers = new Map<number, VersionReader>();
  const reader = (no: number): VersionReader => {
    let found = readers.get(no);
    if (found === undefined) {
      found = sqliteVersionReader(db, no);
      readers.set(no, found);
    }
    return found;
  };
  const current = (): VersionReader | null => {
    const no = meta.currentNo();
    return no === null ? null : reader(no);
  };
  const publish = sqlitePublisher(db, meta, settings, (no) => readers.delete(no));
  const readerId = randomUUID();
  const holds = sqliteHolds(db, readerId, settings.contentReaderHeartbeatMs);
  const selectInfo = db.prepare<[number], { label: string; info: string }>(
    'SELECT label, info FROM content_versions WHERE no = ? AND published = 1',
  );
  let closed = false;

  return {
    async currentContent() {
      const no = meta.currentNo();
      if (no === null) return null;
      const row = selectInfo.get(no);
      return row === undefined ? null : { no, label: row.label, info: JSON.parse(row.info) as unknown };
    },
    publishContent: publish,
    version: reader,
    holdVersions: holds.hold,
    async stayIds() {
      const map = new StayIdMap();
      for (const row of db.prepare<[], StayIdRow>('SELECT supplier, supplier_stay_id, stay_id FROM stay_ids').iterate())
        map.set(stayIdKey(row), row.stay_id);
      return map;
    },
    indexChunks() {
      return current()?.indexChunks() ?? (async function* () {})();
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
      holds.stop();
      db.prepare('DELETE FROM content_readers WHERE reader = ?').run(readerId);
      db.close();
    },
  };
}

/** This handle's holds in `content_readers` (reader-holds.ts): rewritten in one transaction, stamped with the machine's clock. */
function sqliteHolds(db: Database.Database, readerId: string, heartbeatMs: number) {
  const deleteHolds = db.prepare('DELETE FROM content_readers WHERE reader = ?');
  const insertHold = db.prepare('INSERT INTO content_readers (reader, version_no, heartbeat_ms) VALUES (?, ?, ?)');
  const selectPublished = db.prepare<[number], { no: number }>('SELECT no FROM content_versions WHERE no = ? AND published = 1');
  const record = db.transaction((nos: readonly number[]): number[] => {
    deleteHolds.run(readerId);
    const now = Date.now();
    for (const no of nos) insertHold.run(readerId, no, now);
    return nos.filter((no) => selectPublished.get(no) !== undefined);
  });
  return readerHolds((nos) => writeWithoutWaiting(db, () => record(nos)), heartbeatMs);
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
