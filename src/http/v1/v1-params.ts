import type { Static } from '@sinclair/typebox';
import type { Violations } from '../../errors/api-error.ts';
import type { SearchQuery, StayDates } from '../../search/search-query.ts';
import { RENTAL_TYPES, isSupplierId, type SupplierId } from '../../types.ts';
import { defaults } from '../../defaults.ts';
import { checkLang, parseCalendarDate, parseCurrency, parseLocation, parseStayDates, splitList } from '../search-params.ts';
import type { v1QuerySchema } from './v1-query-schema.ts';

type V1Params = Partial<Static<typeof v1QuerySchema>>;

const DAY_MS = 86_400_000;

/** v1 prices every search: the stay defaults to 3 nights starting 90 days from today (UTC). */
function defaultDates(now: Date): { checkin: string; checkout: string } {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const day = (n: number) => new Date(today + n * DAY_MS).toISOString().slice(0, 10);
  return { checkin: day(defaults.v1CheckinInDays), checkout: day(defaults.v1CheckinInDays + defaults.v1Nights) };
}

function parseV1Dates(p: V1Params, now: Date, v: Violations): StayDates | null {
  const fallback = defaultDates(now);
  const checkin = p.checkin ?? fallback.checkin;
  const checkout = p.checkout ?? fallback.checkout;
  // A lone explicit date is checked against the other's default ("after defaults are applied").
  if (p.checkin !== undefined && p.checkout === undefined && parseCalendarDate(p.checkin) !== null && checkout <= checkin) {
    v.add('checkout', `checkout defaults to ${checkout}, which is not after checkin ${checkin}; give checkout too`);
    return null;
  }
  return parseStayDates(checkin, checkout, now, v);
}

/** The v1 parameters as a SearchQuery for the one search core, with v1's own rules and codes. */
export function toV1SearchQuery(p: V1Params, now: Date, v: Violations): SearchQuery & { providers: [SupplierId] } {
  let provider: SupplierId = 'supplier_a';
  if (p.provider === undefined) v.add('provider', 'provider is required on v1: one of supplier_a, supplier_b, supplier_c, supplier_d');
  else if (!isSupplierId(p.provider.toLowerCase())) v.add('provider', `unknown provider "${p.provider}"`, 'INVALID_PROVIDER');
  else provider = p.provider.toLowerCase() as SupplierId;

  for (const [param, limit] of [['lat', 90], ['lng', 180], ['nelat', 90], ['nelng', 180], ['swlat', 90], ['swlng', 180]] as const) {
    const value = p[param];
    if (value !== undefined && Math.abs(value) > limit) {
      v.add(param, `${param} must be between -${limit} and ${limit}`, 'INVALID_COORDINATES');
      delete p[param];
    }
  }

  let types: SearchQuery['types'] = null;
  if (p.type !== undefined) {
    const type = p.type.toLowerCase();
    if (type === 'hotel') types = ['hotel'];
    else if (type === 'rental') types = [...RENTAL_TYPES];
    else v.add('type', 'type must be rental or hotel');
  }

  // v1 ids are the supplier's own, plain: no prefix, read in the provider's namespace.
  let hotelIds: SearchQuery['hotelIds'] = null;
  if (p.hotelids !== undefined) {
    const ids = splitList(p.hotelids);
    if (ids.length > defaults.maxHotelIds) v.add('hotelids', `hotelids holds ${ids.length} entries; at most ${defaults.maxHotelIds} are allowed`);
    else if (ids.length > 0) hotelIds = ids.map((id) => ({ raw: id, supplier: provider, id }));
  }

  const location = hotelIds === null ? parseLocation(p, v) : null;
  const locationParams = ['address', 'lat', 'lng', 'nelat', 'nelng', 'swlat', 'swlng'];
  if (location === null && hotelIds === null && !locationParams.some((k) => v.has(k))) {
    v.add('location', 'give a location: address, lat and lng, or nelat, nelng, swlat and swlng (or hotelids)', 'LOCATION_REQUIRED');
  }

  const dates = parseV1Dates(p, now, v);
  const currency = parseCurrency(p.currency, v);
  checkLang(p.lang, v);
  const minPrice = p.min ?? defaults.v1MinPrice;
  const maxPrice = p.max ?? defaults.v1MaxPrice;
  if (minPrice > maxPrice) v.add('min', 'min must not exceed max');

  return {
    location,
    hotelIds,
    providers: [provider],
    types,
    hotelSearch: null,
    // Applied only when within the scale, as v1 always did; above it the filter is ignored.
    minStars: p.minstarrating !== undefined && p.minstarrating <= 5 ? p.minstarrating : 0,
    minGuestRating: p.minguestrating !== undefined && p.minguestrating <= 10 ? p.minguestrating : 0,
    minRatingCount: 0,
    page: 1,
    pageSize: p.limit ?? defaults.pageSize,
    dates,
    occupancy: { adults: p.adults ?? 2, children: p.children ?? 0, childrenAges: null, rooms: p.rooms ?? 1 },
    currency,
    minPrice,
    maxPrice,
    cluster: 'false',
    precision: null,
    cell: null,
  };
}
