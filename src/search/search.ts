import { ApiError } from '../errors/api-error.ts';
import type { Geocoder } from '../geo/geocoder.ts';
import { GeocoderError } from '../geo/geocoder-error.ts';
import { boxAroundPoint } from '../geo/bounding-box.ts';
import { distanceMeters } from '../geo/distance.ts';
import type { StayCache } from '../inventory/stay-cache.ts';
import { NO_STARS, supplierMask, typeCode, type StayIndex } from '../inventory/stay-index.ts';
import type { Store } from '../store/store.ts';
import { STAY_TYPES, SUPPLIER_IDS, type HotelIdRef, type Stay, type SupplierId } from '../types.ts';
import type { SearchQuery, StayDates } from './search-query.ts';
import { effectiveCurrency } from './currency.ts';
import { priceStays, type Offers, type PricingOutcome } from './price-stays.ts';
import type { QuoteService } from '../suppliers/quote-service.ts';
import { selectByRank } from './select-by-rank.ts';

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

export interface SearchDeps {
  index: StayIndex;
  stays: StayCache;
  store: Store;
  geocoder: Geocoder;
  /** Where `meta.total` saturates. */
  totalCap: number;
  /** Live prices: one quote service per configured supplier. */
  quotes: ReadonlyMap<SupplierId, QuoteService>;
  /** Dated searches price at most this many best-ranked candidates (DESIGN decision 11). */
  pricedCandidates: number;
  /** Overall deadline for the suppliers' quotes of one search. */
  quoteBudgetMs: number;
}

export type Search = (query: SearchQuery) => Promise<SearchResult>;

interface Centre {
  lat: number;
  lng: number;
}

/** One page of stays, before their details are fetched. */
interface Page {
  pageIdx: number[];
  /** Stays matching before paging (not capped). */
  matched: number;
  unresolved: string[];
  /** Where distances are measured from; null for ID lookups. */
  centre: Centre | null;
}

const ALL_SUPPLIERS = supplierMask(SUPPLIER_IDS);
const HOTEL = typeCode('hotel');

/** The one search pipeline behind every API version. */
export function createSearch(deps: SearchDeps): Search {
  const { index } = deps;

  /** A geocoder outage is the upstream's failure (502/504), not the caller's (400) nor ours (500). */
  async function geocode(address: string) {
    try {
      return await deps.geocoder.geocode(address);
    } catch (error) {
      if (!(error instanceof GeocoderError)) throw error;
      const code = error.failure === 'timeout' ? 'UPSTREAM_TIMEOUT' : 'BAD_GATEWAY';
      throw new ApiError(code, `The geocoder failed (${error.failure}) while resolving address`, { details: { params: { address: error.message } } });
    }
  }

  /** Candidates of a location, with the centre distances are measured from. */
  async function locate(query: SearchQuery): Promise<{ candidates: number[]; centre: Centre; radius: number | null }> {
    const location = query.location!;
    if (location.kind === 'box') {
      const { south, west, north, east } = location;
      return { candidates: index.inBox(south, west, north, east), centre: boxCentre(location), radius: null };
    }
    let centre: Centre;
    if (location.kind === 'point') centre = location;
    else {
      const place = await geocode(location.address);
      if (place === null) {
        throw ApiError.fromViolations([
          { param: 'address', code: 'VALIDATION_ERROR', message: `address "${location.address}" could not be resolved to a place` },
        ]);
      }
      centre = place;
    }
    const box = boxAroundPoint(centre.lat, centre.lng, location.radius);
    return { candidates: index.inBox(box.south, box.west, box.north, box.east), centre, radius: location.radius };
  }

  /** Stays named by `hotelids`, in the order asked, with the entries that matched nothing. */
  async function lookup(query: SearchQuery): Promise<{ candidates: number[]; unresolved: string[] }> {
    // With a single provider, bare ids are read in that supplier's namespace.
    const only: SupplierId | null = query.providers?.length === 1 ? query.providers[0] : null;
    const refs: HotelIdRef[] = query.hotelIds!.map((ref) => (ref.supplier === null && only ? { ...ref, supplier: only } : ref));
    const matches = await deps.store.resolveHotelIds(refs);
    const seen = new Set<number>();
    const candidates: number[] = [];
    const unresolved: string[] = [];
    matches.forEach((idxs, i) => {
      if (idxs.length === 0) unresolved.push(refs[i].raw);
      // A bare id may name several stays: best-ranked first, so the order is stable.
      for (const idx of [...idxs].sort((a, b) => index.rank[a] - index.rank[b])) {
        if (!seen.has(idx)) {
          seen.add(idx);
          candidates.push(idx);
        }
      }
    });
    return { candidates, unresolved };
  }

  /** The static filters as one predicate over the index columns. */
  function staticFilter(query: SearchQuery, centre: Centre | null, radius: number | null): (idx: number) => boolean {
    const mask = query.providers === null ? ALL_SUPPLIERS : supplierMask(query.providers);
    let allowedTypes: Uint8Array | null = null;
    if (query.types !== null) {
      allowedTypes = new Uint8Array(256);
      for (const t of query.types) allowedTypes[typeCode(t)] = 1;
    }
    const minStars = query.minStars > 0 ? query.minStars * 2 : 0;
    const minRating = query.minGuestRating > 0 ? query.minGuestRating * 10 : 0;
    const minCount = query.minRatingCount;
    const tokens = query.hotelSearch;
    const { lat, lng } = index;
    return (idx) => {
      if ((index.suppliers[idx] & mask) === 0) return false;
      if (allowedTypes !== null && allowedTypes[index.type[idx]] === 0) return false;
      if (minStars > 0) {
        const stars = index.stars[idx];
        // Stars are stored in half stars, so 3.5 compares as 7 exactly.
        if (stars === NO_STARS || stars < minStars) return false;
      }
      // Ratings are stored in tenths; a bound like 8.25 keeps 8.3 and drops 8.2.
      if (minRating > 0 && index.rating[idx] < minRating - 1e-9) return false;
      if (minCount > 0 && index.reviewCount[idx] < minCount) return false;
      if (tokens !== null && (index.type[idx] !== HOTEL || !index.nameHasAll(idx, tokens))) return false;
      if (radius !== null && distanceMeters(centre!.lat, centre!.lng, lat[idx], lng[idx]) > radius) return false;
      return true;
    };
  }

  /**
   * A box with no attribute filter, the common map-viewport case, needs no candidate list: the
   * count comes from the kd-tree's subtrees and the page from walking the global ranking when the
   * box is busy enough for that to be the cheaper way (expected checks k * n / count < count).
   */
  function unfilteredBox(query: SearchQuery, offset: number): Page | null {
    const location = query.location;
    if (location?.kind !== 'box' || query.hotelIds !== null || query.hotelSearch !== null) return null;
    if (query.providers !== null && supplierMask(query.providers) !== ALL_SUPPLIERS) return null;
    if (query.types !== null && query.types.length < STAY_TYPES.length) return null;
    if (query.minStars > 0 || query.minGuestRating > 0 || query.minRatingCount > 0) return null;
    const { south, west, north, east } = location;
    const matched = index.countInBox(south, west, north, east);
    const k = offset + query.pageSize;
    const pageIdx = matched * matched > k * index.size
      ? index.bestInBox(south, west, north, east, offset, query.pageSize)
      : selectByRank(index.inBox(south, west, north, east), index.rank, index.byRank, offset, query.pageSize);
    return { pageIdx, matched, unresolved: [], centre: boxCentre(location) };
  }

  /** Every other search: list the candidates, filter them, then order and page. */
  async function filtered(query: SearchQuery, offset: number): Promise<Page> {
    let candidates: number[];
    let unresolved: string[] = [];
    let centre: Centre | null = null;
    let radius: number | null = null;
    if (query.hotelIds !== null) ({ candidates, unresolved } = await lookup(query));
    else ({ candidates, centre, radius } = await locate(query));

    const matched = candidates.filter(staticFilter(query, centre, radius));
    let pageIdx: number[];
    if (query.hotelIds !== null) {
      pageIdx = matched.slice(offset, offset + query.pageSize);
    } else if (query.hotelSearch !== null) {
      const c = centre!;
      const distance = new Map(matched.map((idx) => [idx, distanceMeters(c.lat, c.lng, index.lat[idx], index.lng[idx])]));
      matched.sort((a, b) => distance.get(a)! - distance.get(b)! || index.rank[a] - index.rank[b]);
      pageIdx = matched.slice(offset, offset + query.pageSize);
    } else {
      pageIdx = selectByRank(matched, index.rank, index.byRank, offset, query.pageSize);
    }
    return { pageIdx, matched: matched.length, unresolved, centre };
  }

  function hitsOf(stays: readonly Stay[], centre: Centre | null, offers: (stay: Stay, i: number) => Offers | null): SearchHit[] {
    return stays.map((stay, i) => ({
      stay,
      distanceMeters: centre === null ? null : Math.round(distanceMeters(centre.lat, centre.lng, stay.lat, stay.lng)),
      offers: offers(stay, i),
    }));
  }

  /**
   * A dated search prices the best-ranked candidates (at most `pricedCandidates`), keeps those
   * that survive availability and the price filter, and pages over the survivors: `total` counts
   * survivors, so it agrees with `hasMore` and `_links.next`.
   */
  async function dated(query: SearchQuery, dates: StayDates, offset: number): Promise<SearchResult> {
    const top = { ...query, page: 1, pageSize: deps.pricedCandidates };
    const { pageIdx, unresolved, centre } = unfilteredBox(top, 0) ?? (await filtered(top, 0));
    const currency = effectiveCurrency(query.currency);
    const pricing = await priceStays(await deps.stays.get(pageIdx), query, dates, { services: deps.quotes, budgetMs: deps.quoteBudgetMs, currency });
    const page = pricing.priced.slice(offset, offset + query.pageSize);
    return {
      hits: hitsOf(page.map((p) => p.stay), centre, (_stay, i) => page[i].offers),
      total: pricing.priced.length,
      hasMore: offset + query.pageSize < pricing.priced.length,
      unresolved,
      currency,
      cache: pricing.asked ? 'MISS' : 'HIT',
      failures: pricing.failures,
      clusters: null,
      clustering: null,
    };
  }

  return async function search(query) {
    const offset = (query.page - 1) * query.pageSize;
    if (query.dates !== null) return dated(query, query.dates, offset);
    const { pageIdx, matched, unresolved, centre } = unfilteredBox(query, offset) ?? (await filtered(query, offset));
    return {
      hits: hitsOf(await deps.stays.get(pageIdx), centre, () => null),
      total: Math.min(matched, deps.totalCap),
      hasMore: offset + query.pageSize < matched,
      unresolved,
      currency: effectiveCurrency(query.currency),
      // A static search is answered from the inventory alone.
      cache: 'HIT',
      failures: {},
      clusters: null,
      clustering: null,
    };
  };
}

function boxCentre(box: { south: number; west: number; north: number; east: number }): Centre {
  const width = box.west <= box.east ? box.east - box.west : box.east + 360 - box.west;
  let lng = box.west + width / 2;
  if (lng > 180) lng -= 360;
  return { lat: (box.south + box.north) / 2, lng };
}
