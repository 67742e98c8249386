// How one hotel of Hotelbeds' Content API (`GET /hotel-content-api/1.0/hotels`, schema ApiHotel)
// becomes a Listing. docs/suppliers/hotelbeds.md has the whole field mapping and its sources.
import type { Listing, StayType, SupplierId } from '../types.ts';
import type { FeedRecord } from './feed-record.ts';

/**
 * The fields asked of `/hotels` (its `fields` parameter): what the listing needs and nothing more,
 * since a hotel with every field (facilities, descriptions, phones, ...) is many kilobytes.
 */
export const HOTELBEDS_CONTENT_FIELDS = [
  'code',
  'name',
  'accommodationTypeCode',
  'categoryCode',
  'coordinates',
  'address',
  'city',
  'countryCode',
  'images',
  'rooms',
] as const;

/**
 * `accommodationTypeCode` -> StayType and the label shown for it. HOTEL and APARTMENT are the codes
 * the spec and the categories guide name; H, APTHOTEL and APART are codes live answers carry; the
 * others are Hotelbeds' `/types/accommodations` list. A code not here is a hotel (Hotelbeds sells
 * hotels first) labelled with the code itself, so an operator sees what came.
 */
export const HOTELBEDS_ACCOMMODATION_TYPES: Readonly<Record<string, { type: StayType; label: string }>> = {
  HOTEL: { type: 'hotel', label: 'Hotel' },
  H: { type: 'hotel', label: 'Hotel' },
  APTHOTEL: { type: 'aparthotel', label: 'Aparthotel' },
  APARTMENT: { type: 'apartment', label: 'Apartment' },
  APART: { type: 'apartment', label: 'Apartment' },
  HOSTEL: { type: 'hostel', label: 'Hostel' },
  RESORT: { type: 'resort', label: 'Resort' },
  VILLA: { type: 'villa', label: 'Villa' },
  HOMES: { type: 'private_vacation_home', label: 'Vacation home' },
  RURAL: { type: 'country_house', label: 'Rural house' },
};

/**
 * Stars of a `categoryCode`: `nEST` is n stars, `nLUX` n stars (luxury), `Hn_5` n and a half
 * (Hotelbeds' "3 STARS AND A HALF"). Every other category (keys `nLL` for apartments, hostal,
 * boutique, pending classification ...) is not a star rating: null, never 0.
 */
export function starsOfCategory(code: string | null): number | null {
  if (code === null) return null;
  const whole = /^([1-5])(?:EST|LUX)$/.exec(code);
  if (whole) return Number(whole[1]);
  const half = /^H([1-4])_5$/.exec(code);
  return half ? Number(half[1]) + 0.5 : null;
}

/**
 * Where the photos are: `images[].path` is relative (Hotelbeds' "Use of images" guide). Hotelbeds'
 * own hosts keep them on its photo server, whose standard 320-pixel size is under `/giata/`; any other
 * host (the simulator, a test double) serves them under its own `/giata/`.
 */
export function hotelbedsPhotoBase(baseUrl: string): string {
  const url = new URL(baseUrl);
  return url.hostname === 'hotelbeds.com' || url.hostname.endsWith('.hotelbeds.com')
    ? 'https://photos.hotelbeds.com/giata/'
    : `${url.origin}/giata/`;
}

/** A room size when no room of the hotel says how many it sleeps: a double. */
const DEFAULT_GUESTS = 2;

/** The general picture first (type GEN), in the hotel's own visual order; else any picture. */
function thumbnailPath(record: FeedRecord): string | null {
  if (!record.has('images')) return null;
  let best: { path: string; general: boolean; order: number } | null = null;
  for (const image of record.records('images')) {
    const candidate = {
      path: image.string('path'),
      general: image.nullableString('imageTypeCode') === 'GEN',
      order: image.nullableNumber('visualOrder') ?? image.nullableNumber('order') ?? Number.MAX_SAFE_INTEGER,
    };
    if (best === null || (candidate.general && !best.general) || (candidate.general === best.general && candidate.order < best.order)) {
      best = candidate;
    }
  }
  return best?.path ?? null;
}

/** The most guests a room of the hotel takes (`rooms[].maxPax`, which live answers carry beyond the schema). */
function guestsOf(record: FeedRecord): number {
  if (!record.has('rooms')) return DEFAULT_GUESTS;
  let most = 0;
  for (const room of record.records('rooms')) {
    const maxPax = room.nullableNumber('maxPax');
    if (maxPax !== null) most = Math.max(most, Number.isInteger(maxPax) && maxPax > 0 ? maxPax : room.fail('maxPax', 'a positive integer'));
  }
  return most > 0 ? most : DEFAULT_GUESTS;
}

const content = (record: FeedRecord, key: string): string => record.record(key).string('content');

/** One ApiHotel as a Listing of `supplier`; a wrong field throws a `malformed` SupplierError naming it. */
export function decodeHotelbedsHotel(record: FeedRecord, supplier: SupplierId, photoBase: string): Listing {
  const code = record.integer('code');
  if (code < 0) record.fail('code', 'a hotel code (a non-negative integer)');
  const typeCode = record.string('accommodationTypeCode');
  const known = HOTELBEDS_ACCOMMODATION_TYPES[typeCode];
  const coordinates = record.record('coordinates');
  const thumbnail = thumbnailPath(record);
  return {
    supplier,
    supplierStayId: String(code),
    name: content(record, 'name'),
    typeLabel: known?.label ?? typeCode,
    type: known?.type ?? 'hotel',
    address: `${content(record, 'address')}, ${content(record, 'city')}, ${record.string('countryCode')}`,
    lat: coordinates.numberIn('latitude', -90, 90),
    lng: coordinates.numberIn('longitude', -180, 180),
    // Hotelbeds publishes no guest rating: null adds nothing to a stay's average (never 0).
    rating: { value: null, hotelStars: starsOfCategory(record.nullableString('categoryCode')), count: 0 },
    // No bedroom or bed counts; a hotel room has its bathroom.
    capacity: { guests: guestsOf(record), bedrooms: null, beds: null, bathrooms: 1 },
    // Bookings confirm in real time (rateType BOOKABLE); cancellation terms come with each rate, not
    // the content, so free cancellation is not promised.
    policies: { instantBook: true, freeCancellation: false },
    // No logo in Hotelbeds' content.
    media: { thumbnail: thumbnail === null ? '' : `${photoBase}${thumbnail}`, logoSquare: '' },
  };
}
