import type { SearchQuery } from '../../search/search-query.ts';
import type { SearchResult } from '../../search/search-result.ts';
import type { SupplierId } from '../../types.ts';
import type { Deeplinks, PageLinks } from '../links.ts';
import { displayType, pageMeta, presentClusters, priceOf, shownListings } from '../paged-response.ts';
import type { V3Accommodation, V3Response, V3SupplierEntry } from './v3-response-schema.ts';

/**
 * The v3 shape: supplier-level rating, media and policies, and the aggregated rating. The
 * supplier map shows the requested providers only; `averageRatings` covers every supplier of the
 * stay, as the spec defines it.
 */
export function presentV3(
  result: SearchResult,
  query: SearchQuery,
  links: PageLinks,
  go: Deeplinks,
  expand: (cellId: string) => string,
): V3Response {
  const results = result.hits.map(({ stay, distanceMeters, offers, cellId }): V3Accommodation => {
    const suppliers: Partial<Record<SupplierId, V3SupplierEntry>> = {};
    for (const listing of shownListings(stay, query.providers, offers)) {
      suppliers[listing.supplier] = {
        link: go.supplier(listing.supplier, listing.supplierStayId),
        media: listing.media,
        rating: listing.rating,
        policies: listing.policies,
        ...priceOf(offers, listing.supplier),
      };
    }
    const accommodation: V3Accommodation = {
      id: stay.id,
      url: go.stay(stay.id),
      suppliers,
      name: stay.name,
      type: displayType(stay.typeLabel),
      location: { address: stay.address, coordinates: { lat: stay.lat, lng: stay.lng }, distanceInMeters: distanceMeters },
      averageRatings: stay.averageRating,
      capacity: stay.capacity,
    };
    if (cellId !== undefined) accommodation.cellId = cellId;
    return accommodation;
  });
  const response: V3Response = { meta: pageMeta(result, query, results.length), _links: links, results };
  const clusters = presentClusters(result, expand);
  if (clusters !== undefined) response.clusters = clusters;
  return response;
}
