// The rules of managing keys, shared by the CLI and tests (and later a dashboard): what a new key
// may carry, and which status changes are allowed.
import { apiKeyId, apiKeyMatches, generateApiKey, isApiKeyId } from './api-key.ts';
import type { ApiKeyRecord, KeyStore, MapTokenRecord } from './key-store.ts';
import { generateMapToken, isMapToken, normalizeOriginPattern } from './map-token.ts';

/** A refused operation, with a message meant for the operator. */
export class KeyAdminError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyAdminError';
  }
}

export interface CreateKeyInput {
  aid: string;
  /** Defaults to the aid: one partner, one affiliate id. */
  partnerId?: string;
  thirdParties?: readonly string[];
  /** Requests per minute per endpoint; absent or null = the default keyed limit. */
  limitPerMinute?: number | null;
  /** Create it `pending` (not yet granted), as keys made in the partner dashboard are; default active. */
  pending?: boolean;
}

export interface KeyAdmin {
  /** A new key: `key` is the only time the secret exists outside the caller's hands. */
  create(input: CreateKeyInput): Promise<{ key: string; record: ApiKeyRecord }>;
  /** Revokes a key, given the key itself or its id; revoking twice is harmless. */
  revoke(keyOrId: string): Promise<ApiKeyRecord>;
  /** Grants API access to a pending key (active stays active); a revoked key cannot come back. */
  grant(keyOrId: string): Promise<ApiKeyRecord>;
  list(): Promise<ApiKeyRecord[]>;
  /**
   * A publishable map token for the partner of an active key, bound to `origins` (docs/decisions.md
   * 91); `limitPerMinute` is the whole token's (null = the default).
   */
  createMapToken(input: { keyOrId: string; origins: readonly string[]; limitPerMinute?: number | null }): Promise<MapTokenRecord>;
  /** Revokes a map token for good; revoking twice is harmless. */
  revokeMapToken(token: string): Promise<MapTokenRecord>;
  listMapTokens(): Promise<MapTokenRecord[]>;
}

/** Origins a map token may list at most: a partner's sites, not a directory of the web. */
export const MAX_MAP_TOKEN_ORIGINS = 20;

// aid and partner ids travel in URLs and reports: plain tokens only.
const TOKEN = /^[A-Za-z0-9._~-]{1,64}$/;
export const MAX_KEY_LIMIT = 1_000_000;

function checkToken(what: string, value: string): void {
  if (!TOKEN.test(value))
    throw new KeyAdminError(`${what} must be 1-64 characters of letters, digits, '.', '_', '~' or '-'; got "${value}"`);
}

function revokedError(id: string): KeyAdminError {
  return new KeyAdminError(`key ${id} is revoked and cannot be granted again; create a new key`);
}

/** The key's record when `keyOrId` is a whole key (hash checked) or a key id. */
async function findKey(store: KeyStore, keyOrId: string) {
  const text = keyOrId.trim();
  const fromKey = apiKeyId(text);
  if (fromKey !== null) {
    const stored = await store.get(fromKey);
    if (stored === null || !apiKeyMatches(text, stored.hash)) throw new KeyAdminError('no such key');
    return stored;
  }
  if (!isApiKeyId(text)) throw new KeyAdminError('expected a key (sg_...) or a key id (16 hex digits)');
  const stored = await store.get(text);
  if (stored === null) throw new KeyAdminError(`no key with id ${text}`);
  return stored;
}

/** A per-minute limit as given: null (the default) or a whole number from 1 to MAX_KEY_LIMIT of `what`. */
function checkedLimit(limit: number | null | undefined, what: string): number | null {
  if (limit === undefined || limit === null) return null;
  if (!(Number.isSafeInteger(limit) && limit >= 1 && limit <= MAX_KEY_LIMIT)) {
    throw new KeyAdminError(`limit must be a whole number of ${what} per minute from 1 to ${MAX_KEY_LIMIT}; got ${limit}`);
  }
  return limit;
}

/** A map token's origin patterns, normalized and without repeats: one at least, MAX_MAP_TOKEN_ORIGINS at most. */
function checkedOrigins(input: readonly string[]): string[] {
  if (input.length === 0)
    throw new KeyAdminError('a map token needs at least one --origin (the site that embeds the map, e.g. https://blog.example)');
  if (input.length > MAX_MAP_TOKEN_ORIGINS) throw new KeyAdminError(`a map token lists at most ${MAX_MAP_TOKEN_ORIGINS} origins`);
  const origins: string[] = [];
  for (const text of input) {
    const normalized = normalizeOriginPattern(text);
    if ('error' in normalized) throw new KeyAdminError(normalized.error);
    if (!origins.includes(normalized.pattern)) origins.push(normalized.pattern);
  }
  return origins;
}

export function createKeyAdmin(store: KeyStore, options: { now?: () => Date } = {}): KeyAdmin {
  const now = () => (options.now?.() ?? new Date()).toISOString();
  const find = (keyOrId: string) => findKey(store, keyOrId);

  async function setStatus(id: string, status: ApiKeyRecord['status']) {
    const record = await store.setStatus(id, status, now());
    if (record === null) throw new KeyAdminError(`no key with id ${id}`);
    // The store refused: a revoke won a race with this grant (docs/decisions.md 75).
    if (record.status !== status) throw revokedError(id);
    return record;
  }

  return {
    async create(input) {
      checkToken('aid', input.aid);
      const partnerId = input.partnerId ?? input.aid;
      checkToken('partner', partnerId);
      const thirdParties = [...new Set(input.thirdParties ?? [])];
      for (const name of thirdParties) checkToken('third party', name);
      const limit = checkedLimit(input.limitPerMinute, 'requests');
      const { key, id, hash } = generateApiKey();
      const at = now();
      const record: ApiKeyRecord = {
        id,
        partnerId,
        aid: input.aid,
        thirdParties,
        status: input.pending ? 'pending' : 'active',
        limitPerMinute: limit,
        createdAt: at,
        updatedAt: at,
      };
      await store.insert({ ...record, hash });
      return { key, record };
    },

    async revoke(keyOrId) {
      const stored = await find(keyOrId);
      // Revoking a revoked key changes nothing (the store keeps it as it was) and is no error.
      const record = await store.setStatus(stored.id, 'revoked', now());
      if (record === null) throw new KeyAdminError(`no key with id ${stored.id}`);
      return record;
    },

    async grant(keyOrId) {
      const stored = await find(keyOrId);
      // A revoked key may have leaked: it never works again. The partner gets a new key.
      if (stored.status === 'revoked') throw revokedError(stored.id);
      if (stored.status === 'active') {
        const { hash: _hash, ...record } = stored;
        return record;
      }
      return setStatus(stored.id, 'active');
    },

    async list() {
      return store.list();
    },

    async createMapToken(input) {
      const key = await find(input.keyOrId);
      if (key.status !== 'active') throw new KeyAdminError(`key ${key.id} is ${key.status}: a map token is made with an active key`);
      const origins = checkedOrigins(input.origins);
      const limit = checkedLimit(input.limitPerMinute, 'searches');
      const at = now();
      const record: MapTokenRecord = {
        token: generateMapToken(),
        partnerId: key.partnerId,
        aid: key.aid,
        keyId: key.id,
        origins,
        status: 'active',
        limitPerMinute: limit,
        createdAt: at,
        updatedAt: at,
      };
      await store.insertMapToken(record);
      return record;
    },

    async revokeMapToken(token) {
      if (!isMapToken(token.trim())) throw new KeyAdminError('expected a map token (sgmap_...)');
      const record = await store.revokeMapToken(token.trim(), now());
      if (record === null) throw new KeyAdminError('no such map token');
      return record;
    },

    async listMapTokens() {
      return store.mapTokens();
    },
  };
}
