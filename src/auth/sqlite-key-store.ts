import { openSqlite } from '../store/open-sqlite.ts';
import {
  mapTokenFromColumns,
  type ApiKeyRecord,
  type KeyStatus,
  type KeyStore,
  type MapSearchCount,
  type MapTokenColumns,
  type MapTokenRecord,
  type StoredApiKey,
} from './key-store.ts';

export interface SqliteKeyStoreOptions {
  /** The gateway's database file (the inventory's, `<data dir>/staygate.sqlite`), or ':memory:'. */
  path: string;
}

const SCHEMA = `
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

  -- Publishable map tokens (docs/decisions.md 91): public, so kept as they are.
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
`;

/** SQLite keeps a token's origins as JSON text. */
type TokenRow = Omit<MapTokenColumns, 'origins'> & { origins: string };

const toToken = (row: TokenRow): MapTokenRecord => mapTokenFromColumns({ ...row, origins: JSON.parse(row.origins) as string[] });

interface Row {
  id: string;
  hash: Buffer;
  partner_id: string;
  aid: string;
  third_parties: string;
  status: KeyStatus;
  limit_per_minute: number | null;
  created_at: string;
  updated_at: string;
}

function toRecord(row: Row): ApiKeyRecord {
  return {
    id: row.id,
    partnerId: row.partner_id,
    aid: row.aid,
    thirdParties: JSON.parse(row.third_parties) as string[],
    status: row.status,
    limitPerMinute: row.limit_per_minute,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toStored(row: Row): StoredApiKey {
  return { ...toRecord(row), hash: Buffer.from(row.hash) };
}

/** API keys in the gateway's SQLite file, beside the inventory (new tables; the inventory's are untouched). */
export function createSqliteKeyStore(options: SqliteKeyStoreOptions): KeyStore {
  const db = openSqlite(options.path);
  db.exec(SCHEMA);

  const insert =
    db.prepare(`INSERT INTO api_keys (id, hash, partner_id, aid, third_parties, status, limit_per_minute, created_at, updated_at)
    VALUES (@id, @hash, @partnerId, @aid, @thirdParties, @status, @limitPerMinute, @createdAt, @updatedAt)`);
  const selectOne = db.prepare<[string], Row>('SELECT * FROM api_keys WHERE id = ?');
  const selectAll = db.prepare<[], Row>('SELECT * FROM api_keys ORDER BY created_at, id');
  const selectActive = db.prepare<[], Row>("SELECT * FROM api_keys WHERE status = 'active'");
  // Compare-and-set (docs/decisions.md 75): the row changes only while it is not revoked.
  const updateStatus = db.prepare("UPDATE api_keys SET status = ?, updated_at = ? WHERE id = ? AND status <> 'revoked'");
  const bump = db.prepare('UPDATE api_keys_version SET version = version + 1 WHERE id = 1');
  const selectVersion = db.prepare<[], { version: number }>('SELECT version FROM api_keys_version WHERE id = 1');

  const insertKey = db.transaction((key: StoredApiKey) => {
    insert.run({ ...key, thirdParties: JSON.stringify(key.thirdParties) });
    bump.run();
  });
  const setStatus = db.transaction((id: string, status: KeyStatus, at: string): ApiKeyRecord | null => {
    if (updateStatus.run(status, at, id).changes === 0) {
      const held = selectOne.get(id);
      return held === undefined ? null : toRecord(held);
    }
    bump.run();
    return toRecord(selectOne.get(id)!);
  });

  const insertToken =
    db.prepare(`INSERT INTO map_tokens (token, partner_id, aid, key_id, origins, status, limit_per_minute, created_at, updated_at)
    VALUES (@token, @partnerId, @aid, @keyId, @origins, @status, @limitPerMinute, @createdAt, @updatedAt)`);
  const selectTokens = db.prepare<[], TokenRow>('SELECT * FROM map_tokens ORDER BY created_at, token');
  const selectToken = db.prepare<[string], TokenRow>('SELECT * FROM map_tokens WHERE token = ?');
  const revokeToken = db.prepare("UPDATE map_tokens SET status = 'revoked', updated_at = ? WHERE token = ? AND status <> 'revoked'");
  const addSearches = db.prepare(
    'INSERT INTO map_token_searches (token, month, searches) VALUES (@token, @month, @searches) ' +
      'ON CONFLICT (token, month) DO UPDATE SET searches = searches + excluded.searches',
  );
  const selectSearches = db.prepare<[string], MapSearchCount>(
    'SELECT s.token, s.month, s.searches FROM map_token_searches s JOIN map_tokens t ON t.token = s.token ' +
      'WHERE t.partner_id = ? ORDER BY t.created_at, s.token, s.month',
  );
  const insertMapToken = db.transaction((token: MapTokenRecord) => {
    insertToken.run({ ...token, origins: JSON.stringify(token.origins) });
    bump.run();
  });
  const revokeMapToken = db.transaction((token: string, at: string): MapTokenRecord | null => {
    if (revokeToken.run(at, token).changes > 0) bump.run();
    const row = selectToken.get(token);
    return row === undefined ? null : toToken(row);
  });
  const countMapSearches = db.transaction((counts: readonly MapSearchCount[]) => {
    for (const count of counts) addSearches.run(count);
  });

  let closed = false;
  return {
    async insertMapToken(token) {
      insertMapToken(token);
    },
    async mapTokens() {
      return selectTokens.all().map(toToken);
    },
    async revokeMapToken(token, at) {
      return revokeMapToken(token, at);
    },
    async countMapSearches(counts) {
      countMapSearches(counts);
    },
    async mapSearches(partnerId) {
      return selectSearches.all(partnerId);
    },
    async insert(key) {
      insertKey(key);
    },
    async get(id) {
      const row = selectOne.get(id);
      return row === undefined ? null : toStored(row);
    },
    async list() {
      return selectAll.all().map(toRecord);
    },
    async activeKeys() {
      return selectActive.all().map(toStored);
    },
    async setStatus(id, status, at) {
      return setStatus(id, status, at);
    },
    async version() {
      return selectVersion.get()!.version;
    },
    async close() {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
}
