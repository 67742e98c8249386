// The simulated LiteAPI hotel data: `GET /data/countries` (every country of the world) and
// `GET /data/hotels?countryCode=&offset=&limit=` (or `hotelIds=`), the slot's listings as LiteAPI
// writes hotels (static.json).
import type { SupplierRoute } from '../create-supplier-server.ts';
import type { SimListing, World } from '../generate-world.ts';
import { requestBase } from '../media.ts';
import type { StayType, SupplierId } from '../types.ts';
import { splitAddress } from '../split-address.ts';
import { dayCached } from '../day-cache.ts';
import { LiteapiHttpError } from './liteapi-wire.ts';

export const LITEAPI_COUNTRIES_PATH = '/data/countries';
export const LITEAPI_HOTELS_PATH = '/data/hotels';
/** `limit`: "by default ... 200 ... the maximum allowed is 5000 results". */
export const LITEAPI_DEFAULT_LIMIT = 200;
export const LITEAPI_MAX_LIMIT = 5_000;

/**
 * The `hotelTypeId` LiteAPI files each stay type under (its `/data/hotelTypes` ids: 201 apartments,
 * 204 hotels, as the spec's examples show). Types it has no id of fold into the nearest, as a stay
 * filed with LiteAPI would be (a palace is a hotel there, a cabin a holiday home).
 */
export const LITEAPI_HOTEL_TYPE_IDS: Readonly<Record<StayType, number>> = {
  hotel: 204,
  palace: 204,
  lodge: 221,
  agritourism: 210,
  riad: 227,
  ryokan: 209,
  villa: 213,
  resort: 206,
  pension: 216,
  bed_and_breakfast: 208,
  apartment: 201,
  private_vacation_home: 220,
  bungalow: 220,
  tourist: 201,
  all_inclusive: 206,
  hostel: 203,
  farm_stay: 210,
  cabin: 220,
  residence: 207,
  house: 220,
  condo: 229,
  chalet: 228,
  country_house: 223,
  aparthotel: 219,
  cottage: 230,
};

/** The currency the simulated slot prices in (its rates answer in USD whatever is asked: price-stay.ts). */
export const LITEAPI_SIM_CURRENCY = 'USD';

/** One listing as a `/data/hotels` record; photos absolute under this server, as LiteAPI's are on its image host. */
export function renderLiteapiHotel(listing: SimListing, base: string): Record<string, unknown> {
  const { line1, city, countryCode } = splitAddress(listing.address);
  const photo =
    listing.media.thumbnail === ''
      ? {}
      : { main_photo: `${base}${listing.media.thumbnail}`, thumbnail: `${base}${listing.media.thumbnail}` };
  return {
    id: listing.supplierStayId,
    name: listing.name,
    currency: LITEAPI_SIM_CURRENCY,
    country: countryCode,
    city,
    latitude: listing.lat,
    longitude: listing.lng,
    address: line1,
    ...photo,
    ...(listing.rating.hotelStars === null ? {} : { stars: listing.rating.hotelStars }),
    hotelTypeId: LITEAPI_HOTEL_TYPE_IDS[listing.type],
    rating: listing.rating.value,
    reviewCount: listing.rating.count,
    // The one place the hotel list says how many a room sleeps; the other fields as live answers write "none".
    accessibilityAttributes: {
      attributes: [],
      petFriendly: '',
      rampAngle: 0,
      rampLength: 0,
      entranceDoorWidth: 0,
      roomMaxGuestsNumber: listing.capacity.guests,
      distanceFromTheElevatorToTheAccessibleRoom: 0,
    },
  };
}

/** The slot's listings by country code, in feed order; built once per world day (day-cache.ts). */
function byCountry(world: World, supplier: SupplierId): Map<string, SimListing[]> {
  return dayCached(world, `liteapi-by-country:${supplier}`, () => {
    const map = new Map<string, SimListing[]>();
    for (const listing of world.listings[supplier]) {
      const code = splitAddress(listing.address).countryCode;
      const list = map.get(code) ?? [];
      list.push(listing);
      map.set(code, list);
    }
    return map;
  });
}

const DIGITS = /^\d{1,9}$/;

function integerParam(query: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  const value = DIGITS.test(raw) ? Number(raw) : NaN;
  if (!(value >= min && value <= max)) throw new LiteapiHttpError(`${name} must be an integer from ${min} to ${max}`);
  return value;
}

const NAMES = new Intl.DisplayNames(['en'], { type: 'region' });

export function liteapiCountriesRoute(world: World): SupplierRoute {
  return {
    method: 'GET',
    path: LITEAPI_COUNTRIES_PATH,
    handle() {
      const codes = [...new Set(world.properties.map((p) => p.countryCode))].sort();
      return { status: 200, body: { data: codes.map((code) => ({ code, name: NAMES.of(code) ?? code })) } };
    },
  };
}

export function liteapiHotelsRoute(world: World, supplier: SupplierId): SupplierRoute {
  return {
    method: 'GET',
    path: LITEAPI_HOTELS_PATH,
    handle({ query, headers }) {
      const listings = world.listings[supplier];
      const offset = integerParam(query, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
      const limit = integerParam(query, 'limit', LITEAPI_DEFAULT_LIMIT, 1, LITEAPI_MAX_LIMIT);
      const country = query.get('countryCode');
      const ids = query.get('hotelIds');
      let matching: readonly SimListing[];
      if (ids !== null && ids !== '') {
        const wanted = new Set(ids.split(','));
        matching = listings.filter((l) => wanted.has(l.supplierStayId));
      } else if (country !== null && country !== '') {
        matching = byCountry(world, supplier).get(country.toUpperCase()) ?? [];
      } else {
        // The spec's own example of what the live API says without a location.
        throw new LiteapiHttpError('countryCode is required');
      }
      const base = requestBase(headers);
      const data = matching.slice(offset, offset + limit).map((listing) => renderLiteapiHotel(listing, base));
      return { status: 200, body: { data, hotelIds: data.map((hotel) => hotel.id), total: matching.length } };
    },
  };
}
