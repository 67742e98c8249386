import type { PgPool } from '../store/pg-pool.ts';
import { inPgTransaction } from '../store/pg-pool.ts';
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
import type { KeyStore } from './key-store.ts';

export interface PgKeyStoreOptions {
  /** A pool on the migrated database (store/migrations/postgres/0001 and 0004); the store never ends it. */
  pool: PgPool;
}

/** `INSERT INTO table (columns) VALUES ($1, ...)`, the values in the columns' order. */
const insertSql = (table: string, columns: readonly string[]) =>
  `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`;
const INSERT_KEY = insertSql('api_keys', API_KEY_COLUMNS);
const INSERT_TOKEN = insertSql('map_tokens', MAP_TOKEN_COLUMNS);

const BUMP = 'UPDATE api_keys_version SET version = version + 1 WHERE id = 1';

/**
 * API keys in PostgreSQL, shared by every gateway and the CLI on the same DATABASE_URL. Each change
 * and its version bump are one transaction, so a gateway polling `version()` sees both together.
 */
export function createPgKeyStore(options: PgKeyStoreOptions): KeyStore {
  const { pool } = options;
  return {
    async insert(key) {
      await inPgTransaction(pool, async (client) => {
        const row = apiKeyToRow(key);
        await client.query(
          INSERT_KEY,
          API_KEY_COLUMNS.map((column) => row[column]),
        );
        await client.query(BUMP);
      });
    },
    async get(id) {
      const { rows } = await pool.query<ApiKeyRow>('SELECT * FROM api_keys WHERE id = $1', [id]);
      return rows.length === 0 ? null : storedKeyFromRow(rows[0]);
    },
    async list() {
      return (await pool.query<ApiKeyRow>('SELECT * FROM api_keys ORDER BY created_at, id')).rows.map(apiKeyFromRow);
    },
    async activeKeys() {
      return (await pool.query<ApiKeyRow>("SELECT * FROM api_keys WHERE status = 'active'")).rows.map(storedKeyFromRow);
    },
    async setStatus(id, status, at) {
      return inPgTransaction(pool, async (client) => {
        // Compare-and-set (docs/decisions.md 75): the row changes only while it is not revoked. Under
        // READ COMMITTED a racing revoke makes this UPDATE re-check its WHERE on the revoked row.
        const changed = await client.query<ApiKeyRow>(
          "UPDATE api_keys SET status = $2, updated_at = $3 WHERE id = $1 AND status <> 'revoked' RETURNING *",
          [id, status, at],
        );
        if (changed.rows.length > 0) {
          await client.query(BUMP);
          return apiKeyFromRow(changed.rows[0]);
        }
        const held = await client.query<ApiKeyRow>('SELECT * FROM api_keys WHERE id = $1', [id]);
        return held.rows.length === 0 ? null : apiKeyFromRow(held.rows[0]);
      });
    },
    async version() {
      const { rows } = await pool.query<{ version: string }>('SELECT version FROM api_keys_version WHERE id = 1');
      return Number(rows[0].version);
    },
    async insertMapToken(t) {
      await inPgTransaction(pool, async (client) => {
        const row = mapTokenToRow(t);
        await client.query(
          INSERT_TOKEN,
          MAP_TOKEN_COLUMNS.map((column) => row[column]),
        );
        await client.query(BUMP);
      });
    },
    async mapTokens() {
      return (await pool.query<MapTokenRow>('SELECT * FROM map_tokens ORDER BY created_at, token')).rows.map(mapTokenFromRow);
    },
    async revokeMapToken(token, at) {
      return inPgTransaction(pool, async (client) => {
        const changed = await client.query<MapTokenRow>(
          "UPDATE map_tokens SET status = 'revoked', updated_at = $2 WHERE token = $1 AND status <> 'revoked' RETURNING *",
          [token, at],
        );
        if (changed.rows.length > 0) {
          await client.query(BUMP);
          return mapTokenFromRow(changed.rows[0]);
        }
        const held = await client.query<MapTokenRow>('SELECT * FROM map_tokens WHERE token = $1', [token]);
        return held.rows.length === 0 ? null : mapTokenFromRow(held.rows[0]);
      });
    },
    async countMapSearches(counts) {
      if (counts.length === 0) return;
      // One statement for the batch; gateways adding at once each add theirs (the row lock orders them).
      await pool.query(
        `INSERT INTO map_token_searches (token, month, searches)
        SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])
        ON CONFLICT (token, month) DO UPDATE SET searches = map_token_searches.searches + excluded.searches`,
        [counts.map((c) => c.token), counts.map((c) => c.month), counts.map((c) => c.searches)],
      );
    },
    async mapSearches(partnerId) {
      const { rows } = await pool.query<{ token: string; month: string; searches: string }>(
        `SELECT s.token, s.month, s.searches FROM map_token_searches s JOIN map_tokens t ON t.token = s.token
        WHERE t.partner_id = $1 ORDER BY t.created_at, s.token, s.month`,
        [partnerId],
      );
      return rows.map((row) => ({ token: row.token, month: row.month, searches: Number(row.searches) }));
    },
    async close() {
      // The pool belongs to whoever opened it (open-stores.ts).
    },
  };
}
