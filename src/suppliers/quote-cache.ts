import { LRUCache } from 'lru-cache';
import type { SupplierId } from '../types.ts';
import type { Quote, QuoteRequest } from './supplier.ts';

export interface QuoteCacheOptions {
  /** How long a quote is reused (the quote service gives `settings.quoteCacheTtlMs`). */
  ttlMs: number;
  /** Most quotes held; the least recently used go first (`settings.quoteCacheMaxEntries`). */
  maxEntries: number;
  /** Milliseconds clock (injected so that tests expire entries by hand; default performance.now). */
  now?: () => number;
}

/** One supplier's entries for one stay request (dates, party, currency): looked up by stay id. */
export interface QuoteCacheScope {
  /**
   * The fresh entries among these ids (the others are absent): at once when this process holds
   * the answer (memory always does), a promise when it has to ask (Redis). Never rejects: a
   * shared cache that cannot be read answers with what this process holds, and the rest is asked
   * of the supplier.
   */
  get(supplierStayIds: readonly string[]): Map<string, Quote> | Promise<Map<string, Quote>>;
  /** Holds these answers for the TTL. Never throws; a shared cache writes in the background. */
  set(entries: ReadonlyArray<readonly [string, Quote]>): void;
}

/**
 * Short-lived quotes, one entry per (supplier, stay, checkin, checkout, adults, children, rooms,
 * currency). Holds answers only, available or sold out: a failure is never cached, so the next
 * search asks again. Entries are frozen: every search that hits one shares the object.
 * Implementations: this process's memory (below), or Redis shared by every gateway with this
 * memory in front (redis-quote-cache.ts); both pass quote-cache-contract.ts.
 */
export interface QuoteCache {
  /** The entries of `supplier` for the stay `request` describes (its ids are ignored). */
  scope(supplier: SupplierId, request: QuoteRequest): QuoteCacheScope;
  /** Settles once every write made so far is done (written, or given up): at once in memory. */
  flush(): Promise<void>;
  /** Flushes, then lets go of what it holds open (a Redis connection). */
  close(): Promise<void>;
}

/** The in-process cache's scope: also read and written one entry at a time, without a promise. */
export interface MemoryQuoteScope extends QuoteCacheScope {
  get(supplierStayIds: readonly string[]): Map<string, Quote>;
  getOne(supplierStayId: string): Quote | undefined;
  /** Holds one answer for `ttlMs` (default and most: the cache's TTL); `ttlMs` must be >= 1. */
  setOne(supplierStayId: string, quote: Quote, ttlMs?: number): void;
}

export interface MemoryQuoteCache extends QuoteCache {
  scope(supplier: SupplierId, request: QuoteRequest): MemoryQuoteScope;
  /** Entries held, expired ones not yet evicted included. */
  readonly size: number;
  clear(): void;
}

/**
 * The part of the key shared by every id of one request. A JSON array is self-delimiting, so
 * the id appended after it cannot make two different keys collide. Children are their ages,
 * sorted (a party of a 5- and a 9-year-old is the same party either way), or their count when
 * ages are unknown: the supplier then applies its own default ages, a different price.
 */
export function quoteKeyPrefix(supplier: SupplierId, request: QuoteRequest): string {
  const children = request.childrenAges === null ? `n${request.children}` : `a${[...request.childrenAges].sort((x, y) => x - y).join(',')}`;
  return JSON.stringify([supplier, request.checkin, request.checkout, request.adults, children, request.rooms, request.currency]);
}

export function createQuoteCache(options: QuoteCacheOptions): MemoryQuoteCache {
  const now = options.now;
  const ttl = options.ttlMs;
  const cache = new LRUCache<string, Quote>({
    max: options.maxEntries,
    ttl,
    // lru-cache reads its clock through `perf`. ttlResolution 0: ask the clock on every check,
    // since its default debounce caches "now" behind a real timer, which an injected clock defeats.
    // The +1: lru-cache takes a start time of 0 for "no TTL", so a clock starting at 0 (as test
    // clocks do) would never expire anything. Only differences of the clock matter.
    ...(now ? { perf: { now: () => now() + 1 }, ttlResolution: 0 } : {}),
  });
  const settled = Promise.resolve();
  return {
    scope(supplier, request) {
      // One request prices many ids: the shared part of the key is computed once.
      const prefix = quoteKeyPrefix(supplier, request);
      const getOne = (id: string) => cache.get(prefix + id);
      const setOne = (id: string, quote: Quote, ttlMs = ttl) => {
        cache.set(
          prefix + id,
          Object.isFrozen(quote) ? quote : Object.freeze(quote),
          ttlMs === ttl ? undefined : { ttl: Math.min(ttlMs, ttl) },
        );
      };
      return {
        getOne,
        setOne,
        get(ids) {
          const found = new Map<string, Quote>();
          for (const id of ids) {
            const quote = getOne(id);
            if (quote !== undefined) found.set(id, quote);
          }
          return found;
        },
        set(entries) {
          for (const [id, quote] of entries) setOne(id, quote);
        },
      };
    },
    get size() {
      return cache.size;
    },
    clear: () => cache.clear(),
    flush: () => settled,
    close: () => settled,
  };
}
