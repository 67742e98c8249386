// How one hotel of LiteAPI's hotel list (`GET /data/hotels`, static.json) becomes a Listing.
// docs/suppliers/liteapi.md has the whole field mapping and its sources.
import type { Listing, StayType, SupplierId } from '../types.ts';
import { roundRating, type FeedRecord } from './feed-record.ts';

/**
 * `hotelTypeId` -> StayType and the label shown for it (decision 156). LiteAPI's ids are the
 * accommodation type ids of its `/data/hotelTypes` list; the spec's own examples confirm 204
 * (Hotel Jadran) and 201 (Apartmani Ani). An id not here is a hotel labelled with its id, so an
 * operator sees what came; a hotel without one is a hotel.
 */
export const LITEAPI_HOTEL_TYPES: Readonly<Record<number, { type: StayType; label: string }>> = {
  201: { type: 'apartment', label: 'Apartment' },
  203: { type: 'hostel', label: 'Hostel' },
  204: { type: 'hotel', label: 'Hotel' },
  205: { type: 'hotel', label: 'Motel' },
  206: { type: 'resort', label: 'Resort' },
  207: { type: 'residence', label: 'Residence' },
  208: { type: 'bed_and_breakfast', label: 'Bed and breakfast' },
  209: { type: 'ryokan', label: 'Ryokan' },
  210: { type: 'farm_stay', label: 'Farm stay' },
  213: { type: 'villa', label: 'Villa' },
  216: { type: 'pension', label: 'Guest house' },
  219: { type: 'aparthotel', label: 'Aparthotel' },
  220: { type: 'private_vacation_home', label: 'Holiday home' },
  221: { type: 'lodge', label: 'Lodge' },
  223: { type: 'country_house', label: 'Country house' },
  227: { type: 'riad', label: 'Riad' },
  228: { type: 'chalet', label: 'Chalet' },
  229: { type: 'condo', label: 'Condo' },
  230: { type: 'cottage', label: 'Cottage' },
};

/** A room's size when the hotel does not say how many it sleeps: a double (decision 156). */
export const LITEAPI_DEFAULT_GUESTS = 2;

/** The type of a `hotelTypeId` (absent: a hotel). */
export function liteapiHotelType(id: number | null): { type: StayType; label: string } {
  if (id === null) return { type: 'hotel', label: 'Hotel' };
  return LITEAPI_HOTEL_TYPES[id] ?? { type: 'hotel', label: `Hotel type ${id}` };
}

/** Stars 0.5-5 as given; 0 or absent is no star rating: null, never 0. */
export function liteapiStars(record: FeedRecord): number | null {
  const stars = record.nullableNumber('stars');
  if (stars === null || stars === 0) return null;
  return stars > 0 && stars <= 5 ? stars : record.fail('stars', 'a star rating from 0 to 5');
}

/**
 * The guest rating, already on the interface's 0-10 scale (`rating`: "8.5 out of 10"), and its
 * review count. Absent, or 0 with no reviews behind it (how a hotel nobody rated reads), is no
 * rating: null, never 0.
 */
export function liteapiRating(record: FeedRecord): { value: number | null; count: number } {
  const value = record.nullableNumber('rating');
  const count = record.nullableNumber('reviewCount') ?? 0;
  if (!(Number.isInteger(count) && count >= 0)) record.fail('reviewCount', 'a count of reviews');
  if (value === null || (value === 0 && count === 0)) return { value: null, count: 0 };
  if (!(value >= 0 && value <= 10)) record.fail('rating', 'a guest rating from 0 to 10');
  return { value: roundRating(value), count };
}

/** The most guests a room takes, where the accessibility block says it (`roomMaxGuestsNumber`; 0 means unknown). */
function guestsOf(record: FeedRecord): number {
  if (!record.has('accessibilityAttributes')) return LITEAPI_DEFAULT_GUESTS;
  const access = record.record('accessibilityAttributes');
  const most = access.nullableNumber('roomMaxGuestsNumber');
  if (most === null || most === 0) return LITEAPI_DEFAULT_GUESTS;
  return Number.isInteger(most) && most > 0 ? most : access.fail('roomMaxGuestsNumber', 'a positive integer');
}

/** One hotel of `/data/hotels` as a Listing of `supplier`; a wrong field throws a `malformed` SupplierError naming it. */
export function decodeLiteapiHotel(record: FeedRecord, supplier: SupplierId): Listing {
  const id = record.string('id');
  if (id === '') record.fail('id', 'a hotel id');
  const typeId = record.nullableNumber('hotelTypeId');
  const { type, label } = liteapiHotelType(typeId);
  const street = record.nullableString('address') ?? '';
  const place = [street, record.string('city'), record.string('country')].filter((part) => part !== '');
  return {
    supplier,
    supplierStayId: id,
    name: record.string('name'),
    typeLabel: label,
    type,
    address: place.join(', '),
    lat: record.numberIn('latitude', -90, 90),
    lng: record.numberIn('longitude', -180, 180),
    rating: { ...liteapiRating(record), hotelStars: liteapiStars(record) },
    // No bedroom or bed counts in the hotel list; a hotel room has its bathroom.
    capacity: { guests: guestsOf(record), bedrooms: null, beds: null, bathrooms: 1 },
    // LiteAPI books in real time; cancellation terms come with each rate, so free cancellation is not promised.
    policies: { instantBook: true, freeCancellation: false },
    // Absolute URLs on LiteAPI's image host; no logo in its content.
    media: { thumbnail: record.nullableString('thumbnail') ?? record.nullableString('main_photo') ?? '', logoSquare: '' },
  };
}
