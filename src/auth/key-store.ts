/**
 * `active`: the key works. `pending`: created but not yet granted API access (spec,
 * Authentication 6: keys made in the partner dashboard wait for a grant). `revoked`: for good.
 */
export const KEY_STATUSES = ['active', 'pending', 'revoked'] as const;
export type KeyStatus = (typeof KEY_STATUSES)[number];

/** What is known of a key, without its hash: safe to list and print. */
export interface ApiKeyRecord {
  /** Public id, the part of the key between `sg_` and the secret. */
  id: string;
  partnerId: string;
  /** The partner's affiliate id: it wins over any `aid` a request carries. */
  aid: string;
  /** Third-party platform names the key may report for. */
  thirdParties: string[];
  status: KeyStatus;
  /** Requests per minute per endpoint; null = the default keyed limit. */
  limitPerMinute: number | null;
  /** ISO 8601. */
  createdAt: string;
  updatedAt: string;
}

/** A key as stored: its record and the SHA-256 of the whole key. */
export interface StoredApiKey extends ApiKeyRecord {
  hash: Buffer;
}

/** A publishable map token (map-token.ts, docs/decisions.md 91): public, so stored as it is. */
export interface MapTokenRecord {
  token: string;
  /** The partner it belongs to: it works while the partner has an active key (a key rotated keeps the map working). */
  partnerId: string;
  /** The affiliate id its searches' links carry, whatever `aid` the page says. */
  aid: string;
  /** The key it was made with (for the record). */
  keyId: string;
  /** Origin patterns it may be used from (map-token.ts): `https://blog.example`, `https://*.example`, `http://localhost:*`, `self`. */
  origins: string[];
  status: 'active' | 'revoked';
  /** Searches per minute for the whole token (every traveller together); null = the default. */
  limitPerMinute: number | null;
  createdAt: string;
  updatedAt: string;
}

/** Map searches a token made in a month (UTC, `YYYY-MM`). */
export interface MapSearchCount {
  token: string;
  month: string;
  searches: number;
}

/**
 * Where API keys live: SQLite in the gateway's data file by default, PostgreSQL with DATABASE_URL
 * (pg-key-store.ts). Every implementation runs the contract suite in key-store-contract.ts.
 */
export interface KeyStore {
  /** Adds a key; a duplicate id is an error. */
  insert(key: StoredApiKey): Promise<void>;
  get(id: string): Promise<StoredApiKey | null>;
  /** Every key, oldest first, without hashes. */
  list(): Promise<ApiKeyRecord[]>;
  /** The keys that authenticate (status `active`), with their hashes. */
  activeKeys(): Promise<StoredApiKey[]>;
  /**
   * Sets a key's status by compare-and-set in the database (docs/decisions.md 75): a revoked key
   * stays revoked, whatever runs concurrently. Returns the key's record after the call (unchanged,
   * still revoked, when the change was refused), or null when there is no such key.
   */
  setStatus(id: string, status: KeyStatus, at: string): Promise<ApiKeyRecord | null>;
  /**
   * A counter that grows with every change to any key, in this or another process: cheap to
   * read, so a server polls it to know when to reload its keys.
   */
  version(): Promise<number>;
  /** Adds a map token (its key's partner and aid copied in); moves the version. */
  insertMapToken(token: MapTokenRecord): Promise<void>;
  /** Every map token, oldest first. */
  mapTokens(): Promise<MapTokenRecord[]>;
  /** Revokes a map token for good (moves the version); the record after the call, or null when there is none. */
  revokeMapToken(token: string, at: string): Promise<MapTokenRecord | null>;
  /** Adds searches to the tokens' monthly counts (the counts of several gateways add up). Moves no version. */
  countMapSearches(counts: readonly MapSearchCount[]): Promise<void>;
  /** The monthly counts of a partner's tokens, by token then month. */
  mapSearches(partnerId: string): Promise<MapSearchCount[]>;
  close(): Promise<void>;
}
