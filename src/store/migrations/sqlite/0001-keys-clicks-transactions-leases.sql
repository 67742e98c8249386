-- API keys, clicks, commission transactions and leases in the gateway's SQLite file: the tables of
-- postgres/0001 in SQLite's dialect, same columns and meaning. Times and days are fixed-width ISO
-- 8601 text, compared byte-wise (docs/decisions.md 74). Every statement is IF NOT EXISTS / OR
-- IGNORE: a file of before the migrations already has these tables, made by the same statements,
-- and keeps them and their rows.

CREATE TABLE IF NOT EXISTS api_keys (
  id TEXT PRIMARY KEY,
  hash BLOB NOT NULL,
  partner_id TEXT NOT NULL,
  aid TEXT NOT NULL,
  third_parties TEXT NOT NULL, -- JSON array of strings
  status TEXT NOT NULL CHECK (status IN ('active', 'pending', 'revoked')),
  limit_per_minute INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) WITHOUT ROWID;

-- One row: bumped in the same transaction as every change, so another process sees a change
-- and its new version together.
CREATE TABLE IF NOT EXISTS api_keys_version (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  version INTEGER NOT NULL
);
INSERT OR IGNORE INTO api_keys_version (id, version) VALUES (1, 0);

-- A revoked key stays revoked, whoever writes (docs/decisions.md 75): the store's compare-and-set
-- never asks for it; this refuses any other writer too.
CREATE TRIGGER IF NOT EXISTS api_keys_revoked_is_final BEFORE UPDATE OF status ON api_keys
  WHEN OLD.status = 'revoked' AND NEW.status <> 'revoked'
  BEGIN SELECT RAISE(ABORT, 'a revoked key stays revoked'); END;

-- A click's rowid tells apart clicks of the same instant in `recent` (PostgreSQL's seq).
CREATE TABLE IF NOT EXISTS clicks (
  id TEXT PRIMARY KEY,
  at TEXT NOT NULL,
  aid TEXT,
  campaign TEXT,
  stay_id TEXT NOT NULL,
  supplier TEXT NOT NULL,
  supplier_stay_id TEXT NOT NULL,
  device TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS clicks_at ON clicks (at);
-- A partner's clicks of a period (count): its aids' ranges of time.
CREATE INDEX IF NOT EXISTS clicks_aid_at ON clicks (aid, at);

CREATE TABLE IF NOT EXISTS transactions (
  supplier TEXT NOT NULL,
  booking_id TEXT NOT NULL,
  click_id TEXT,
  aid TEXT,
  partner_id TEXT,
  campaign TEXT,
  device TEXT NOT NULL,
  booked_at TEXT NOT NULL,      -- ISO 8601 UTC, fixed width: compares as text
  start_date TEXT NOT NULL,     -- YYYY-MM-DD
  end_date TEXT NOT NULL,
  status TEXT NOT NULL,
  commission_cents INTEGER NOT NULL,
  quantity INTEGER NOT NULL,
  information TEXT NOT NULL,
  destination TEXT NOT NULL,
  user_country TEXT NOT NULL,
  last_updated TEXT NOT NULL,   -- ISO 8601 UTC: the supplier's version of the booking
  version_key TEXT NOT NULL,    -- breaks ties between versions with the same last_updated
  csv_line TEXT NOT NULL,       -- the record rendered once at write: exports only stream it
  UNIQUE (supplier, booking_id)
); -- a rowid table: rows are large, and an index reaches a row by its integer rowid (2-5x faster exports than WITHOUT ROWID)
-- One per dateFilter: a partner's page is a range of one of them, in the export's order.
CREATE INDEX IF NOT EXISTS transactions_last_updated ON transactions (partner_id, last_updated, supplier, booking_id);
CREATE INDEX IF NOT EXISTS transactions_booked_at ON transactions (partner_id, booked_at, supplier, booking_id);
CREATE INDEX IF NOT EXISTS transactions_start_date ON transactions (partner_id, start_date, supplier, booking_id);
CREATE INDEX IF NOT EXISTS transactions_end_date ON transactions (partner_id, end_date, supplier, booking_id);
CREATE INDEX IF NOT EXISTS transactions_unowned ON transactions (aid) WHERE partner_id IS NULL;

CREATE TABLE IF NOT EXISTS report_sync (
  supplier TEXT PRIMARY KEY,
  synced_through TEXT NOT NULL,
  synced_at TEXT NOT NULL
) WITHOUT ROWID;

-- 'version' moves with every change of a transaction (in the same database transaction), so a
-- remembered page end is used only on the data it was read from. 'csv_format', the rendering of
-- csv_line, is the transaction store's to write (reporting/transaction-csv.ts): a file of before
-- it has lines of an older rendering, which the store renders again when the row is missing.
CREATE TABLE IF NOT EXISTS transactions_meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
INSERT OR IGNORE INTO transactions_meta (name, value) VALUES ('version', 0);

-- Singletons (the scheduled report sync, content refresh): who holds each, until when.
CREATE TABLE IF NOT EXISTS leases (
  name TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  expires_at INTEGER NOT NULL -- ms since the epoch
) WITHOUT ROWID;
