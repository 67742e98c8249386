import type { SearchQuery } from '../../search/search-query.ts';
import type { SearchResult } from '../../search/search.ts';
import type { Capacity, Media, Policies, Rating, SupplierId } from '../../types.ts';
import type { Deeplinks, PageLinks } from '../links.ts';

export interface V3SupplierEntry {
  link: string;
  media: Media;
  rating: Rating;
  policies: Policies;
  price?: { total: number } | null;
}

export interface V3Accommodation {
  id: string;
  url: string;
  suppliers: Partial<Record<SupplierId, V3SupplierEntry>>;
  name: string;
  type: string;
  location: { address: string; coordinates: { lat: number; lng: number }; distanceInMeters: number | null };
  averageRatings: Rating;
  capacity: Capacity;
}

export interface V3Response {
  meta: {
    pageSize: number;
    count: number;
    page: number;
    hasMore: boolean;
    total: number;
    unresolved: string[];
    currency: string;
  };
  _links: PageLinks;
  results: V3Accommodation[];
}

/** Generic label when a supplier gives no display type (the spec's "generic fallback label"). */
const FALLBACK_TYPE_LABEL = 'Accommodation';

/**
 * The v3 shape: supplier-level rating, media and policies, and the aggregated rating. The
 * supplier map shows the requested providers only; `averageRatings` covers every supplier of the
 * stay, as the spec defines it.
 */
export function presentV3(result: SearchResult, query: SearchQuery, links: PageLinks, go: Deeplinks): V3Response {
  const results = result.hits.map(({ stay, distanceMeters }): V3Accommodation => {
    const suppliers: Partial<Record<SupplierId, V3SupplierEntry>> = {};
    for (const listing of stay.listings) {
      if (query.providers !== null && !query.providers.includes(listing.supplier)) continue;
      suppliers[listing.supplier] = {
        link: go.supplier(listing.supplier, listing.supplierStayId),
        media: listing.media,
        rating: listing.rating,
        policies: listing.policies,
      };
    }
    return {
      id: stay.id,
      url: go.stay(stay.id),
      suppliers,
      name: stay.name,
      type: stay.typeLabel || FALLBACK_TYPE_LABEL,
      location: { address: stay.address, coordinates: { lat: stay.lat, lng: stay.lng }, distanceInMeters: distanceMeters },
      averageRatings: stay.averageRating,
      capacity: stay.capacity,
    };
  });
  return {
    meta: {
      pageSize: query.pageSize,
      count: results.length,
      page: query.page,
      hasMore: result.hasMore,
      total: result.total,
      unresolved: result.unresolved,
      currency: query.currency,
    },
    _links: links,
    results,
  };
}
