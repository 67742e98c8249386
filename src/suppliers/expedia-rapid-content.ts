// How one property of Expedia Rapid's content (`GET /properties/content`, schema PropertyContent)
// becomes a Listing. docs/suppliers/expedia-rapid.md has the whole field mapping and its sources.
import type { Listing, StayType, SupplierId } from '../types.ts';
import { FeedRecord, roundRating } from './feed-record.ts';

/**
 * The top-level fields asked of `/properties/content` (its repeated `include`): what the listing
 * needs and nothing more, since a whole property (descriptions, amenities, policies, every room's
 * images...) is tens of kilobytes. `property_id` comes whatever is asked.
 */
export const EXPEDIA_RAPID_CONTENT_FIELDS = [
  'name',
  'address',
  'ratings',
  'location',
  'category',
  'images',
  'rooms',
  'vacation_rental_details',
] as const;

/**
 * `category.name` (Rapid's property categories reference, in en-US, the language the driver asks)
 * -> StayType. By name rather than id: the names are what the reference documents and what the
 * answer carries beside the id (decision 162). A category not here is a private vacation home: the
 * slot pulls Vrbo's supply, vacation rentals; its label stays the category's own name.
 */
export const EXPEDIA_RAPID_CATEGORIES: Readonly<Record<string, StayType>> = {
  hotel: 'hotel',
  motel: 'hotel',
  inn: 'hotel',
  'capsule hotel': 'hotel',
  palace: 'palace',
  castle: 'palace',
  riad: 'riad',
  ryokan: 'ryokan',
  pension: 'pension',
  guesthouse: 'pension',
  'bed & breakfast': 'bed_and_breakfast',
  lodge: 'lodge',
  apartment: 'apartment',
  condo: 'condo',
  'condominium resort': 'condo',
  aparthotel: 'aparthotel',
  residence: 'residence',
  'hostel/backpacker accommodation': 'hostel',
  resort: 'resort',
  'holiday park': 'resort',
  'all-inclusive property': 'all_inclusive',
  villa: 'villa',
  'private vacation home': 'private_vacation_home',
  'town house': 'house',
  bungalow: 'bungalow',
  chalet: 'chalet',
  cabin: 'cabin',
  'tree house property': 'cabin',
  cottage: 'cottage',
  'country house': 'country_house',
  ranch: 'farm_stay',
  'farm stay': 'farm_stay',
  'agritourism property': 'agritourism',
};

/** Guests when no room states its occupancy: a double. */
const DEFAULT_GUESTS = 2;
/**
 * Rapid's content has no bathroom count; every rental has one (decision 162), as the Hotelbeds driver
 * says of a hotel room.
 */
const BATHROOMS = 1;
/** Image sizes in the order a thumbnail prefers them (Image.links keys: 70px, 200px, 350px, 1000px). */
const THUMBNAIL_SIZES = ['350px', '200px', '1000px', '70px'];

/**
 * Stars of `ratings.property.rating`: "0.0" or a blank value means no rating (the spec), null, never 0.
 */
export function rapidStars(ratings: FeedRecord | null): number | null {
  if (ratings === null || !ratings.has('property')) return null;
  const property = ratings.record('property');
  const text = property.nullableString('rating');
  if (text === null || text.trim() === '') return null;
  const stars = /^\d(\.\d+)?$/.test(text.trim()) ? Number(text) : NaN;
  if (!(stars >= 0 && stars <= 5)) property.fail('rating', 'a rating from "0.0" to "5.0"');
  return stars === 0 ? null : stars;
}

/**
 * The guest rating on the interface's 0-10 scale and its review count: `ratings.guest.overall` is a
 * string from "1.0" to "5.0", doubled. No guest block, or no `overall`: null with no reviews.
 */
export function rapidGuestRating(ratings: FeedRecord | null): { value: number | null; count: number } {
  if (ratings === null || !ratings.has('guest')) return { value: null, count: 0 };
  const guest = ratings.record('guest');
  const text = guest.nullableString('overall');
  if (text === null || text.trim() === '') return { value: null, count: 0 };
  const overall = /^\d(\.\d+)?$/.test(text.trim()) ? Number(text) : NaN;
  if (!(overall >= 1 && overall <= 5)) guest.fail('overall', 'a rating from "1.0" to "5.0"');
  const count = guest.nullableNumber('count') ?? 0;
  if (!Number.isInteger(count) || count < 0) guest.fail('count', 'a review count');
  return { value: roundRating(overall * 2), count };
}

/**
 * Where the property is. With `obfuscation_required` the spec says `obfuscated_coordinates` "must
 * be used to display approximate location": the gateway shows and searches by its coordinates, so
 * the obfuscated ones are the listing's (decision 162).
 */
function coordinatesOf(location: FeedRecord): { lat: number; lng: number } {
  const obfuscated = location.has('obfuscation_required') && location.boolean('obfuscation_required');
  const point = location.record(obfuscated ? 'obfuscated_coordinates' : 'coordinates');
  return { lat: point.numberIn('latitude', -90, 90), lng: point.numberIn('longitude', -180, 180) };
}

/**
 * The address line. With `obfuscation_required` "only the city, province, and country of the
 * address can be shown to the customer" before booking: the street is left out.
 */
function addressOf(address: FeedRecord): string {
  const hidden = address.has('obfuscation_required') && address.boolean('obfuscation_required');
  const parts = hidden
    ? [address.nullableString('city'), address.nullableString('state_province_name'), address.nullableString('country_code')]
    : [
        address.nullableString('line_1'),
        address.nullableString('line_2'),
        address.nullableString('city'),
        address.nullableString('country_code'),
      ];
  const line = parts.filter((part): part is string => part !== null && part.trim() !== '').join(', ');
  return line === '' ? address.fail('city', 'an address with at least a city or country') : line;
}

/** The hero image, else the first, at the size a thumbnail prefers; '' when the property has none. */
function thumbnailOf(record: FeedRecord): string {
  if (!record.has('images')) return '';
  const images = record.records('images');
  const image = images.find((i) => i.has('hero_image') && i.boolean('hero_image')) ?? images[0];
  if (image === undefined || !image.has('links')) return '';
  const links = image.record('links');
  const size = THUMBNAIL_SIZES.find((s) => links.has(s));
  return size === undefined ? '' : links.record(size).string('href');
}

/**
 * The entries of a JSON map (Rapid writes rooms, unit configurations and a content page as objects
 * keyed by id), each value as a FeedRecord with its path; `map` is the raw value `record.key` holds.
 */
export function mapEntries(record: FeedRecord, key: string, map: unknown): [string, unknown][] {
  record.record(key); // an object, or a `malformed` error naming the field
  return Object.entries(map as Record<string, unknown>);
}

type Raw = Record<string, unknown>;

/** The most guests a room takes (`rooms.*.occupancy.max_allowed.total`); a Vrbo unit is one room. */
function guestsOf(record: FeedRecord, raw: Raw): number {
  if (!record.has('rooms')) return DEFAULT_GUESTS;
  let most = 0;
  for (const [key, value] of mapEntries(record, 'rooms', raw.rooms)) {
    const room = FeedRecord.of(record.supplier, `${record.path}.rooms.${key}`, value);
    if (!room.has('occupancy')) continue;
    const occupancy = room.record('occupancy');
    if (!occupancy.has('max_allowed')) continue;
    const total = occupancy.record('max_allowed').nullableNumber('total');
    if (total === null) continue;
    most = Math.max(
      most,
      Number.isInteger(total) && total > 0 ? total : occupancy.record('max_allowed').fail('total', 'a positive integer'),
    );
  }
  return most > 0 ? most : DEFAULT_GUESTS;
}

/**
 * Bedrooms and beds of a Vrbo unit from `vacation_rental_details.unit_configurations`, a map keyed by
 * unit location: numbered keys ("1", "2") are bedrooms, others ("Other1") other spaces; every
 * configuration's `quantity` is beds. No configurations: neither is known (null).
 */
function roomsAndBeds(record: FeedRecord, raw: Raw): { bedrooms: number | null; beds: number | null } {
  if (!record.has('vacation_rental_details')) return { bedrooms: null, beds: null };
  const details = record.record('vacation_rental_details');
  if (!details.has('unit_configurations')) return { bedrooms: null, beds: null };
  const rawUnits = (raw.vacation_rental_details as Raw).unit_configurations;
  const units = details.record('unit_configurations');
  let bedrooms = 0;
  let beds = 0;
  let configurations = 0;
  for (const [key] of mapEntries(details, 'unit_configurations', rawUnits)) {
    if (/^\d+$/.test(key)) bedrooms++;
    for (const configuration of units.records(key)) {
      const quantity = configuration.integer('quantity');
      beds += quantity >= 0 ? quantity : configuration.fail('quantity', 'a bed count');
      configurations++;
    }
  }
  return { bedrooms, beds: configurations === 0 ? null : beds };
}

/**
 * One PropertyContent (`value`, filed under key `id` of a content page) as a Listing of `supplier`;
 * a wrong field throws a `malformed` SupplierError naming it.
 */
export function decodeExpediaRapidProperty(value: unknown, id: string, supplier: SupplierId): Listing {
  const record = FeedRecord.of(supplier, `properties.${id}`, value);
  const raw = value as Raw;
  const propertyId = record.string('property_id');
  if (propertyId !== id) record.fail('property_id', `the key it is filed under (${id})`);
  const categoryName = record.has('category') ? record.record('category').nullableString('name') : null;
  const type = categoryName === null ? undefined : EXPEDIA_RAPID_CATEGORIES[categoryName.trim().toLowerCase()];
  const ratings = record.has('ratings') ? record.record('ratings') : null;
  const { lat, lng } = coordinatesOf(record.record('location'));
  const { bedrooms, beds } = roomsAndBeds(record, raw);
  return {
    supplier,
    supplierStayId: propertyId,
    name: record.string('name'),
    typeLabel: categoryName ?? 'Private vacation home',
    type: type ?? 'private_vacation_home',
    address: addressOf(record.record('address')),
    lat,
    lng,
    rating: { ...rapidGuestRating(ratings), hotelStars: rapidStars(ratings) },
    capacity: { guests: guestsOf(record, raw), bedrooms, beds, bathrooms: BATHROOMS },
    // Rapid sells what it lists for instant booking (the itinerary call confirms at once);
    // cancellation terms come with each rate, not the content: free cancellation is not promised.
    policies: { instantBook: true, freeCancellation: false },
    // No logo in Rapid's content (a `brand` has an id and a name).
    media: { thumbnail: thumbnailOf(record), logoSquare: '' },
  };
}

/**
 * The URL of the `Link` header's `rel="next"` entry, followed unchanged (the spec: "simply follow
 * the next URL ... without modifying it"); null when there is none: the last page.
 */
export function nextLink(header: string | null): string | null {
  if (header === null) return null;
  for (const match of header.matchAll(/<([^>]*)>([^<]*)/g)) {
    if (/(?:^|;)\s*rel\s*=\s*"?next"?\s*(?:;|$)/i.test(match[2])) return match[1];
  }
  return null;
}
