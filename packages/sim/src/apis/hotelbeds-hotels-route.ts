// The simulated Hotel Content API's hotel list: `GET /hotel-content-api/1.0/hotels?fields=...&from=&to=`
// (schema ApiHotelsRS), the slot's listings as Hotelbeds writes hotels.
import type { SupplierRoute } from '../create-supplier-server.ts';
import type { SimListing } from '../generate-world.ts';
import { splitAddress } from '../split-address.ts';
import type { StayType } from '../types.ts';
import { auditData, HotelbedsHttpError } from './hotelbeds-wire.ts';

export const HOTELBEDS_HOTELS_PATH = '/hotel-content-api/1.0/hotels';
/** Most hotels one page may ask for (`to - from + 1`), and the window when none is given (1 to 100). */
export const HOTELBEDS_MAX_PAGE = 1_000;
const DEFAULT_TO = 100;

/**
 * The accommodation type Hotelbeds files each stay type under. Its list is short (hotels,
 * apartments, aparthotels, hostels, resorts, villas, homes, rural houses): the rest fold into the
 * nearest, as a stay filed with Hotelbeds would be (a riad or a B&B is a HOTEL there).
 */
export const HOTELBEDS_TYPE_CODES: Readonly<Record<StayType, string>> = {
  hotel: 'HOTEL',
  palace: 'HOTEL',
  riad: 'HOTEL',
  ryokan: 'HOTEL',
  pension: 'HOTEL',
  bed_and_breakfast: 'HOTEL',
  lodge: 'HOTEL',
  apartment: 'APARTMENT',
  condo: 'APARTMENT',
  tourist: 'APARTMENT',
  aparthotel: 'APTHOTEL',
  residence: 'APTHOTEL',
  hostel: 'HOSTEL',
  resort: 'RESORT',
  all_inclusive: 'RESORT',
  villa: 'VILLA',
  house: 'HOMES',
  private_vacation_home: 'HOMES',
  bungalow: 'HOMES',
  chalet: 'HOMES',
  cabin: 'HOMES',
  cottage: 'RURAL',
  country_house: 'RURAL',
  farm_stay: 'RURAL',
  agritourism: 'RURAL',
};

/** `categoryCode` of a star class: `nEST`, `Hn_5` for a half star; none for a stay without stars. */
export function hotelbedsCategory(stars: number | null): { categoryCode: string; categoryName: string } | null {
  if (stars === null) return null;
  const whole = Math.floor(stars);
  return stars === whole
    ? { categoryCode: `${whole}EST`, categoryName: `${whole} STAR${whole === 1 ? '' : 'S'}` }
    : { categoryCode: `H${whole}_5`, categoryName: `${whole} STARS AND A HALF` };
}

/**
 * One listing as an ApiHotel, with the fields staygate's driver asks for. `images[].path` is
 * relative, as Hotelbeds writes it: under this server's `/giata/` (hotelbeds.ts serves it).
 * `rooms[]` carries the occupancy fields live answers have beyond the schema (minPax, maxPax ...).
 */
export function renderHotelbedsHotel(listing: SimListing): Record<string, unknown> {
  const { line1, city, countryCode } = splitAddress(listing.address);
  const category = hotelbedsCategory(listing.rating.hotelStars);
  const guests = listing.capacity.guests;
  const photo = listing.media.thumbnail.replace(/^\/+/, '');
  return {
    code: Number(listing.supplierStayId),
    name: { content: listing.name },
    accommodationTypeCode: HOTELBEDS_TYPE_CODES[listing.type],
    ...(category === null ? {} : { categoryCode: category.categoryCode }),
    coordinates: { latitude: listing.lat, longitude: listing.lng },
    address: { content: line1 },
    city: { content: city },
    countryCode,
    images: photo === '' ? [] : [{ imageTypeCode: 'GEN', path: photo, order: 1, visualOrder: 1 }],
    rooms: [
      {
        roomCode: 'DBL.ST',
        roomType: 'DBL',
        characteristicCode: 'ST',
        description: 'DOUBLE STANDARD',
        minPax: 1,
        maxPax: guests,
        minAdults: 1,
        maxAdults: guests,
        maxChildren: Math.max(0, guests - 1),
      },
    ],
  };
}

const DIGITS = /^\d{1,9}$/;

function windowParam(query: URLSearchParams, name: 'from' | 'to', fallback: number): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  const value = DIGITS.test(raw) ? Number(raw) : NaN;
  if (!(value >= 1)) {
    // What the live API says of a parameter it cannot convert.
    throw new HotelbedsHttpError(
      400,
      'INVALID_REQUEST',
      `The request is not compliant with the specified version of the API. Failed to convert value of type 'java.lang.String' to required type 'java.lang.Integer' for ${name}: "${raw}"`,
    );
  }
  return value;
}

/** The requested `fields` (comma-separated; absent or `all`: every field). */
function pickFields(query: URLSearchParams): ((hotel: Record<string, unknown>) => Record<string, unknown>) | null {
  const raw = query.get('fields');
  if (raw === null || raw === '' || raw.split(',').includes('all')) return null;
  const wanted = new Set(raw.split(',').map((f) => f.trim()));
  return (hotel) => Object.fromEntries(Object.entries(hotel).filter(([key]) => wanted.has(key)));
}

export function hotelbedsHotelsRoute(listings: readonly SimListing[]): SupplierRoute {
  return {
    method: 'GET',
    path: HOTELBEDS_HOTELS_PATH,
    handle({ query }) {
      const from = windowParam(query, 'from', 1);
      const to = windowParam(query, 'to', Math.max(from, DEFAULT_TO));
      if (to < from) throw new HotelbedsHttpError(400, 'INVALID_DATA', "Invalid data. The 'from' value must not be greater than 'to'");
      if (to - from + 1 > HOTELBEDS_MAX_PAGE) {
        throw new HotelbedsHttpError(
          400,
          'INVALID_DATA',
          `Invalid data. The number of elements in response are limited to ${HOTELBEDS_MAX_PAGE}`,
        );
      }
      const pick = pickFields(query);
      const total = listings.length;
      const hotels = listings.slice(from - 1, Math.min(to, total)).map((listing) => {
        const hotel = renderHotelbedsHotel(listing);
        return pick === null ? hotel : pick(hotel);
      });
      return { status: 200, body: { auditData: auditData(), from, to: Math.min(to, total), total, hotels } };
    },
  };
}
