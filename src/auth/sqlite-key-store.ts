import { openSqlite } from '../store/open-sqlite.ts';
import type { ApiKeyRecord, KeyStatus, KeyStore, StoredApiKey } from './key-store.ts';

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
`;

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

  let closed = false;
  return {
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
