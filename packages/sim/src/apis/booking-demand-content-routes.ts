// The simulated Booking.com content: `POST /common/locations/countries`, `/common/locations/cities`
// and `/accommodations/details`, the slot's listings as Booking.com writes accommodations. Pages
// are `rows` long and chained by `next_page` tokens that expire when the world's day moves on.
import type { SupplierRoute } from '../create-supplier-server.ts';
import type { SimListing, World } from '../generate-world.ts';
import { dayCached } from '../day-cache.ts';
import { requestBase } from '../media.ts';
import { splitAddress } from '../split-address.ts';
import type { StayType, SupplierId } from '../types.ts';
import { bodyObject, invalidParameter, pageOf, readPage, readRows, requestId } from './booking-demand-wire.ts';

/**
 * Booking.com's accommodation type id a stay type is filed under (its /accommodations/constants
 * list: 201 Apartment, 204 Hotel, 227 Riad ...); the gateway's driver reads them back.
 */
export const BOOKING_TYPE_IDS: Readonly<Record<StayType, number>> = {
  hotel: 204,
  palace: 204,
  riad: 227,
  ryokan: 209,
  pension: 216,
  bed_and_breakfast: 208,
  lodge: 221,
  apartment: 201,
  condo: 229,
  tourist: 202,
  aparthotel: 219,
  residence: 207,
  hostel: 203,
  resort: 206,
  all_inclusive: 206,
  villa: 213,
  house: 222,
  private_vacation_home: 220,
  bungalow: 212,
  chalet: 228,
  cabin: 214,
  cottage: 230,
  country_house: 223,
  farm_stay: 210,
  agritourism: 210,
};

/** `languages` items and the only language the simulator writes texts in (asked or not). */
const LANGUAGE = 'en-gb';

/** A city's Booking.com id: negative, as Booking.com's city ids are, from the world's city index. */
export const bookingCityId = (cityId: number): number => -(cityId + 1);

/** The path of a stay's page on the slot (`/hotel/<cc>/<id>.html`, as booking.com's own). */
export const BOOKING_HOTEL_PAGE_PREFIX = '/hotel/';

interface CountryIndex {
  /** Country code (lower case) -> its listings in feed order. */
  listings: Map<string, SimListing[]>;
  /** Country code -> the world's cities there (Booking.com id -> name, coordinates). */
  cities: Map<string, Map<number, { name: string; latitude: number; longitude: number }>>;
}

/** The slot's listings and cities by country, built once per world day (day-cache.ts). */
function countryIndex(world: World, supplier: SupplierId): CountryIndex {
  return dayCached(world, `booking-country-index:${supplier}`, () => buildCountryIndex(world, supplier));
}

function buildCountryIndex(world: World, supplier: SupplierId): CountryIndex {
  const index: CountryIndex = { listings: new Map(), cities: new Map() };
  for (const listing of world.listings[supplier]) {
    const property = world.properties[listing.propertyId];
    const country = property.countryCode.toLowerCase();
    const listings = index.listings.get(country) ?? [];
    index.listings.set(country, listings);
    listings.push(listing);
  }
  // Every city of the world, not only the slot's: an order's stay that closed since still has its city.
  for (const property of world.properties) {
    const country = property.countryCode.toLowerCase();
    const cities = index.cities.get(country) ?? new Map();
    index.cities.set(country, cities);
    const id = bookingCityId(property.cityId);
    if (!cities.has(id)) cities.set(id, { name: property.city, latitude: property.lat, longitude: property.lng });
  }
  return index;
}

/** The world's city id of a listing, as Booking.com numbers it. */
export function listingCityId(world: World, listing: SimListing): number {
  return bookingCityId(world.properties[listing.propertyId].cityId);
}

const COUNTRY = /^[a-z]{2}$/;

function readCountry(body: Record<string, unknown>): string | null {
  if (body.country === undefined) return null;
  if (typeof body.country !== 'string' || !COUNTRY.test(body.country))
    throw invalidParameter('country must be an ISO 3166-1 alpha-2 code in lower case');
  return body.country;
}

/** The Booking.com page of a stay on this slot, with the placeholders Booking.com's `url` carries. */
export function bookingStayUrl(base: string, listing: SimListing, country: string): string {
  return `${base}${BOOKING_HOTEL_PAGE_PREFIX}${country}/${listing.supplierStayId}.html?aid=!AFFILIATE_ID!&checkin=!START_DATE!&checkout=!END_DATE!`;
}

/** One listing as a Booking.com accommodation, with the extras asked (`photos`, `rooms`). */
export function renderBookingAccommodation(
  world: World,
  listing: SimListing,
  base: string,
  extras: ReadonlySet<string>,
): Record<string, unknown> {
  const { line1, countryCode } = splitAddress(listing.address);
  const country = countryCode.toLowerCase();
  const { value, count } = listing.rating;
  const stars = listing.rating.hotelStars;
  const photo = listing.media.thumbnail === '' ? null : `${base}${listing.media.thumbnail}`;
  return {
    id: Number(listing.supplierStayId),
    accommodation_type: BOOKING_TYPE_IDS[listing.type],
    currency: 'USD',
    location: {
      address: { [LANGUAGE]: line1 },
      city: listingCityId(world, listing),
      coordinates: { latitude: listing.lat, longitude: listing.lng },
      country,
    },
    name: { [LANGUAGE]: listing.name },
    rating: {
      number_of_reviews: value === null || value < 1 ? 0 : count,
      preferred: false,
      // Booking.com's review score is 1-10; a stay without one has none written.
      ...(value === null || value < 1 ? {} : { review_score: value }),
      ...(stars === null || stars < 1 ? {} : { stars, stars_type: 'official' }),
    },
    ...(extras.has('photos')
      ? {
          photos:
            photo === null
              ? []
              : [{ main_photo: true, tags: [], url: { large: photo, standard: photo, thumbnail: photo, thumbnail_large: photo } }],
        }
      : {}),
    ...(extras.has('rooms')
      ? {
          rooms: [
            {
              id: 1,
              maximum_occupancy: { adults: listing.capacity.guests, children: 0 },
              // Whole rooms only: a half bathroom counts as one.
              number_of_rooms: {
                ...(listing.capacity.bedrooms === null ? {} : { bedrooms: listing.capacity.bedrooms }),
                bathrooms: Math.ceil(listing.capacity.bathrooms),
                living_rooms: 0,
              },
            },
          ],
        }
      : {}),
    url: bookingStayUrl(base, listing, country),
  };
}

const DETAILS_EXTRAS = new Set(['description', 'bundles', 'facilities', 'payment', 'photos', 'policies', 'rooms']);

function readExtras(body: Record<string, unknown>): Set<string> {
  if (body.extras === undefined) return new Set();
  if (!Array.isArray(body.extras) || !body.extras.every((e) => typeof e === 'string' && DETAILS_EXTRAS.has(e)))
    throw invalidParameter(`extras must be a list of ${[...DETAILS_EXTRAS].join(', ')}`);
  return new Set(body.extras as string[]);
}

export function bookingCountriesRoute(world: World, supplier: SupplierId): SupplierRoute {
  return {
    method: 'POST',
    path: '/common/locations/countries',
    handle({ body }) {
      const input = bodyObject(body);
      const rows = readRows(input, 10, 1_000, 100);
      const countries = [...countryIndex(world, supplier).listings.keys()].sort();
      const { page, next } = pageOf(countries, readPage(input, 'countries', world.day), rows, 'countries', world.day);
      return {
        status: 200,
        body: { request_id: requestId(), data: page.map((id) => ({ id, name: { [LANGUAGE]: id.toUpperCase() } })), next_page: next },
      };
    },
  };
}

export function bookingCitiesRoute(world: World, supplier: SupplierId): SupplierRoute {
  return {
    method: 'POST',
    path: '/common/locations/cities',
    handle({ body }) {
      const input = bodyObject(body);
      const rows = readRows(input, 10, 1_000, 100);
      const country = readCountry(input);
      const city = input.city;
      if (city !== undefined && !Number.isSafeInteger(city)) throw invalidParameter('city must be an integer');
      const index = countryIndex(world, supplier);
      const cities = [...index.cities]
        .filter(([code]) => country === null || code === country)
        .flatMap(([, byId]) =>
          [...byId].map(([id, c]) => ({ id, name: { [LANGUAGE]: c.name }, coordinates: { latitude: c.latitude, longitude: c.longitude } })),
        )
        .filter((c) => city === undefined || c.id === city);
      const list = `cities:${country ?? ''}:${String(city ?? '')}`;
      const { page, next } = pageOf(cities, readPage(input, list, world.day), rows, list, world.day);
      return { status: 200, body: { request_id: requestId(), data: page, next_page: next } };
    },
  };
}

export function bookingDetailsRoute(world: World, supplier: SupplierId): SupplierRoute {
  return {
    method: 'POST',
    path: '/accommodations/details',
    handle({ body, headers }) {
      const input = bodyObject(body);
      const rows = readRows(input, 10, 1_000, 100);
      const extras = readExtras(input);
      const country = readCountry(input);
      const ids = input.accommodations;
      let listings: SimListing[];
      let list: string;
      if (ids !== undefined) {
        if (!Array.isArray(ids) || ids.length > 100 || !ids.every((id) => Number.isSafeInteger(id) && (id as number) >= 1))
          throw invalidParameter('accommodations must be a list of at most 100 accommodation ids');
        const wanted = new Set(ids.map(String));
        listings = world.listings[supplier].filter((l) => wanted.has(l.supplierStayId));
        list = `details:ids:${[...wanted].join(',')}`;
      } else if (country !== null) {
        listings = countryIndex(world, supplier).listings.get(country) ?? [];
        list = `details:${country}`;
      } else {
        // What Booking.com asks: a location (or ids) to list accommodations within.
        throw invalidParameter('A location is required: one of accommodations, airport, city, country, district, landmark or region');
      }
      const base = requestBase(headers);
      const { page, next } = pageOf(listings, readPage(input, list, world.day), rows, list, world.day);
      return {
        status: 200,
        body: { request_id: requestId(), data: page.map((l) => renderBookingAccommodation(world, l, base, extras)), next_page: next },
      };
    },
  };
}
