// Test support: what a LiteAPI slot tells the gateway of a world listing. The simulator writes a
// listing as LiteAPI does (its hotel type ids, the room size in the accessibility block, absolute
// photo URLs on the slot) and the driver reads it back; this is the listing the gateway ends up
// with, ground truth for tests that compare against the world (docs/suppliers/liteapi.md, field mapping).
import { LITEAPI_HOTEL_TYPE_IDS, type SimListing } from '@staygate/sim';
import { liteapiHotelType } from '../suppliers/liteapi-content.ts';
import type { Listing } from '../types.ts';

/** `listing` as the LiteAPI driver decodes it from a simulated slot at `slotUrl`. */
export function liteapiListing(listing: SimListing, slotUrl: string): Listing & { propertyId: number } {
  const { type, label } = liteapiHotelType(LITEAPI_HOTEL_TYPE_IDS[listing.type]);
  const photo = listing.media.thumbnail;
  return {
    ...listing,
    typeLabel: label,
    type,
    rating: { value: listing.rating.value, hotelStars: listing.rating.hotelStars, count: listing.rating.count },
    capacity: { guests: listing.capacity.guests, bedrooms: null, beds: null, bathrooms: 1 },
    policies: { instantBook: true, freeCancellation: false },
    media: { thumbnail: photo === '' ? '' : `${new URL(slotUrl).origin}${photo}`, logoSquare: '' },
  };
}
