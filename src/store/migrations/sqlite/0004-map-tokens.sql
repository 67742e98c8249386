-- Publishable map tokens and their monthly search counts (docs/decisions.md 91), the tables of
-- postgres/0004 in SQLite's dialect. A token is public (it sits in a partner's page), so it is
-- kept as it is; a revoked one stays revoked, as a key does (decision 75).

CREATE TABLE IF NOT EXISTS map_tokens (
  token TEXT PRIMARY KEY,
  partner_id TEXT NOT NULL,
  aid TEXT NOT NULL,
  key_id TEXT NOT NULL,
  origins TEXT NOT NULL, -- JSON array of origin patterns
  status TEXT NOT NULL CHECK (status IN ('active', 'revoked')),
  limit_per_minute INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS map_tokens_revoked_is_final BEFORE UPDATE OF status ON map_tokens
  WHEN OLD.status = 'revoked' AND NEW.status <> 'revoked'
  BEGIN SELECT RAISE(ABORT, 'a revoked map token stays revoked'); END;

CREATE TABLE IF NOT EXISTS map_token_searches (
  token TEXT NOT NULL,
  month TEXT NOT NULL, -- YYYY-MM, UTC
  searches INTEGER NOT NULL,
  PRIMARY KEY (token, month)
) WITHOUT ROWID;
