// Test support: what an Expedia Rapid slot tells the gateway of a world listing. The simulator
// writes a listing as Rapid does (its category names, stars "0.0" for none, guest ratings on
// 1.0-5.0 and none without reviews, unit configurations, absolute photo URLs) and the driver reads
// it back; this is the listing the gateway ends up with, ground truth for tests that compare against
// the world (docs/suppliers/expedia-rapid.md, field mapping).
import { RAPID_CATEGORIES, type SimListing } from '@staygate/sim';
import { EXPEDIA_RAPID_CATEGORIES } from '../suppliers/expedia-rapid-content.ts';
import { roundRating } from '../suppliers/feed-record.ts';
import type { Listing } from '../types.ts';

/** `listing` as the Rapid driver decodes it from a simulated slot at `slotUrl`. */
export function expediaRapidListing(listing: SimListing, slotUrl: string): Listing & { propertyId: number } {
  const category = RAPID_CATEGORIES[listing.type];
  const { value, count, hotelStars } = listing.rating;
  const reviewed = value !== null && count > 0;
  const { bedrooms, beds } = listing.capacity;
  return {
    ...listing,
    typeLabel: category.name,
    type: EXPEDIA_RAPID_CATEGORIES[category.name.toLowerCase()] ?? 'private_vacation_home',
    // Rapid's guest ratings start at 1.0 (2 on 0-10); a listing nobody reviewed has none.
    rating: { value: reviewed ? roundRating(Math.max(2, value)) : null, hotelStars, count: reviewed ? count : 0 },
    capacity: {
      guests: listing.capacity.guests,
      // Unit configurations: bedrooms are their numbered units, beds their configurations.
      bedrooms: bedrooms === null && beds === null ? null : (bedrooms ?? 0),
      beds: beds === null || beds === 0 ? null : beds,
      bathrooms: 1,
    },
    policies: { instantBook: true, freeCancellation: false },
    media: { thumbnail: listing.media.thumbnail === '' ? '' : `${new URL(slotUrl).origin}${listing.media.thumbnail}`, logoSquare: '' },
  };
}
