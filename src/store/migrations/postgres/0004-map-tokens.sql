-- Publishable map tokens and their monthly search counts (docs/decisions.md 91): the tables of
-- auth/sqlite-key-store.ts, same columns and meaning. A token is public (it sits in a partner's
-- page), so it is kept as it is; a revoked one stays revoked, as a key does (decision 75).

CREATE TABLE map_tokens (
  token text COLLATE "C" PRIMARY KEY,
  partner_id text COLLATE "C" NOT NULL,
  aid text COLLATE "C" NOT NULL,
  key_id text COLLATE "C" NOT NULL,
  origins text[] NOT NULL,
  status text COLLATE "C" NOT NULL CHECK (status IN ('active', 'revoked')),
  limit_per_minute integer,
  created_at text COLLATE "C" NOT NULL,
  updated_at text COLLATE "C" NOT NULL
);

CREATE FUNCTION map_tokens_revoked_is_final() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'map token % is revoked: a revoked token stays revoked', OLD.token USING ERRCODE = 'check_violation';
END $$;
CREATE TRIGGER map_tokens_revoked_is_final BEFORE UPDATE OF status ON map_tokens
  FOR EACH ROW WHEN (OLD.status = 'revoked' AND NEW.status <> 'revoked') EXECUTE FUNCTION map_tokens_revoked_is_final();

CREATE TABLE map_token_searches (
  token text COLLATE "C" NOT NULL,
  month text COLLATE "C" NOT NULL, -- YYYY-MM, UTC
  searches bigint NOT NULL,
  PRIMARY KEY (token, month)
);
