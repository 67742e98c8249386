import type { PgPool } from '../store/pg-pool.ts';
import { inPgTransaction } from '../store/pg-pool.ts';
import {
  mapTokenFromColumns,
  type ApiKeyRecord,
  type KeyStatus,
  type KeyStore,
  type MapTokenColumns,
  type StoredApiKey,
} from './key-store.ts';

export interface PgKeyStoreOptions {
  /** A pool on the migrated database (store/migrations/0001-...sql); the store never ends it. */
  pool: PgPool;
}

interface Row {
  id: string;
  hash: Buffer;
  partner_id: string;
  aid: string;
  third_parties: string[];
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
    thirdParties: row.third_parties,
    status: row.status,
    limitPerMinute: row.limit_per_minute,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

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
        await client.query(
          `INSERT INTO api_keys (id, hash, partner_id, aid, third_parties, status, limit_per_minute, created_at, updated_at)
          VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [key.id, key.hash, key.partnerId, key.aid, key.thirdParties, key.status, key.limitPerMinute, key.createdAt, key.updatedAt],
        );
        await client.query(BUMP);
      });
    },
    async get(id) {
      const { rows } = await pool.query<Row>('SELECT * FROM api_keys WHERE id = $1', [id]);
      return rows.length === 0 ? null : { ...toRecord(rows[0]), hash: rows[0].hash };
    },
    async list() {
      return (await pool.query<Row>('SELECT * FROM api_keys ORDER BY created_at, id')).rows.map(toRecord);
    },
    async activeKeys(): Promise<StoredApiKey[]> {
      return (await pool.query<Row>("SELECT * FROM api_keys WHERE status = 'active'")).rows.map((row) => ({
        ...toRecord(row),
        hash: row.hash,
      }));
    },
    async setStatus(id, status, at) {
      return inPgTransaction(pool, async (client) => {
        // Compare-and-set (docs/decisions.md 75): the row changes only while it is not revoked. Under
        // READ COMMITTED a racing revoke makes this UPDATE re-check its WHERE on the revoked row.
        const changed = await client.query<Row>(
          "UPDATE api_keys SET status = $2, updated_at = $3 WHERE id = $1 AND status <> 'revoked' RETURNING *",
          [id, status, at],
        );
        if (changed.rows.length > 0) {
          await client.query(BUMP);
          return toRecord(changed.rows[0]);
        }
        const held = await client.query<Row>('SELECT * FROM api_keys WHERE id = $1', [id]);
        return held.rows.length === 0 ? null : toRecord(held.rows[0]);
      });
    },
    async version() {
      const { rows } = await pool.query<{ version: string }>('SELECT version FROM api_keys_version WHERE id = 1');
      return Number(rows[0].version);
    },
    async insertMapToken(t) {
      await inPgTransaction(pool, async (client) => {
        await client.query(
          `INSERT INTO map_tokens (token, partner_id, aid, key_id, origins, status, limit_per_minute, created_at, updated_at)
          VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [t.token, t.partnerId, t.aid, t.keyId, t.origins, t.status, t.limitPerMinute, t.createdAt, t.updatedAt],
        );
        await client.query(BUMP);
      });
    },
    async mapTokens() {
      return (await pool.query<MapTokenColumns>('SELECT * FROM map_tokens ORDER BY created_at, token')).rows.map(mapTokenFromColumns);
    },
    async revokeMapToken(token, at) {
      return inPgTransaction(pool, async (client) => {
        const changed = await client.query<MapTokenColumns>(
          "UPDATE map_tokens SET status = 'revoked', updated_at = $2 WHERE token = $1 AND status <> 'revoked' RETURNING *",
          [token, at],
        );
        if (changed.rows.length > 0) {
          await client.query(BUMP);
          return mapTokenFromColumns(changed.rows[0]);
        }
        const held = await client.query<MapTokenColumns>('SELECT * FROM map_tokens WHERE token = $1', [token]);
        return held.rows.length === 0 ? null : mapTokenFromColumns(held.rows[0]);
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
