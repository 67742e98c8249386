import type { HotelIdRef, Stay } from '../types.ts';
import { SUPPLIER_INDEX, stayFromDoc } from './content-rows.ts';
import { indexChunksFrom, type StoredIndexChunk } from './index-chunk.ts';
import { pgVersionTables } from './pg-content-tables.ts';
import type { PgPool } from './pg-pool.ts';
import type { VersionReader } from './store.ts';

/** Stays per read of allStays. */
const READ_BATCH = 2_000;

/** The reads of one content version in PostgreSQL: its tables never change once published. */
export function pgVersionReader(pool: PgPool, no: number): VersionReader {
  const t = pgVersionTables(no);
  // Named statements: each pooled connection parses and plans them once (a search's reads are hot).
  const getStaysSql = { name: `stays_v${no}_get`, text: `SELECT idx, doc FROM ${t.stays} WHERE idx = ANY($1::int[])` };
  const resolveSql = {
    name: `stays_v${no}_resolve`,
    // ord: the ref's position; supplier -1 = a bare id (any supplier, or the service id).
    text: `WITH r AS (SELECT * FROM unnest($1::text[], $2::int[]) WITH ORDINALITY AS r(id, supplier, ord))
      SELECT r.ord::int AS ord, s.idx FROM r JOIN ${t.stays} s ON r.supplier = -1 AND s.id = r.id
      UNION
      SELECT r.ord::int AS ord, l.idx FROM r JOIN ${t.listingIds} l ON l.supplier_stay_id = r.id AND (r.supplier = -1 OR l.supplier = r.supplier)`,
  };
  return {
    no,
    indexChunks() {
      // One chunk per query: ~60 reads for a million stays.
      return indexChunksFrom(async (from) => {
        const { rows } = await pool.query<StoredIndexChunk>(
          // Every column: a version's table made before chunks kept cells has none (it reads as null).
          `SELECT * FROM ${t.chunks} WHERE first_idx >= $1 ORDER BY first_idx LIMIT 1`,
          [from],
        );
        return rows[0];
      });
    },
    async getStays(idxs) {
      const wanted = idxs.filter((idx) => Number.isInteger(idx) && idx >= 0 && idx <= 0x7fffffff);
      if (wanted.length === 0) return [];
      const { rows } = await pool.query<{ idx: number; doc: string }>({ ...getStaysSql, values: [wanted] });
      const byIdx = new Map(rows.map((row) => [row.idx, row.doc]));
      const stays: Stay[] = [];
      for (const idx of wanted) {
        const doc = byIdx.get(idx);
        if (doc !== undefined) stays.push(stayFromDoc(doc));
      }
      return stays;
    },
    async *allStays(batch = READ_BATCH) {
      for (let from = 0; ; from += batch) {
        const { rows } = await pool.query<{ doc: string }>(`SELECT doc FROM ${t.stays} WHERE idx >= $1 AND idx < $2 ORDER BY idx`, [
          from,
          from + batch,
        ]);
        if (rows.length === 0) return;
        yield rows.map((row) => stayFromDoc(row.doc));
      }
    },
    async resolveHotelIds(refs: readonly HotelIdRef[]) {
      const found = refs.map(() => new Set<number>());
      if (refs.length === 0) return [];
      const ids: string[] = [];
      const suppliers: number[] = [];
      for (const ref of refs) {
        ids.push(ref.id);
        // A supplier the store does not know matches nothing (-2 is no supplier's index).
        suppliers.push(ref.supplier === null ? -1 : (SUPPLIER_INDEX.get(ref.supplier) ?? -2));
      }
      const { rows } = await pool.query<{ ord: number; idx: number }>({ ...resolveSql, values: [ids, suppliers] });
      for (const row of rows) found[row.ord - 1].add(row.idx);
      return found.map((set) => [...set].sort((a, b) => a - b));
    },
  };
}
