-- The last CSV import of each supplier's transactions (`staygate transactions import`,
-- docs/decisions.md 140), the table of postgres/0005, read by `staygate transactions status`.

CREATE TABLE IF NOT EXISTS transaction_imports (
  supplier TEXT PRIMARY KEY,
  file TEXT NOT NULL,
  imported_at TEXT NOT NULL,
  rows INTEGER NOT NULL,
  inserted INTEGER NOT NULL,
  updated INTEGER NOT NULL,
  unchanged INTEGER NOT NULL,
  unattributed INTEGER NOT NULL
) WITHOUT ROWID;
