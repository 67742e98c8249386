-- The last CSV import of each supplier's transactions (`staygate transactions import`,
-- docs/decisions.md 140): the table of reporting/sqlite-transaction-store.ts, same columns and
-- meaning, read by `staygate transactions status`.

CREATE TABLE transaction_imports (
  supplier text COLLATE "C" PRIMARY KEY,
  file text NOT NULL,
  imported_at text COLLATE "C" NOT NULL,
  rows integer NOT NULL,
  inserted integer NOT NULL,
  updated integer NOT NULL,
  unchanged integer NOT NULL,
  unattributed integer NOT NULL
);
