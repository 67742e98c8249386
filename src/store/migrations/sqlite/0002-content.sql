-- Content versions in the gateway's SQLite file (docs/decisions.md 57), the design of
-- postgres/0002. Each version's rows live in tables of its own, created by the store when it
-- writes the version and dropped when it is pruned (store/sqlite-content-tables.ts):
--   stays_<no>        (idx INTEGER PRIMARY KEY, id TEXT UNIQUE, doc TEXT: the Stay as JSON)
--   index_chunks_<no> (first_idx, row_count, numbers BLOB, h3, names: store/index-chunk.ts)
--   listing_ids_<no>  (supplier_stay_id, supplier, idx), indexed by (supplier_stay_id, supplier, idx)
-- The served version is meta's inventory_no (PostgreSQL's content_current).

-- An inventory of before content versions (a file of user_version 1-4: one stays, index_chunks
-- and listing_ids) is a copy of the suppliers' feeds: dropped and ingested again, its label with it.
DROP TABLE IF EXISTS stays;
DROP TABLE IF EXISTS index_chunks;
DROP TABLE IF EXISTS listing_ids;

CREATE TABLE IF NOT EXISTS meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;
DELETE FROM meta WHERE key IN ('inventory_version', 'inventory_no') AND (SELECT user_version FROM pragma_user_version) < 5;

-- Every content version written; immutable once published.
CREATE TABLE IF NOT EXISTS content_versions (
  no INTEGER PRIMARY KEY,
  label TEXT NOT NULL,
  published INTEGER NOT NULL DEFAULT 0,
  info TEXT NOT NULL DEFAULT '{}'
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

-- The content layout's number before the migrations (5: versions side by side): a gateway of
-- before this step, run on the file again, reads its content as its own instead of dropping it.
PRAGMA user_version = 5;
