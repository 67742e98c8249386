-- Content versions on PostgreSQL (docs/decisions.md 57 and 64), the same design as SQLite's.
-- Each version's rows live in tables of its own, created by the store when it publishes the
-- version and dropped when it is pruned (store/pg-store.ts):
--   stays_v<no>        (idx integer PRIMARY KEY, id text UNIQUE, doc text: the Stay as JSON)
--   index_chunks_v<no> (first_idx, row_count, numbers bytea, h3, names: store/index-chunk.ts)
--   listing_ids_v<no>  (supplier_stay_id, supplier, idx), indexed by (supplier_stay_id, supplier, idx)
-- A version is written and published in one transaction, so no one ever sees half of one.

-- Numbers of versions: never reused, so a dropped version's table names never return.
CREATE SEQUENCE content_version_no AS integer;

-- Every published version still kept.
CREATE TABLE content_versions (
  no integer PRIMARY KEY,
  label text NOT NULL,
  info jsonb NOT NULL DEFAULT '{}',
  published_at timestamptz NOT NULL DEFAULT now()
);

-- The served version: one row, moved in the publishing transaction.
CREATE TABLE content_current (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  no integer NOT NULL REFERENCES content_versions (no)
);

-- The stay id of every listing ever seen (supplier listing -> stay id), never deleted
-- (docs/decisions.md 58). supplier: index in SUPPLIER_IDS.
CREATE TABLE stay_ids (
  supplier smallint NOT NULL,
  supplier_stay_id text NOT NULL,
  stay_id text NOT NULL,
  PRIMARY KEY (supplier, supplier_stay_id)
);

-- The versions each open store handle reads, renewed by its heartbeat (the database's clock):
-- publishing drops no version a reader whose heartbeat is within the TTL holds.
CREATE TABLE content_readers (
  reader text NOT NULL,
  version_no integer NOT NULL,
  heartbeat_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (reader, version_no)
);
