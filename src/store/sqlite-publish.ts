import { setImmediate as nextTurn } from 'node:timers/promises';
import type Database from 'better-sqlite3';
import { denseByIdx } from './check-dense.ts';
import { contentDigest } from './content-digest.ts';
import { SUPPLIER_INDEX, stayDoc } from './content-rows.ts';
import { encodeIndexChunk, INDEX_CHUNK_ROWS } from './index-chunk.ts';
import { sqliteVersionTables } from './sqlite-content-tables.ts';
import type { sqliteContentMeta } from './sqlite-content-meta.ts';
import type { ChunkCellsOf, ContentStoreSettings, RankedStay, StayIdEntry } from './store.ts';
import { versionsToPrune } from './versions-to-prune.ts';

/** Stays written per transaction while a version is built: each holds the write lock for tens of ms. */
const WRITE_BATCH = 2_000;

type Meta = ReturnType<typeof sqliteContentMeta>;
type PublishSettings = Pick<ContentStoreSettings, 'contentReaderTtlMs' | 'contentVersionsKept'>;

/**
 * Store.publishContent on the SQLite file: a version's rows are written beside the served one,
 * WRITE_BATCH stays a transaction, then published in one step; `dropped(no)` hears of each version
 * pruned (the store forgets its reader).
 */
export function sqlitePublisher(db: Database.Database, meta: Meta, settings: PublishSettings, dropped: (no: number) => void) {
  const selectDigest = db.prepare<[number], { digest: string | null }>('SELECT digest FROM content_versions WHERE no = ?');
  const updateInfo = db.prepare('UPDATE content_versions SET info = ? WHERE no = ?');
  const deleteVersion = db.prepare('DELETE FROM content_versions WHERE no = ?');

  // The served version's stays again: nothing is written but its info and the ids (docs/decisions.md
  // 80). Immediate: no other handle publishes between the comparison and the update.
  const keepServed = db.transaction((digest: string, info: string, ids: readonly StayIdEntry[]): number | null => {
    const served = meta.currentNo();
    if (served === null || selectDigest.get(served)?.digest !== digest) return null;
    updateInfo.run(info, served);
    meta.recordIds(ids);
    return served;
  });

  /** A new version's number, its row (unpublished) and its empty tables; immediate, as it reads max(no) before it writes. */
  const reserve = db.transaction((label: string, info: string, digest: string): number => {
    const next = (db.prepare<[], { no: number | null }>('SELECT max(no) AS no FROM content_versions').get()?.no ?? 0) + 1;
    db.prepare('INSERT INTO content_versions (no, label, published, info, digest) VALUES (?, ?, 0, ?, ?)').run(next, label, info, digest);
    const t = sqliteVersionTables(next);
    db.exec(t.drop + t.create);
    return next;
  });

  /** Every stay's row and listing ids, WRITE_BATCH a transaction, then the index chunks and the ids. */
  async function writeRows(no: number, byIdx: readonly RankedStay[], ids: readonly StayIdEntry[], cellsOf?: ChunkCellsOf): Promise<void> {
    const t = sqliteVersionTables(no);
    const insertStay = db.prepare(`INSERT INTO ${t.stays} (idx, id, doc) VALUES (?, ?, ?)`);
    const insertChunk = db.prepare(`INSERT INTO ${t.chunks} (first_idx, row_count, numbers, h3, names, cells) VALUES (?, ?, ?, ?, ?, ?)`);
    const insertListingId = db.prepare(`INSERT INTO ${t.listingIds} (supplier_stay_id, supplier, idx) VALUES (?, ?, ?)`);
    for (let from = 0; from < byIdx.length; from += WRITE_BATCH) {
      db.transaction(() => {
        for (const stay of byIdx.slice(from, from + WRITE_BATCH)) {
          insertStay.run(stay.idx, stay.id, stayDoc(stay));
          for (const listing of stay.listings) insertListingId.run(listing.supplierStayId, SUPPLIER_INDEX.get(listing.supplier), stay.idx);
        }
      })();
      await nextTurn(); // other work of this thread, and other connections' writes, between batches
    }
    // Each chunk encoded before its write takes the lock: encoding them all inside one transaction
    // held the lock for a third of a second at 160k stays, every other writer waiting.
    for (let from = 0; from < byIdx.length; from += INDEX_CHUNK_ROWS) {
      const chunk = encodeIndexChunk(byIdx.slice(from, from + INDEX_CHUNK_ROWS), cellsOf);
      insertChunk.run(chunk.firstIdx, chunk.rowCount, chunk.numbers, chunk.h3, chunk.names, chunk.cells ?? null);
      await nextTurn();
    }
    for (let from = 0; from < ids.length; from += WRITE_BATCH * 5) {
      db.transaction(meta.recordIds)(ids.slice(from, from + WRITE_BATCH * 5));
      await nextTurn();
    }
  }

  /** A version whose write failed: its tables and row go. */
  const discard = (no: number): void => {
    db.exec(sqliteVersionTables(no).drop);
    deleteVersion.run(no);
  };

  // Published in one step: the version pointer and label move together. Older versions are
  // dropped unless among the newest two or held by a live reader (docs/decisions.md 69): a
  // gateway reads the version it serves until it swaps, however many were published meanwhile.
  const publishAndPrune = db.transaction((no: number, label: string) => {
    db.prepare('UPDATE content_versions SET published = 1 WHERE no = ?').run(no);
    meta.setCurrent(no, label);
    db.prepare('DELETE FROM content_readers WHERE heartbeat_ms <= ?').run(Date.now() - settings.contentReaderTtlMs);
    const live = new Set(
      db
        .prepare<[], { version_no: number }>('SELECT DISTINCT version_no FROM content_readers')
        .all()
        .map((r) => r.version_no),
    );
    const versions = db.prepare<[], { no: number; published: number }>('SELECT no, published FROM content_versions').all();
    const states = versions.map((v) => ({ no: v.no, published: v.published === 1 }));
    for (const old of versionsToPrune(states, no, live, settings.contentVersionsKept)) {
      discard(old);
      dropped(old);
    }
  });

  return async function publish(
    stays: readonly RankedStay[],
    label: string,
    info: unknown,
    ids: readonly StayIdEntry[] = [],
    cellsOf?: ChunkCellsOf,
  ): Promise<number> {
    const byIdx = denseByIdx(stays);
    const digest = contentDigest(byIdx);
    const infoText = JSON.stringify(info ?? {});
    const unchanged = keepServed.immediate(digest, infoText, ids);
    if (unchanged !== null) return unchanged;
    const no = reserve.immediate(label, infoText, digest);
    try {
      await writeRows(no, byIdx, ids, cellsOf);
    } catch (error) {
      discard(no);
      throw error;
    }
    publishAndPrune(no, label);
    emptyWal(db);
    return no;
  };
}

/**
 * The version went through the WAL, which otherwise keeps the size of the largest write (up to
 * journal_size_limit): emptied now, so the file is all the store takes between refreshes
 * (docs/decisions.md 81). New writers wait while it runs: a short wait for readers only, and when
 * one reads on past it, the WAL is emptied at a later publish.
 */
function emptyWal(db: Database.Database): void {
  const busyMs = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma('busy_timeout = 200');
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.pragma(`busy_timeout = ${busyMs}`);
  }
}
