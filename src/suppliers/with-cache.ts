import type { SupplierId } from '../types.ts';
import type { PriceCall, QuoteCall } from './quote-call.ts';
import type { QuoteCache } from './quote-cache.ts';
import type { Quote } from './supplier.ts';

/**
 * `priced` behind the quote cache: every asked id once, in asked order; one lookup for all of
 * them (a shared cache: one round trip), and only the ids it does not hold are priced.
 * `onLookup` tells how many were held and how many were not. Answers go into the cache as each
 * call brings them (`withCacheWrites`), not here: a late one is still good.
 */
export function withCache(
  priced: PriceCall,
  cache: QuoteCache,
  supplier: SupplierId,
  onLookup: (hits: number, misses: number) => void,
): PriceCall {
  return async (request, signal) => {
    // Null until answered; Map.set on a present key keeps its place.
    const quotes = new Map<string, Quote | null>(request.supplierStayIds.map((id) => [id, null]));
    // It never rejects. Memory answers at once, without an await: what follows (queueing the
    // batches) happens in this same turn, and a hit costs no turn of the event loop.
    const lookup = cache.scope(supplier, request).get([...quotes.keys()]);
    const held = lookup instanceof Map ? lookup : await lookup;
    const missing: string[] = [];
    for (const id of quotes.keys()) {
      const cached = held.get(id);
      if (cached === undefined) missing.push(id);
      else quotes.set(id, cached);
    }
    onLookup(quotes.size - missing.length, missing.length);
    if (missing.length === 0) return { quotes, failure: null, asked: false };
    const answer = await priced({ ...request, supplierStayIds: missing }, signal);
    for (const [id, quote] of answer.quotes) quotes.set(id, quote);
    return { ...answer, quotes };
  };
}

/**
 * `call` writing each answer into the cache (available or not: a failure is never cached), even
 * when the search stopped waiting for it on its budget.
 */
export function withCacheWrites(call: QuoteCall, cache: QuoteCache, supplier: SupplierId): QuoteCall {
  return async (request, signal) => {
    const answer = await call(request, signal);
    cache.scope(supplier, request).set([...answer]);
    return answer;
  };
}
