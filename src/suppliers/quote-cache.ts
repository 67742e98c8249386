import { LRUCache } from 'lru-cache';
import { defaults } from '../defaults.ts';
import type { SupplierId } from '../types.ts';
import type { Quote, QuoteRequest } from './supplier.ts';

export interface QuoteCacheOptions {
  /** How long a quote is reused. */
  ttlMs?: number;
  /** Most quotes held; the least recently used go first. */
  maxEntries?: number;
  /** Milliseconds clock (injected so that tests expire entries by hand; default performance.now). */
  now?: () => number;
}

/** One supplier's entries for one stay request (dates, party, currency): looked up by stay id. */
export interface QuoteCacheScope {
  get(supplierStayId: string): Quote | undefined;
  set(supplierStayId: string, quote: Quote): void;
}

/**
 * Short-lived quotes, one entry per (supplier, stay, checkin, checkout, adults, children, rooms,
 * currency). Holds answers only, available or sold out: a failure is never cached, so the next
 * search asks again. Entries are frozen: every search that hits one shares the object.
 */
export interface QuoteCache {
  /** The entries of `supplier` for the stay `request` describes (its ids are ignored). */
  scope(supplier: SupplierId, request: QuoteRequest): QuoteCacheScope;
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
  const children = request.childrenAges === null
    ? `n${request.children}`
    : `a${[...request.childrenAges].sort((x, y) => x - y).join(',')}`;
  return JSON.stringify([supplier, request.checkin, request.checkout, request.adults, children, request.rooms, request.currency]);
}

export function createQuoteCache(options: QuoteCacheOptions = {}): QuoteCache {
  const now = options.now;
  const cache = new LRUCache<string, Quote>({
    max: options.maxEntries ?? defaults.quoteCacheMaxEntries,
    ttl: options.ttlMs ?? defaults.quoteCacheTtlMs,
    // lru-cache reads its clock through `perf`. ttlResolution 0: ask the clock on every check,
    // since its default debounce caches "now" behind a real timer, which an injected clock defeats.
    // The +1: lru-cache takes a start time of 0 for "no TTL", so a clock starting at 0 (as test
    // clocks do) would never expire anything. Only differences of the clock matter.
    ...(now ? { perf: { now: () => now() + 1 }, ttlResolution: 0 } : {}),
  });
  return {
    scope(supplier, request) {
      // One request prices many ids: the shared part of the key is computed once.
      const prefix = quoteKeyPrefix(supplier, request);
      return {
        get: (id) => cache.get(prefix + id),
        set: (id, quote) => {
          cache.set(prefix + id, Object.freeze(quote));
        },
      };
    },
    get size() {
      return cache.size;
    },
    clear: () => cache.clear(),
  };
}
