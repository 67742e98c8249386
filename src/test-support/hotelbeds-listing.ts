// Test support: what a Hotelbeds slot tells the gateway of a world listing. The simulator writes a
// listing as Hotelbeds does (its accommodation types, star categories, no guest rating, relative
// photo paths) and the driver reads it back; this is the listing the gateway ends up with, ground
// truth for tests that compare against the world (docs/suppliers/hotelbeds.md, field mapping).
import { HOTELBEDS_TYPE_CODES, type SimListing } from '@staygate/sim';
import { HOTELBEDS_ACCOMMODATION_TYPES } from '../suppliers/hotelbeds-content.ts';
import type { Listing } from '../types.ts';

/** `listing` as the Hotelbeds driver decodes it from a simulated slot at `slotUrl`. */
export function hotelbedsListing(listing: SimListing, slotUrl: string): Listing & { propertyId: number } {
  const { type, label } = HOTELBEDS_ACCOMMODATION_TYPES[HOTELBEDS_TYPE_CODES[listing.type]];
  const photo = listing.media.thumbnail.replace(/^\/+/, '');
  return {
    ...listing,
    typeLabel: label,
    type,
    rating: { value: null, hotelStars: listing.rating.hotelStars, count: 0 },
    capacity: { guests: listing.capacity.guests, bedrooms: null, beds: null, bathrooms: 1 },
    policies: { instantBook: true, freeCancellation: false },
    media: { thumbnail: photo === '' ? '' : `${new URL(slotUrl).origin}/giata/${photo}`, logoSquare: '' },
  };
}
