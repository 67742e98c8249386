// The server's view of the keys: the active ones held in memory, reloaded when the store's change
// counter moves, so a key created, granted or revoked by the CLI (another process) is honoured
// within `maxAgeMs` without a restart, and a request costs no database read.
import { apiKeyId, apiKeyMatches } from './api-key.ts';
import type { KeyStore, MapTokenRecord, StoredApiKey } from './key-store.ts';

/** Who a valid key belongs to and what it carries. */
export interface VerifiedKey {
  id: string;
  partnerId: string;
  aid: string;
  thirdParties: string[];
  /** Requests per minute per endpoint; null = the default keyed limit. */
  limitPerMinute: number | null;
}

/** A map token that works: active, and its partner has an active key (docs/decisions.md 91). */
export type VerifiedMapToken = Pick<MapTokenRecord, 'token' | 'partnerId' | 'aid' | 'origins' | 'limitPerMinute'>;

export interface KeyVerifier {
  /** The map token's record while it works, else null (unknown, revoked, or its partner has no active key). */
  mapToken(token: string): Promise<VerifiedMapToken | null>;
  /** The key's owner, or null for a key that is unknown, revoked or not granted (indistinguishably). */
  verify(key: string): Promise<VerifiedKey | null>;
  /**
   * The owner of a key this verifier has already matched (and that is still active), without
   * checking any other: for a client that is not to have keys checked for now (access-control.ts).
   */
  verifyKnown(key: string): Promise<VerifiedKey | null>;
}

export interface KeyVerifierOptions {
  store: KeyStore;
  /** How old the in-memory keys may be before the store's version is read again. */
  maxAgeMs: number;
  /** Milliseconds, monotonic. */
  clock?: () => number;
  /** Told when a reload fails while older keys are still held (they keep being used). */
  onError?: (error: unknown) => void;
}

/** Verified keys remembered at most (a few hundred partners in practice). */
const MAX_REMEMBERED = 10_000;

export function createKeyVerifier(options: KeyVerifierOptions): KeyVerifier {
  const { store, maxAgeMs } = options;
  const clock = options.clock ?? (() => performance.now());
  let keys: Map<string, StoredApiKey> | null = null;
  let mapTokens = new Map<string, VerifiedMapToken>();
  let version = -1;
  let checkedAt = -Infinity;
  let refreshing: Promise<void> | null = null;
  /**
   * Keys already verified against the keys held, by the exact string presented: a partner sends
   * the same key on every request, and hashing it each time was a measurable share of a static
   * search. Only matches are remembered (guesses cannot fill it); it is emptied on every change
   * to the keys and when it reaches `MAX_REMEMBERED`.
   */
  const remembered = new Map<string, VerifiedKey>();

  async function reload(): Promise<void> {
    const started = clock();
    const latest = await store.version();
    if (latest !== version || keys === null) {
      // A change between these two reads is seen as a newer version at the next check.
      const [active, tokens] = await Promise.all([store.activeKeys(), store.mapTokens()]);
      keys = new Map(active.map((key) => [key.id, key]));
      // A token works while its partner has an active key: a key rotated keeps the partner's maps
      // working; a partner whose every key is revoked has no map either.
      const partners = new Set(active.map((key) => key.partnerId));
      mapTokens = new Map(
        tokens
          .filter((t) => t.status === 'active' && partners.has(t.partnerId))
          .map(({ token, partnerId, aid, origins, limitPerMinute }) => [token, { token, partnerId, aid, origins, limitPerMinute }]),
      );
      version = latest;
      remembered.clear();
    }
    checkedAt = started;
  }

  async function fresh(): Promise<Map<string, StoredApiKey>> {
    if (keys !== null && clock() - checkedAt < maxAgeMs) return keys;
    refreshing ??= reload().finally(() => {
      refreshing = null;
    });
    try {
      await refreshing;
    } catch (error) {
      if (keys === null) throw error;
      options.onError?.(error);
    }
    return keys!;
  }

  return {
    async mapToken(token) {
      await fresh();
      return mapTokens.get(token) ?? null;
    },
    async verifyKnown(key) {
      await fresh();
      return remembered.get(key) ?? null;
    },
    async verify(key) {
      const held = await fresh();
      const known = remembered.get(key);
      if (known !== undefined) return known;
      const id = apiKeyId(key);
      const stored = id === null ? null : (held.get(id) ?? null);
      if (!apiKeyMatches(key, stored?.hash ?? null)) return null;
      const { partnerId, aid, thirdParties, limitPerMinute } = stored!;
      const verified = { id: stored!.id, partnerId, aid, thirdParties, limitPerMinute };
      if (remembered.size >= MAX_REMEMBERED) remembered.clear();
      remembered.set(key, verified);
      return verified;
    },
  };
}
