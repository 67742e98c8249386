import type { IgnoredParam } from '../../errors/api-error.ts';
import type { SearchQuery } from '../../search/search-query.ts';
import type { SearchResult } from '../../search/search-result.ts';
import type { SupplierId } from '../../types.ts';
import type { Deeplinks, Href } from '../search/links.ts';
import { displayType } from '../search/paged-response.ts';
import type { V1Accommodation, V1Response } from './v1-response-schema.ts';

/**
 * Suppliers whose coordinates are approximate: vacation-rental platforms blur a home's position
 * until it is booked, so v1 says `coordinates: null` for them ("null when not precise").
 */
const APPROXIMATE_COORDINATES: ReadonlySet<SupplierId> = new Set(['supplier_d']);

/**
 * The v1 shape: the one searched supplier's own listing (its id, name, rating, media), priced
 * for the whole stay. `links.book` is the tracked deeplink; `links.details` looks the stay up on v3.
 */
export function presentV1(
  result: SearchResult,
  query: SearchQuery,
  provider: SupplierId,
  self: Href,
  go: Deeplinks,
  v3Url: (hotelids: string) => string,
  ignored: readonly IgnoredParam[] = [],
): V1Response {
  const results: V1Accommodation[] = [];
  for (const { stay, distanceMeters: fromCentre, offers } of result.hits) {
    const listing = stay.listings.find((l) => l.supplier === provider);
    const total = offers?.get(provider);
    if (listing === undefined || total === undefined || total === null) continue;
    results.push({
      id: listing.supplierStayId,
      provider,
      name: listing.name,
      type: displayType(listing.typeLabel),
      location: {
        address: listing.address,
        coordinates: APPROXIMATE_COORDINATES.has(provider) ? null : { lat: listing.lat, lng: listing.lng },
        // From the search centre; an ID lookup has none, and v1 requires a number.
        distanceInMeters: fromCentre ?? 0,
      },
      rating: listing.rating,
      price: { total },
      // v1 requires numbers: a stay that lists no bedrooms is a studio.
      capacity: {
        guests: listing.capacity.guests,
        bedrooms: listing.capacity.bedrooms ?? 0,
        bathrooms: listing.capacity.bathrooms,
        beds: listing.capacity.beds,
      },
      policies: listing.policies,
      media: listing.media,
      links: {
        book: go.supplier(provider, listing.supplierStayId),
        details: v3Url(`${provider}:${listing.supplierStayId}`),
      },
    });
  }
  const dates = query.dates;
  return {
    meta: {
      limit: query.pageSize,
      count: results.length,
      currency: result.currency,
      checkin: dates?.checkin ?? null,
      checkout: dates?.checkout ?? null,
      nights: dates?.nights ?? null,
      lang: 'en',
      ...(ignored.length === 0 ? {} : { ignored: [...ignored] }),
    },
    _links: { self },
    results,
  };
}
