/**
 * One content version's tables in PostgreSQL, created by the publish that writes them (in its
 * transaction: no one sees them before the commit) and dropped when the version is pruned; the
 * tables every version shares are migrations/postgres/0002's. The rows are loaded first and the
 * keys and indexes made after: one sort each instead of a million index insertions.
 */
export const pgVersionTables = (no: number) => {
  const stays = `stays_v${no}`;
  const chunks = `index_chunks_v${no}`;
  const listingIds = `listing_ids_v${no}`;
  return {
    stays,
    chunks,
    listingIds,
    create: `CREATE TABLE ${stays} (idx integer NOT NULL, id text NOT NULL, doc text NOT NULL);
      CREATE TABLE ${chunks} (first_idx integer PRIMARY KEY, row_count integer NOT NULL, numbers bytea NOT NULL, h3 text NOT NULL, names text NOT NULL, cells bytea);
      CREATE TABLE ${listingIds} (supplier_stay_id text NOT NULL, supplier smallint NOT NULL, idx integer NOT NULL)`,
    index: `ALTER TABLE ${stays} ADD PRIMARY KEY (idx);
      CREATE UNIQUE INDEX ${stays}_id ON ${stays} (id);
      CREATE INDEX ${listingIds}_key ON ${listingIds} (supplier_stay_id, supplier, idx)`,
    drop: `DROP TABLE IF EXISTS ${stays}, ${chunks}, ${listingIds}`,
  };
};
