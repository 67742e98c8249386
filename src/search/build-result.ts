// The one place a SearchResult is written: every mode (flat, dated, clustered, top) hands its
// page and figures here, so the rules shared by all of them (currency, cache status, failures,
// `total` and `hasMore`) are stated once.
import { distanceMeters } from '../geo/distance.ts';
import type { Stay } from '../types.ts';
import type { Centre } from './candidates.ts';
import { effectiveCurrency } from './currency.ts';
import { cacheStatus, type Offers, type PricingOutcome } from './price-stays.ts';
import type { SearchQuery } from './search-query.ts';
import type { ClusterHit, Clustering, SearchHit, SearchResult } from './search-result.ts';

export interface ResultParts {
  hits: SearchHit[];
  /** What the pages run over (stays, or cells in `top` mode) before paging, not capped. */
  matched: number;
  /** Where this page starts in `matched`. */
  offset: number;
  /** `hotelids` entries that matched nothing. */
  unresolved?: string[];
  /** A dated search's prices; null for a static one, answered from the inventory alone. */
  pricing: PricingOutcome | null;
  clusters?: ClusterHit[] | null;
  clustering?: Clustering | null;
}

export function buildResult(query: SearchQuery, parts: ResultParts, totalCap: number): SearchResult {
  const { pricing } = parts;
  return {
    hits: parts.hits,
    // A static total saturates at the cap; a dated one counts priced survivors (at most pricedCandidates), uncapped.
    total: pricing === null ? Math.min(parts.matched, totalCap) : parts.matched,
    hasMore: parts.offset + query.pageSize < parts.matched,
    unresolved: parts.unresolved ?? [],
    currency: effectiveCurrency(query.currency),
    // A static search is answered from the inventory alone.
    cache: pricing === null ? 'HIT' : cacheStatus(pricing),
    failures: pricing === null ? {} : pricing.failures,
    clusters: parts.clusters ?? null,
    clustering: parts.clustering ?? null,
  };
}

/** The hits of a page of stays: distances from `centre` (none for ID lookups), offers when priced, the cell in `top` mode. */
export function hitsOf(
  stays: readonly Stay[],
  centre: Centre | null,
  offers: (stay: Stay, i: number) => Offers | null,
  cellOf?: (stay: Stay) => string,
): SearchHit[] {
  return stays.map((stay, i) => {
    const hit: SearchHit = {
      stay,
      distanceMeters: centre === null ? null : Math.round(distanceMeters(centre.lat, centre.lng, stay.lat, stay.lng)),
      offers: offers(stay, i),
    };
    if (cellOf !== undefined) hit.cellId = cellOf(stay);
    return hit;
  });
}
