import { distanceMeters } from '../geo/distance.ts';
import { NO_RATING, NO_STARS, supplierMask, supplierSlot, typeCode, type StayIndex } from '../inventory/stay-index.ts';
import { STAY_TYPES, SUPPLIER_IDS } from '../types.ts';
import type { SearchQuery } from './search-query.ts';

const ALL_SUPPLIERS = supplierMask(SUPPLIER_IDS);
const HOTEL = typeCode('hotel');

/** The static filters as one predicate over the index columns. */
export function staticFilter(
  index: StayIndex,
  query: SearchQuery,
  centre: { lat: number; lng: number } | null,
  radius: number | null,
): (idx: number) => boolean {
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
  // The stay's average, or one supplier's own listing (v1), at `idx * stride + slot`.
  const ratings =
    query.ratingsOf === undefined
      ? { stars: index.stars, rating: index.rating, stride: 1, slot: 0 }
      : { stars: index.listingStars, rating: index.listingRating, stride: SUPPLIER_IDS.length, slot: supplierSlot(query.ratingsOf) };
  return (idx) => {
    if ((index.suppliers[idx] & mask) === 0) return false;
    if (allowedTypes !== null && allowedTypes[index.type[idx]] === 0) return false;
    const at = idx * ratings.stride + ratings.slot;
    if (minStars > 0) {
      const stars = ratings.stars[at];
      // Stars are stored in half stars, so 3.5 compares as 7 exactly.
      if (stars === NO_STARS || stars < minStars) return false;
    }
    if (minRating > 0) {
      // Ratings are stored in tenths; a bound like 8.25 keeps 8.3 and drops 8.2. A stay without a
      // guest rating meets no bound (docs/decisions.md 136).
      const rating = ratings.rating[at];
      if (rating === NO_RATING || rating < minRating - 1e-9) return false;
    }
    if (minCount > 0 && index.reviewCount[idx] < minCount) return false;
    if (tokens !== null && (index.type[idx] !== HOTEL || !index.nameHasAll(idx, tokens))) return false;
    if (radius !== null && distanceMeters(centre!.lat, centre!.lng, lat[idx], lng[idx]) > radius) return false;
    return true;
  };
}

/** No filter beyond the location: every stay inside it matches (the index's counts answer without a predicate). */
export function isUnfiltered(query: SearchQuery): boolean {
  if (query.hotelIds !== null || query.hotelSearch !== null || query.cell !== null) return false;
  if (query.providers !== null && supplierMask(query.providers) !== ALL_SUPPLIERS) return false;
  if (query.types !== null && query.types.length < STAY_TYPES.length) return false;
  return query.minStars === 0 && query.minGuestRating === 0 && query.minRatingCount === 0;
}
