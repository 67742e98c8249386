import type { IgnoredParam } from '../../errors/api-error.ts';
import type { SearchQuery } from '../../search/search-query.ts';
import type { SearchResult } from '../../search/search-result.ts';
import type { SupplierId } from '../../types.ts';
import type { Deeplinks, PageLinks } from '../search/links.ts';
import { displayType, pageMeta, presentClusters, priceOf, shownListings } from '../search/paged-response.ts';
import type { V2Accommodation, V2Response, V2SupplierEntry } from './v2-response-schema.ts';

/**
 * The v2 shape. Accommodation-level fields are summaries over the suppliers shown: `rating` is
 * the stay's review-weighted rating, `policies` say what at least one of them offers, `media`
 * is the first shown supplier's (in supplier order).
 */
export function presentV2(
  result: SearchResult,
  query: SearchQuery,
  links: PageLinks,
  go: Deeplinks,
  expand: (cellId: string) => string,
  ignored: readonly IgnoredParam[],
  contentUnavailable: readonly SupplierId[] = [],
): V2Response {
  const results = result.hits.map(({ stay, distanceMeters, offers, cellId }): V2Accommodation => {
    const suppliers: Partial<Record<SupplierId, V2SupplierEntry>> = {};
    const shown = shownListings(stay, query.providers, offers);
    for (const listing of shown) {
      suppliers[listing.supplier] = {
        link: go.supplier(listing.supplier, listing.supplierStayId),
        media: { logoSquare: listing.media.logoSquare },
        ...priceOf(offers, listing.supplier),
      };
    }
    const first = shown[0] ?? stay.listings[0];
    const accommodation: V2Accommodation = {
      id: stay.id,
      url: go.stay(stay.id),
      suppliers,
      name: stay.name,
      type: displayType(stay.typeLabel),
      location: { address: stay.address, coordinates: { lat: stay.lat, lng: stay.lng }, distanceInMeters: distanceMeters },
      rating: stay.averageRating,
      policies: {
        instantBook: shown.some((l) => l.policies.instantBook),
        freeCancellation: shown.some((l) => l.policies.freeCancellation),
      },
      media: first.media,
      capacity: stay.capacity,
    };
    if (cellId !== undefined) accommodation.cellId = cellId;
    return accommodation;
  });

  const response: V2Response = { meta: pageMeta(result, query, results.length, ignored, contentUnavailable), _links: links, results };
  const clusters = presentClusters(result, expand);
  if (clusters !== undefined) response.clusters = clusters;
  return response;
}
