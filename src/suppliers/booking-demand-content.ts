// How one accommodation of Booking.com's `POST /accommodations/details` becomes a Listing.
// docs/suppliers/booking-demand.md has the whole field mapping and its sources.
import type { Listing, SupplierId } from '../types.ts';
import { type FeedRecord, roundRating } from './feed-record.ts';
import { bookingAccommodationType } from './booking-demand-types.ts';

/** The language asked for (`languages`): every translated string is read in it, else its `fallback`. */
export const BOOKING_LANGUAGE = 'en-gb';

/**
 * The extras asked of /accommodations/details: photos (the thumbnail) and rooms (how many guests,
 * bedrooms and bathrooms). Descriptions, facilities and policies are many kilobytes a stay that the
 * listing does not show.
 */
export const BOOKING_DETAILS_EXTRAS = ['photos', 'rooms'] as const;

/** A room size when no room of the stay says how many it sleeps: a double. */
const DEFAULT_GUESTS = 2;

/**
 * A TranslatedString (`{ "en-gb": "...", "fallback": "..." }`) in our language, else the fallback
 * Booking.com adds when the text is missing in it.
 */
export function translated(record: FeedRecord, key: string): string {
  const text = record.record(key);
  const value = text.nullableString(BOOKING_LANGUAGE) ?? text.nullableString('fallback');
  return value ?? record.fail(key, `a text in ${BOOKING_LANGUAGE} or a fallback`);
}

/** The main photo's 500-pixel `standard` URL (photos come in no order), else the first photo's; '' when none. */
function thumbnailOf(record: FeedRecord): string {
  if (!record.has('photos')) return '';
  const photos = record.records('photos');
  const main = photos.find((photo) => photo.has('main_photo') && photo.boolean('main_photo')) ?? photos[0];
  if (main === undefined) return '';
  const url = main.record('url');
  return url.nullableString('standard') ?? url.string('large');
}

/** The stay's size from its rooms (extras `rooms`): the largest room's guests, bedrooms and bathrooms. */
function capacityOf(record: FeedRecord): Listing['capacity'] {
  let guests = 0;
  let bedrooms: number | null = null;
  let bathrooms: number | null = null;
  for (const room of record.has('rooms') ? record.records('rooms') : []) {
    if (room.has('maximum_occupancy')) {
      const occupancy = room.record('maximum_occupancy');
      const adults = occupancy.nullableNumber('adults') ?? 0;
      const children = occupancy.nullableNumber('children') ?? 0;
      guests = Math.max(guests, adults + children, occupancy.nullableNumber('total_guests') ?? 0);
    }
    if (room.has('number_of_rooms')) {
      const rooms = room.record('number_of_rooms');
      const beds = rooms.nullableNumber('bedrooms');
      const baths = rooms.nullableNumber('bathrooms');
      if (beds !== null) bedrooms = Math.max(bedrooms ?? 0, beds);
      if (baths !== null) bathrooms = Math.max(bathrooms ?? 0, baths);
    }
  }
  // A hotel room has its bathroom: one when no room says.
  return { guests: guests > 0 ? guests : DEFAULT_GUESTS, bedrooms, beds: null, bathrooms: bathrooms ?? 1 };
}

/**
 * One accommodation as a Listing of `supplier`; `cities` names the city ids of its country
 * (/common/locations/cities). A wrong field throws a `malformed` SupplierError naming it.
 */
export function decodeBookingAccommodation(record: FeedRecord, supplier: SupplierId, cities: ReadonlyMap<number, string>): Listing {
  const id = record.integer('id');
  if (id < 1) record.fail('id', 'an accommodation id (a positive integer)');
  const kind = bookingAccommodationType(record.integer('accommodation_type'));
  const location = record.record('location');
  const coordinates = location.record('coordinates');
  const country = location.string('country').toUpperCase();
  const city = location.has('city') ? (cities.get(location.integer('city')) ?? null) : null;
  const street = location.has('address') ? translated(location, 'address') : '';
  const rating = record.has('rating') ? record.record('rating') : null;
  // Booking.com's review score is on 1-10 already; a stay without one has none (null, never 0).
  const score = rating?.has('review_score') ? roundRating(rating.numberIn('review_score', 1, 10)) : null;
  const stars = rating?.has('stars') ? rating.numberIn('stars', 1, 5) : null;
  return {
    supplier,
    supplierStayId: String(id),
    name: translated(record, 'name'),
    typeLabel: kind.label,
    type: kind.type,
    address: [street, city, country].filter((part) => part !== null && part !== '').join(', '),
    lat: coordinates.numberIn('latitude', -90, 90),
    lng: coordinates.numberIn('longitude', -180, 180),
    rating: {
      value: score,
      hotelStars: stars,
      count: score === null ? 0 : (rating?.nullableNumber('number_of_reviews') ?? 0),
    },
    capacity: capacityOf(record),
    // Booking.com confirms at once; cancellation terms belong to each product (quotes), not the content.
    policies: { instantBook: true, freeCancellation: false },
    // No logo in Booking.com's content.
    media: { thumbnail: thumbnailOf(record), logoSquare: '' },
    // The stay's page with Booking.com's placeholders: /go fills them (src/clicks/booking-com-url.ts).
    ...(record.has('url') ? { url: record.string('url') } : {}),
  };
}
