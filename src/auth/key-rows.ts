// The rows of API keys and map tokens as both engines keep them (store/migrations/*/0001 and 0004),
// and the one mapping each way between a row and its record. SQLite keeps the arrays as JSON text:
// sqlite-key-store.ts turns that text into arrays (and back) around these.
import type { ApiKeyRecord, KeyStatus, MapTokenRecord, StoredApiKey } from './key-store.ts';

/** An `api_keys` row. */
export interface ApiKeyRow {
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

/** The columns of `api_keys`, in the order both stores write them. */
export const API_KEY_COLUMNS = [
  'id',
  'hash',
  'partner_id',
  'aid',
  'third_parties',
  'status',
  'limit_per_minute',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof ApiKeyRow)[];

export function apiKeyToRow(key: StoredApiKey): ApiKeyRow {
  return {
    id: key.id,
    hash: key.hash,
    partner_id: key.partnerId,
    aid: key.aid,
    third_parties: key.thirdParties,
    status: key.status,
    limit_per_minute: key.limitPerMinute,
    created_at: key.createdAt,
    updated_at: key.updatedAt,
  };
}

/** The key's record, without its hash. */
export function apiKeyFromRow(row: ApiKeyRow): ApiKeyRecord {
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

/** The key with its hash (a Buffer of its own: SQLite's may be a view of the driver's memory). */
export function storedKeyFromRow(row: ApiKeyRow): StoredApiKey {
  return { ...apiKeyFromRow(row), hash: Buffer.from(row.hash) };
}

/** A `map_tokens` row. */
export interface MapTokenRow {
  token: string;
  partner_id: string;
  aid: string;
  key_id: string;
  origins: string[];
  status: 'active' | 'revoked';
  limit_per_minute: number | null;
  created_at: string;
  updated_at: string;
}

/** The columns of `map_tokens`, in the order both stores write them. */
export const MAP_TOKEN_COLUMNS = [
  'token',
  'partner_id',
  'aid',
  'key_id',
  'origins',
  'status',
  'limit_per_minute',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof MapTokenRow)[];

export function mapTokenToRow(token: MapTokenRecord): MapTokenRow {
  return {
    token: token.token,
    partner_id: token.partnerId,
    aid: token.aid,
    key_id: token.keyId,
    origins: token.origins,
    status: token.status,
    limit_per_minute: token.limitPerMinute,
    created_at: token.createdAt,
    updated_at: token.updatedAt,
  };
}

export function mapTokenFromRow(row: MapTokenRow): MapTokenRecord {
  return {
    token: row.token,
    partnerId: row.partner_id,
    aid: row.aid,
    keyId: row.key_id,
    origins: row.origins,
    status: row.status,
    limitPerMinute: row.limit_per_minute,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
