import type { QuoteService, SupplierFailure } from '../suppliers/quote-service.ts';
import type { Offers, Stay, SupplierId } from '../types.ts';
import { fromUsd, toUsd } from './currency.ts';
import type { SearchQuery, StayDates } from './search-query.ts';

export type { Offers };

export interface PricedStay {
  stay: Stay;
  /** Suppliers that sell the stay for these dates (or could not say); sold-out ones are absent. */
  offers: Offers;
}

export interface FailureInfo {
  failure: SupplierFailure;
  retryAfterMs?: number;
}

export interface PricingOutcome {
  /** The stays that survive availability and the price filter, in the order given. */
  priced: PricedStay[];
  /** Whether any supplier was asked (false: every quote came from the cache). */
  asked: boolean;
  failures: Partial<Record<SupplierId, FailureInfo>>;
}

export interface PricingOptions {
  services: ReadonlyMap<SupplierId, QuoteService>;
  /** Overall deadline of the pricing step of one search. */
  budgetMs: number;
  /** The currency prices are shown in (already an effective one: see currency.ts). */
  currency: string;
}

/**
 * HIT only when every price came from the quote cache. A supplier refused by its open breaker was
 * not asked either, but its prices are unknown, not cached: that answer is a MISS.
 */
export function cacheStatus(pricing: PricingOutcome): 'HIT' | 'MISS' {
  return pricing.asked || Object.keys(pricing.failures).length > 0 ? 'MISS' : 'HIT';
}

/**
 * Live prices for the candidates of a dated search, from every requested supplier at once under
 * one overall deadline. The pricing rules of the spec:
 * - a supplier that fails leaves `null` on its entries; the stay is kept, also under price filters;
 * - a stay sold out at every supplier that answered (and none failed) is dropped;
 * - `min`/`max` are per-night USD bounds: a stay survives when any supplier's per-night USD price
 *   lies within them, or when some supplier's price is unknown.
 */
export async function priceStays(
  stays: readonly Stay[],
  query: SearchQuery,
  dates: StayDates,
  options: PricingOptions,
): Promise<PricingOutcome> {
  const providers = query.providers;
  const wanted = (supplier: SupplierId) => providers === null || providers.includes(supplier);
  const idsBySupplier = new Map<SupplierId, string[]>();
  for (const stay of stays) {
    for (const listing of stay.listings) {
      if (!wanted(listing.supplier) || !options.services.has(listing.supplier)) continue;
      let ids = idsBySupplier.get(listing.supplier);
      if (ids === undefined) idsBySupplier.set(listing.supplier, (ids = []));
      ids.push(listing.supplierStayId);
    }
  }

  const signal = AbortSignal.timeout(options.budgetMs);
  const { occupancy } = query;
  const outcomes = await Promise.all(
    [...idsBySupplier].map(([supplier, ids]) =>
      options.services.get(supplier)!.quote(
        {
          supplierStayIds: ids,
          checkin: dates.checkin,
          checkout: dates.checkout,
          adults: occupancy.adults,
          children: occupancy.children,
          childrenAges: occupancy.childrenAges,
          rooms: occupancy.rooms,
          currency: options.currency,
        },
        signal,
      ),
    ),
  );
  const bySupplier = new Map(outcomes.map((o) => [o.supplier, o]));

  const failures: PricingOutcome['failures'] = {};
  for (const o of outcomes) {
    if (o.failure !== null)
      failures[o.supplier] = o.retryAfterMs === undefined ? { failure: o.failure } : { failure: o.failure, retryAfterMs: o.retryAfterMs };
  }

  const min = query.minPrice ?? 0;
  const max = query.maxPrice ?? Infinity;
  const filterByPrice = query.minPrice !== null || query.maxPrice !== null;
  const priced: PricedStay[] = [];
  for (const stay of stays) {
    const offers: Offers = new Map();
    let unknown = false;
    let withinBounds = false;
    for (const listing of stay.listings) {
      const outcome = bySupplier.get(listing.supplier);
      if (outcome === undefined) continue;
      const quote = outcome.quotes.get(listing.supplierStayId);
      if (quote === null || quote === undefined) {
        offers.set(listing.supplier, null);
        unknown = true;
        continue;
      }
      if (!quote.available) continue;
      const usd = toUsd(quote.total, quote.currency);
      if (usd === null) {
        // A currency we cannot convert tells us nothing we can show: unknown, not sold out.
        offers.set(listing.supplier, null);
        unknown = true;
        continue;
      }
      // A supplier that priced in the search currency keeps its own figure, unrounded by us.
      offers.set(listing.supplier, quote.currency === options.currency ? quote.total : fromUsd(usd, options.currency));
      const perNight = usd / dates.nights;
      if (perNight >= min && perNight <= max) withinBounds = true;
    }
    if (offers.size === 0) continue;
    if (filterByPrice && !withinBounds && !unknown) continue;
    priced.push({ stay, offers });
  }
  return { priced, asked: outcomes.some((o) => o.asked), failures };
}
