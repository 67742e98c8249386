// Test support: what a Booking.com Demand API slot tells the gateway of a world listing. The
// simulator writes a listing as Booking.com does (its accommodation type ids, a 1-10 review score or
// none, whole bathrooms, its photo under the slot, the stay's own page with Booking.com's
// placeholders) and the driver reads it back; this is the listing the gateway ends up with, ground
// truth for tests that compare against the world (docs/suppliers/booking-demand.md, field mapping).
import { BOOKING_TYPE_IDS, type SimListing } from '@staygate/sim';
import { BOOKING_ACCOMMODATION_TYPES } from '../suppliers/booking-demand-types.ts';
import type { Listing } from '../types.ts';

/** `listing` as the Booking.com driver decodes it from a simulated slot at `slotUrl`. */
export function bookingDemandListing(listing: SimListing, slotUrl: string): Listing & { propertyId: number } {
  const { type, label } = BOOKING_ACCOMMODATION_TYPES[BOOKING_TYPE_IDS[listing.type]];
  const origin = new URL(slotUrl).origin;
  const country = listing.address.slice(listing.address.lastIndexOf(', ') + 2).toLowerCase();
  const score = listing.rating.value !== null && listing.rating.value >= 1 ? listing.rating.value : null;
  const stars = listing.rating.hotelStars !== null && listing.rating.hotelStars >= 1 ? listing.rating.hotelStars : null;
  return {
    ...listing,
    typeLabel: label,
    type,
    rating: { value: score, hotelStars: stars, count: score === null ? 0 : listing.rating.count },
    capacity: {
      guests: listing.capacity.guests,
      bedrooms: listing.capacity.bedrooms,
      beds: null,
      bathrooms: Math.ceil(listing.capacity.bathrooms),
    },
    policies: { instantBook: true, freeCancellation: false },
    media: { thumbnail: listing.media.thumbnail === '' ? '' : `${origin}${listing.media.thumbnail}`, logoSquare: '' },
    url: `${origin}/hotel/${country}/${listing.supplierStayId}.html?aid=!AFFILIATE_ID!&checkin=!START_DATE!&checkout=!END_DATE!`,
  };
}
