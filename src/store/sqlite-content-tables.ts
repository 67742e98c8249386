/**
 * One content version's tables in the SQLite file, created by the publish that writes them and
 * dropped when the version is pruned (the tables every version shares are migrations/sqlite/0002's).
 * stays: the whole Stay as JSON (content-rows.ts), idx as the rowid. index_chunks: INDEX_CHUNK_ROWS
 * consecutive stays' index rows per row, packed (index-chunk.ts), so the scan of a million stays is
 * ~60 reads. listing_ids: every supplier id of every stay; its index leads with the id, so a bare
 * hotelids entry finds every supplier's match in one range. Indexes exist before the rows: a
 * version is written in small transactions beside the served one (a long one would hold the file's
 * write lock against clicks and keys), never as one bulk insert.
 */
export const sqliteVersionTables = (no: number) => ({
  stays: `stays_${no}`,
  chunks: `index_chunks_${no}`,
  listingIds: `listing_ids_${no}`,
  create: `
    CREATE TABLE IF NOT EXISTS stays_${no} (idx INTEGER PRIMARY KEY, id TEXT NOT NULL, doc TEXT NOT NULL);
    CREATE UNIQUE INDEX IF NOT EXISTS stays_${no}_id ON stays_${no} (id);
    CREATE TABLE IF NOT EXISTS index_chunks_${no} (first_idx INTEGER PRIMARY KEY, row_count INTEGER NOT NULL, numbers BLOB NOT NULL, h3 TEXT NOT NULL, names TEXT NOT NULL, cells BLOB);
    CREATE TABLE IF NOT EXISTS listing_ids_${no} (supplier_stay_id TEXT NOT NULL, supplier INTEGER NOT NULL, idx INTEGER NOT NULL);
    CREATE INDEX IF NOT EXISTS listing_ids_${no}_key ON listing_ids_${no} (supplier_stay_id, supplier, idx);`,
  drop: `DROP TABLE IF EXISTS stays_${no}; DROP TABLE IF EXISTS index_chunks_${no}; DROP TABLE IF EXISTS listing_ids_${no};`,
});
