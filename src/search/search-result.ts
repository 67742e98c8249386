import type { Stay } from '../types.ts';
import type { Offers, PricingOutcome } from './price-stays.ts';
import type { SearchQuery } from './search-query.ts';

export interface SearchHit {
  stay: Stay;
  /** Metres from the search centre (the box centre for a box); null for ID lookups. */
  distanceMeters: number | null;
  /** Dated searches: each bookable supplier's whole-stay price in `currency` (null: unknown). */
  offers: Offers | null;
  /** `cluster=top`: the H3 cell this stay represents. */
  cellId?: string;
}

/** A dense H3 cell summarised as one cluster (`cluster=auto` and `cluster=true`). */
export interface ClusterHit {
  /** The H3 cell index. */
  id: string;
  /** Centre of the cell. */
  lat: number;
  lng: number;
  bounds: { ne: { lat: number; lng: number }; sw: { lat: number; lng: number } };
  /** Stays summarised in the cluster. */
  count: number;
}

export interface Clustering {
  strategy: 'h3';
  /** H3 resolution used. */
  precision: number;
  mode: 'auto' | 'true' | 'top';
}

/** What every presenter starts from: one page of stays and the figures around it. */
export interface SearchResult {
  hits: SearchHit[];
  /** Matching stays, saturating at the configured cap. */
  total: number;
  hasMore: boolean;
  /** `hotelids` entries that matched nothing, as written. */
  unresolved: string[];
  /** The currency prices are in: the requested one, or USD when we hold no rate for it. */
  currency: string;
  /** HIT when no supplier was asked to answer this search, MISS otherwise. */
  cache: 'HIT' | 'MISS';
  /** Suppliers that failed during pricing, and how. */
  failures: PricingOutcome['failures'];
  /** Clusters of `cluster=auto`/`true`, disjoint from `hits`; null for a flat list. */
  clusters: ClusterHit[] | null;
  /** How the answer was clustered; null for a flat list. */
  clustering: Clustering | null;
}

/** The one search pipeline behind every API version (search.ts). */
export type Search = (query: SearchQuery) => Promise<SearchResult>;
