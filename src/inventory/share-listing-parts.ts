import type { Listing } from '../types.ts';

/**
 * Distinct values a sharing table keeps, at most: capacities and policies are a few hundred
 * combinations, ratings many more where review counts vary (the simulator's are few): past this
 * a table stops growing, so what it costs is bounded (~15 MB) whatever the feeds hold.
 */
export const MAX_SHARED_PARTS = 131_072;

/**
 * A table that makes equal values one: for a key it has, the value it holds; else the value given,
 * kept (frozen, when an object: shared, it must not change) while the table has room.
 */
export function createSharing<T>(): (key: string, value: T) => T {
  const held = new Map<string, T>();
  return (key, value) => {
    const found = held.get(key);
    if (found !== undefined) return found;
    if (held.size < MAX_SHARED_PARTS) held.set(key, typeof value === 'object' && value !== null ? (Object.freeze(value) as T) : value);
    return value;
  };
}

/**
 * Makes equal parts of the listings of one pull one object: their rating, capacity and policies
 * (frozen) and their type label. A feed's parser makes each anew, and at 10M listings in the
 * content worker's heap, ~600 bytes each, these were ~90 of them (measured on the default world's
 * listings: 615 -> 523 bytes a listing). Parts are equal when their JSON is, keys' order
 * included, so a stay's stored document is the same byte for byte. Drop the function with the
 * pull: its tables hold the distinct parts met first.
 */
export function createListingParts(): (listing: Listing) => Listing {
  const parts = createSharing<object>();
  const labels = createSharing<string>();
  const share = <T extends object>(part: T): T => parts(JSON.stringify(part), part) as T;
  return (listing) => {
    listing.typeLabel = labels(listing.typeLabel, listing.typeLabel);
    listing.rating = share(listing.rating);
    listing.capacity = share(listing.capacity);
    listing.policies = share(listing.policies);
    return listing;
  };
}
