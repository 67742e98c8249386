-- API keys, clicks, commission transactions and leases on PostgreSQL: the tables of the SQLite
-- twins (auth/sqlite-key-store.ts, clicks/sqlite-click-store.ts,
-- reporting/sqlite-transaction-store.ts, store/sqlite-lease-store.ts), same columns and meaning.
-- Times and days stay fixed-width ISO 8601 text, compared and sorted byte-wise (COLLATE "C",
-- whatever the database's locale), exactly as SQLite compares them (docs/decisions.md 74).

CREATE TABLE api_keys (
  id text COLLATE "C" PRIMARY KEY,
  hash bytea NOT NULL,
  partner_id text COLLATE "C" NOT NULL,
  aid text COLLATE "C" NOT NULL,
  third_parties text[] NOT NULL,
  status text COLLATE "C" NOT NULL CHECK (status IN ('active', 'pending', 'revoked')),
  limit_per_minute integer,
  created_at text COLLATE "C" NOT NULL,
  updated_at text COLLATE "C" NOT NULL
);

-- A revoked key stays revoked, whoever writes (docs/decisions.md 75): the stores' compare-and-set
-- never asks for it; this refuses any other writer too.
CREATE FUNCTION api_keys_revoked_is_final() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'key % is revoked: a revoked key stays revoked', OLD.id USING ERRCODE = 'check_violation';
END $$;
CREATE TRIGGER api_keys_revoked_is_final BEFORE UPDATE OF status ON api_keys
  FOR EACH ROW WHEN (OLD.status = 'revoked' AND NEW.status <> 'revoked') EXECUTE FUNCTION api_keys_revoked_is_final();

-- One row, bumped in the same transaction as every change: gateways poll it to reload their keys.
CREATE TABLE api_keys_version (
  id integer PRIMARY KEY CHECK (id = 1),
  version bigint NOT NULL
);
INSERT INTO api_keys_version (id, version) VALUES (1, 0);

CREATE TABLE clicks (
  id text COLLATE "C" PRIMARY KEY,
  -- Tells apart clicks of the same instant in `recent` (SQLite's rowid).
  seq bigint GENERATED ALWAYS AS IDENTITY,
  at text COLLATE "C" NOT NULL,
  aid text COLLATE "C",
  campaign text COLLATE "C",
  stay_id text COLLATE "C" NOT NULL,
  supplier text COLLATE "C" NOT NULL,
  supplier_stay_id text COLLATE "C" NOT NULL,
  device text COLLATE "C" NOT NULL
);
CREATE INDEX clicks_at ON clicks (at, seq);
CREATE INDEX clicks_aid_at ON clicks (aid, at);

CREATE TABLE transactions (
  supplier text COLLATE "C" NOT NULL,
  booking_id text COLLATE "C" NOT NULL,
  click_id text COLLATE "C",
  aid text COLLATE "C",
  partner_id text COLLATE "C",
  campaign text COLLATE "C",
  device text COLLATE "C" NOT NULL,
  booked_at text COLLATE "C" NOT NULL,
  start_date text COLLATE "C" NOT NULL,
  end_date text COLLATE "C" NOT NULL,
  status text COLLATE "C" NOT NULL,
  commission_cents bigint NOT NULL,
  quantity integer NOT NULL,
  information text NOT NULL,
  destination text NOT NULL,
  user_country text NOT NULL,
  last_updated text COLLATE "C" NOT NULL,
  version_key text COLLATE "C" NOT NULL,
  csv_line text NOT NULL,
  PRIMARY KEY (supplier, booking_id)
);
-- One per dateFilter: a partner's page is a range of one of them, in the export's order.
CREATE INDEX transactions_last_updated ON transactions (partner_id, last_updated, supplier, booking_id);
CREATE INDEX transactions_booked_at ON transactions (partner_id, booked_at, supplier, booking_id);
CREATE INDEX transactions_start_date ON transactions (partner_id, start_date, supplier, booking_id);
CREATE INDEX transactions_end_date ON transactions (partner_id, end_date, supplier, booking_id);
CREATE INDEX transactions_unowned ON transactions (aid) WHERE partner_id IS NULL;

CREATE TABLE report_sync (
  supplier text COLLATE "C" PRIMARY KEY,
  synced_through text COLLATE "C" NOT NULL,
  synced_at text COLLATE "C" NOT NULL
);

-- 'version' moves with every change of a transaction; 'csv_format': the rendering of csv_line.
CREATE TABLE transactions_meta (name text PRIMARY KEY, value bigint NOT NULL);
INSERT INTO transactions_meta (name, value) VALUES ('version', 0), ('csv_format', 2);

-- Singletons (the scheduled report sync, content refresh): who holds each, until when (ms since
-- the epoch, by the database's clock unless a test passes its own).
CREATE TABLE leases (
  name text COLLATE "C" PRIMARY KEY,
  holder text COLLATE "C" NOT NULL,
  expires_at bigint NOT NULL
);
