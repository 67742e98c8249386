import { openSqlite } from '../store/open-sqlite.ts';
import { writeWithoutWaiting } from '../store/write-without-waiting.ts';
import {
  API_KEY_COLUMNS,
  apiKeyFromRow,
  apiKeyToRow,
  MAP_TOKEN_COLUMNS,
  mapTokenFromRow,
  mapTokenToRow,
  storedKeyFromRow,
  type ApiKeyRow,
  type MapTokenRow,
} from './key-rows.ts';
import type { ApiKeyRecord, KeyStatus, KeyStore, MapSearchCount, MapTokenRecord, StoredApiKey } from './key-store.ts';

export interface SqliteKeyStoreOptions {
  /** The gateway's database file (the inventory's, `<data dir>/staygate.sqlite`), or ':memory:'. */
  path: string;
}

/** SQLite keeps a key's third parties and a token's origins as JSON text. */
type KeyText = Omit<ApiKeyRow, 'third_parties'> & { third_parties: string };
type TokenText = Omit<MapTokenRow, 'origins'> & { origins: string };
const keyRow = (row: KeyText): ApiKeyRow => ({ ...row, third_parties: JSON.parse(row.third_parties) as string[] });
const tokenRow = (row: TokenText): MapTokenRow => ({ ...row, origins: JSON.parse(row.origins) as string[] });

/** `INSERT INTO table (columns) VALUES (@column, ...)`: the row object's own names bind. */
const insertSql = (table: string, columns: readonly string[]) =>
  `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`;

/**
 * API keys and map tokens in the gateway's SQLite file (tables of migrations/sqlite/0001 and 0004),
 * beside the inventory.
 */
export function createSqliteKeyStore(options: SqliteKeyStoreOptions): KeyStore {
  const db = openSqlite(options.path);

  const insert = db.prepare(insertSql('api_keys', API_KEY_COLUMNS));
  const selectOne = db.prepare<[string], KeyText>('SELECT * FROM api_keys WHERE id = ?');
  const selectAll = db.prepare<[], KeyText>('SELECT * FROM api_keys ORDER BY created_at, id');
  const selectActive = db.prepare<[], KeyText>("SELECT * FROM api_keys WHERE status = 'active'");
  // Compare-and-set (docs/decisions.md 75): the row changes only while it is not revoked.
  const updateStatus = db.prepare("UPDATE api_keys SET status = ?, updated_at = ? WHERE id = ? AND status <> 'revoked'");
  const bump = db.prepare('UPDATE api_keys_version SET version = version + 1 WHERE id = 1');
  const selectVersion = db.prepare<[], { version: number }>('SELECT version FROM api_keys_version WHERE id = 1');
  const record = (row: KeyText | undefined): ApiKeyRecord | null => (row === undefined ? null : apiKeyFromRow(keyRow(row)));

  const insertKey = db.transaction((key: StoredApiKey) => {
    insert.run({ ...apiKeyToRow(key), third_parties: JSON.stringify(key.thirdParties) });
    bump.run();
  });
  const setStatus = db.transaction((id: string, status: KeyStatus, at: string): ApiKeyRecord | null => {
    if (updateStatus.run(status, at, id).changes > 0) bump.run();
    return record(selectOne.get(id));
  });

  const insertToken = db.prepare(insertSql('map_tokens', MAP_TOKEN_COLUMNS));
  const selectTokens = db.prepare<[], TokenText>('SELECT * FROM map_tokens ORDER BY created_at, token');
  const selectToken = db.prepare<[string], TokenText>('SELECT * FROM map_tokens WHERE token = ?');
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
    insertToken.run({ ...mapTokenToRow(token), origins: JSON.stringify(token.origins) });
    bump.run();
  });
  const revokeMapToken = db.transaction((token: string, at: string): MapTokenRecord | null => {
    if (revokeToken.run(at, token).changes > 0) bump.run();
    const row = selectToken.get(token);
    return row === undefined ? null : mapTokenFromRow(tokenRow(row));
  });
  const countMapSearches = db.transaction((counts: readonly MapSearchCount[]) => {
    for (const count of counts) addSearches.run(count);
  });

  let closed = false;
  return {
    async insertMapToken(token) {
      await writeWithoutWaiting(db, () => insertMapToken(token));
    },
    async mapTokens() {
      return selectTokens.all().map((row) => mapTokenFromRow(tokenRow(row)));
    },
    async revokeMapToken(token, at) {
      return writeWithoutWaiting(db, () => revokeMapToken(token, at));
    },
    async countMapSearches(counts) {
      await writeWithoutWaiting(db, () => countMapSearches(counts));
    },
    async mapSearches(partnerId) {
      return selectSearches.all(partnerId);
    },
    async insert(key) {
      await writeWithoutWaiting(db, () => insertKey(key));
    },
    async get(id) {
      const row = selectOne.get(id);
      return row === undefined ? null : storedKeyFromRow(keyRow(row));
    },
    async list() {
      return selectAll.all().map((row) => apiKeyFromRow(keyRow(row)));
    },
    async activeKeys() {
      return selectActive.all().map((row) => storedKeyFromRow(keyRow(row)));
    },
    async setStatus(id, status, at) {
      return writeWithoutWaiting(db, () => setStatus(id, status, at));
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
