import type { Listing } from '../types.ts';

/**
 * Distinct parts a pull keeps to share, at most: capacities and policies are a few hundred
 * combinations, ratings many more where review counts vary (the simulator's are few): past this
 * the table stops growing, so what it costs is bounded (~15 MB) whatever the feeds hold.
 */
export const MAX_SHARED_PARTS = 131_072;

/**
 * Makes equal parts of the listings of one pull one object: their rating, capacity and policies
 * (frozen: shared, they must not change) and their type label. A feed's parser makes each anew,
 * and at 10M listings in the content worker's heap, ~600 bytes each, these were ~90 of them
 * (measured on the default world's listings: 615 -> 523 bytes a listing). Parts are equal when
 * their JSON is, keys' order included, so a stay's stored document is the same byte for byte.
 * Drop the function with the pull: its tables hold the distinct parts met first.
 */
export function createListingParts(): (listing: Listing) => Listing {
  const parts = new Map<string, object>();
  const labels = new Map<string, string>();
  const share = <T extends object>(part: T): T => {
    const key = JSON.stringify(part);
    const held = parts.get(key);
    if (held !== undefined) return held as T;
    if (parts.size < MAX_SHARED_PARTS) parts.set(key, Object.freeze(part));
    return part;
  };
  return (listing) => {
    let typeLabel = labels.get(listing.typeLabel);
    if (typeLabel === undefined) {
      typeLabel = listing.typeLabel;
      if (labels.size < MAX_SHARED_PARTS) labels.set(typeLabel, typeLabel);
    }
    listing.typeLabel = typeLabel;
    listing.rating = share(listing.rating);
    listing.capacity = share(listing.capacity);
    listing.policies = share(listing.policies);
    return listing;
  };
}
