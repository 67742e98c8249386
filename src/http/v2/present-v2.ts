import type { SearchQuery } from '../../search/search-query.ts';
import type { SearchResult } from '../../search/search-result.ts';
import type { SupplierId } from '../../types.ts';
import type { Deeplinks, PageLinks } from '../links.ts';
import { pageMeta, presentClusters } from '../paged-response.ts';
import type { V2Accommodation, V2Response, V2SupplierEntry } from './v2-response-schema.ts';

const FALLBACK_TYPE_LABEL = 'Accommodation';

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
): V2Response {
  const results = result.hits.map(({ stay, distanceMeters, offers, cellId }): V2Accommodation => {
    const suppliers: Partial<Record<SupplierId, V2SupplierEntry>> = {};
    const shown = stay.listings.filter((l) =>
      (query.providers === null || query.providers.includes(l.supplier)) && (offers === null || offers.has(l.supplier)));
    for (const listing of shown) {
      const entry: V2SupplierEntry = { link: go.supplier(listing.supplier, listing.supplierStayId), media: { logoSquare: listing.media.logoSquare } };
      if (offers !== null) {
        const total = offers.get(listing.supplier)!;
        entry.price = total === null ? null : { total };
      }
      suppliers[listing.supplier] = entry;
    }
    const first = shown[0] ?? stay.listings[0];
    const accommodation: V2Accommodation = {
      id: stay.id,
      url: go.stay(stay.id),
      suppliers,
      name: stay.name,
      type: stay.typeLabel || FALLBACK_TYPE_LABEL,
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

  const response: V2Response = { meta: pageMeta(result, query, results.length), _links: links, results };
  const clusters = presentClusters(result, expand);
  if (clusters !== undefined) response.clusters = clusters;
  return response;
}
