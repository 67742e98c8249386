// The simulated Rapid content call: `GET /properties/content?language=&supply_source=vrbo&include=...`
// (a map of PropertyContent keyed by property id), paged by a `Link: <...>; rel="next"; expires=...`
// header whose token expires: following it after then is the spec's 410 `link.expired`.
import type { SupplierRoute } from '../create-supplier-server.ts';
import type { SimListing } from '../generate-world.ts';
import { requestBase } from '../media.ts';
import { splitAddress } from '../split-address.ts';
import type { StayType } from '../types.ts';
import { invalidInput, queryError, RapidHttpError } from './expedia-rapid-wire.ts';

export const RAPID_CONTENT_PATH = '/properties/content';
/** Properties per content page: Rapid sizes its pages itself (the spec has no page size); 250, its batch size everywhere else. */
export const RAPID_CONTENT_PAGE_SIZE = 250;
/** How long a `next` link lives: a pull that stalls longer starts over (the spec's 410). */
export const RAPID_LINK_TTL_MS = 30 * 60_000;
/** Languages the simulator writes content in: its world is in English. */
const LANGUAGES = new Set(['en-US']);

/**
 * The Rapid category each stay type is filed under (Rapid's property categories: `id` and its en-US
 * `name`). The simulator's ids are its own; the names are Rapid's, which is what the driver reads.
 */
export const RAPID_CATEGORIES: Readonly<Record<StayType, { id: string; name: string }>> = {
  hotel: { id: '1', name: 'Hotel' },
  palace: { id: '24', name: 'Palace' },
  riad: { id: '20', name: 'Riad' },
  ryokan: { id: '21', name: 'Ryokan' },
  pension: { id: '17', name: 'Pension' },
  bed_and_breakfast: { id: '5', name: 'Bed & breakfast' },
  lodge: { id: '23', name: 'Lodge' },
  apartment: { id: '16', name: 'Apartment' },
  condo: { id: '7', name: 'Condo' },
  tourist: { id: '16', name: 'Apartment' },
  aparthotel: { id: '14', name: 'Aparthotel' },
  residence: { id: '44', name: 'Residence' },
  hostel: { id: '15', name: 'Hostel/Backpacker accommodation' },
  resort: { id: '3', name: 'Resort' },
  all_inclusive: { id: '8', name: 'All-inclusive property' },
  villa: { id: '25', name: 'Villa' },
  house: { id: '34', name: 'Private vacation home' },
  private_vacation_home: { id: '34', name: 'Private vacation home' },
  bungalow: { id: '31', name: 'Bungalow' },
  chalet: { id: '33', name: 'Chalet' },
  cabin: { id: '12', name: 'Cabin' },
  cottage: { id: '9', name: 'Cottage' },
  country_house: { id: '13', name: 'Country House' },
  farm_stay: { id: '45', name: 'Farm stay' },
  agritourism: { id: '29', name: 'Agritourism property' },
};

/** A one-decimal rating on 0-10 as Rapid's 1.0-5.0 string: halved (exact), never below "1.0". */
export function rapidGuestOverall(value: number): string {
  const tenths = Math.max(20, Math.round(value * 10));
  return (tenths / 20).toFixed(tenths % 2 === 0 ? 1 : 2);
}

/**
 * A Vrbo unit's configurations: bedrooms "1".."n" (Rapid's keys are unit locations), the beds spread
 * over them, and what does not fit a bedroom (a studio's beds) under "Other1". Beds and bedrooms
 * unknown: none at all.
 */
function unitConfigurations(bedrooms: number | null, beds: number | null): Record<string, unknown[]> | null {
  if (bedrooms === null && beds === null) return null;
  const units: Record<string, unknown[]> = {};
  const rooms = bedrooms ?? 0;
  let left = beds ?? 0;
  for (let i = 1; i <= rooms; i++) {
    const here = Math.ceil(left / (rooms - i + 1));
    left -= here;
    units[String(i)] = here === 0 ? [] : [{ type: 'QUEEN_BED', description: 'Queen bed(s) - ', quantity: here }];
  }
  if (left > 0) units.Other1 = [{ type: 'SLEEP_SOFA_FUTON', description: 'Sleep sofa/futon(s) - ', quantity: left }];
  return units;
}

/**
 * One listing as a PropertyContent with the top-level fields asked (`include`; none: all of them).
 * Coordinates need no obfuscation in the simulated world (`obfuscation_required: false`), and the
 * obfuscated point is given all the same, a little off, as Rapid gives it.
 */
export function renderRapidProperty(listing: SimListing, base: string): Record<string, unknown> {
  const { line1, city, countryCode } = splitAddress(listing.address);
  const { value, count, hotelStars } = listing.rating;
  const units = unitConfigurations(listing.capacity.bedrooms, listing.capacity.beds);
  const photo = listing.media.thumbnail;
  return {
    property_id: listing.supplierStayId,
    name: listing.name,
    address: { line_1: line1, city, country_code: countryCode, obfuscation_required: false },
    ratings: {
      property: { rating: hotelStars === null ? '0.0' : hotelStars.toFixed(1), type: 'Star' },
      // A listing nobody has reviewed has no guest block.
      ...(value === null || count === 0 ? {} : { guest: { count, overall: rapidGuestOverall(value) } }),
    },
    location: {
      coordinates: { latitude: listing.lat, longitude: listing.lng },
      obfuscated_coordinates: { latitude: Math.round(listing.lat * 100) / 100, longitude: Math.round(listing.lng * 100) / 100 },
      obfuscation_required: false,
    },
    category: RAPID_CATEGORIES[listing.type],
    images:
      photo === ''
        ? []
        : [{ hero_image: true, category: 3, caption: 'Featured Image', links: { '350px': { method: 'GET', href: `${base}${photo}` } } }],
    rooms: {
      [`${listing.supplierStayId}01`]: {
        id: `${listing.supplierStayId}01`,
        name: 'Entire home',
        occupancy: {
          max_allowed: {
            total: listing.capacity.guests,
            adults: listing.capacity.guests,
            children: Math.max(0, listing.capacity.guests - 1),
          },
        },
      },
    },
    vacation_rental_details: {
      listing_id: listing.supplierStayId,
      listing_source: 'VRBO',
      ...(units === null ? {} : { unit_configurations: units }),
    },
    supply_source: 'vrbo',
  };
}

/** What a page token carries: the first request's query (without the token), where the page starts, when it was issued. */
interface Token {
  q: string;
  o: number;
  t: number;
}

const encodeToken = (token: Token): string => Buffer.from(JSON.stringify(token)).toString('base64url');

function decodeToken(text: string): Token | null {
  try {
    const token = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Token;
    return typeof token.q === 'string' && Number.isSafeInteger(token.o) && token.o >= 0 && Number.isSafeInteger(token.t) ? token : null;
  } catch {
    return null;
  }
}

/** The first request's parameters checked as Rapid checks them: one language it has, one supply source. */
function checkQuery(query: URLSearchParams): void {
  const errors = [];
  const languages = query.getAll('language');
  if (languages.length === 0)
    errors.push(queryError('language', 'required', `A language is required. Supported languages are: [${[...LANGUAGES].join(', ')}]`));
  else if (languages.length > 1)
    errors.push(queryError('language', 'above_maximum', 'The number of languages passed in must not be greater than 1.'));
  else if (!LANGUAGES.has(languages[0]))
    errors.push(
      queryError(
        'language',
        'not_supported',
        `Language is not supported. Supported languages are: [${[...LANGUAGES].join(', ')}]`,
        languages[0],
      ),
    );
  const sources = query.getAll('supply_source');
  if (sources.length !== 1 || !['expedia', 'vrbo'].includes(sources[0]))
    errors.push(queryError('supply_source', 'invalid', 'supply_source is required once: expedia or vrbo.', sources.join(',')));
  if (errors.length > 0) throw invalidInput(errors);
}

/** The `include` filter: `property_id` always, the named top-level fields; none named: every field. */
function pickFields(query: URLSearchParams): ((property: Record<string, unknown>) => Record<string, unknown>) | null {
  const wanted = new Set(query.getAll('include'));
  if (wanted.size === 0 || wanted.has('catalog')) return null;
  return (property) => Object.fromEntries(Object.entries(property).filter(([key]) => key === 'property_id' || wanted.has(key)));
}

/**
 * The content route of a slot whose listings are `listings` (Vrbo supply: `supply_source=expedia`
 * finds none), on the clock `now` (the slot's ledger clock: a test moves it past a link's life).
 */
export function rapidContentRoute(listings: readonly SimListing[], now: () => number): SupplierRoute {
  return {
    method: 'GET',
    path: RAPID_CONTENT_PATH,
    handle({ query, headers }) {
      let first = query;
      let offset = 0;
      const tokenText = query.get('token');
      if (tokenText !== null) {
        const token = decodeToken(tokenText);
        if (token === null) throw invalidInput([queryError('token', 'invalid', 'The token is not valid.', tokenText)]);
        if (now() - token.t > RAPID_LINK_TTL_MS)
          throw new RapidHttpError(
            410,
            'link.expired',
            'The link you followed has expired. Please build a new request to restart pagination.',
          );
        first = new URLSearchParams(token.q);
        offset = token.o;
      }
      checkQuery(first);
      const sold = first.get('supply_source') === 'vrbo' ? listings : [];
      const pick = pickFields(first);
      const base = requestBase(headers);
      const page = sold.slice(offset, offset + RAPID_CONTENT_PAGE_SIZE);
      const body: Record<string, unknown> = {};
      for (const listing of page) {
        const property = renderRapidProperty(listing, base);
        body[listing.supplierStayId] = pick === null ? property : pick(property);
      }
      const responseHeaders: Record<string, string> = { 'Pagination-Total-Results': String(sold.length) };
      const next = offset + page.length;
      if (page.length > 0 && next < sold.length) {
        const issued = now();
        const token = encodeToken({ q: first.toString(), o: next, t: issued });
        const expires = new Date(issued + RAPID_LINK_TTL_MS).toISOString();
        responseHeaders.Link = `<${base}${RAPID_CONTENT_PATH}?token=${token}>; rel="next"; expires=${expires}`;
      }
      return { status: 200, body, headers: responseHeaders };
    },
  };
}
