import type Database from 'better-sqlite3';
import type { HotelIdRef, Stay } from '../types.ts';
import { SUPPLIER_INDEX, stayFromDoc } from './content-rows.ts';
import { indexChunksFrom, type StoredIndexChunk } from './index-chunk.ts';
import { sqliteVersionTables } from './sqlite-content-tables.ts';
import type { VersionReader } from './store.ts';

/** Stays per batch of allStays. */
const READ_BATCH = 2_000;

/** The reads of one content version of the SQLite file, prepared once: its tables never change once published. */
export function sqliteVersionReader(db: Database.Database, no: number): VersionReader {
  const t = sqliteVersionTables(no);
  const selectChunk = db.prepare<[number], StoredIndexChunk>(
    // Every column: a version's table made before chunks kept cells has none (it reads as null).
    `SELECT * FROM ${t.chunks} WHERE first_idx >= ? ORDER BY first_idx LIMIT 1`,
  );
  const selectDoc = db.prepare<[number], { doc: string }>(`SELECT doc FROM ${t.stays} WHERE idx = ?`);
  const selectDocs = db.prepare<[number, number], { doc: string }>(`SELECT doc FROM ${t.stays} WHERE idx >= ? AND idx < ? ORDER BY idx`);
  const selectByServiceId = db.prepare<[string], { idx: number }>(`SELECT idx FROM ${t.stays} WHERE id = ?`);
  const selectByAnySupplierId = db.prepare<[string], { idx: number }>(`SELECT idx FROM ${t.listingIds} WHERE supplier_stay_id = ?`);
  const selectBySupplierId = db.prepare<[string, number], { idx: number }>(
    `SELECT idx FROM ${t.listingIds} WHERE supplier_stay_id = ? AND supplier = ?`,
  );
  return {
    no,
    indexChunks() {
      return indexChunksFrom((from) => selectChunk.get(from));
    },
    async getStays(idxs) {
      const stays: Stay[] = [];
      for (const idx of idxs) {
        const row = Number.isInteger(idx) ? selectDoc.get(idx) : undefined;
        if (row) stays.push(stayFromDoc(row.doc));
      }
      return stays;
    },
    async *allStays(batch = READ_BATCH) {
      for (let from = 0; ; from += batch) {
        const rows = selectDocs.all(from, from + batch);
        if (rows.length === 0) return;
        yield rows.map((row) => stayFromDoc(row.doc));
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
