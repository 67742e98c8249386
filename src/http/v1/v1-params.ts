import type { Static } from 'typebox';
import type { Violations } from '../../errors/api-error.ts';
import type { SearchQuery, StayDates } from '../../search/search-query.ts';
import { RENTAL_TYPES, isSupplierId, type Settings, type SupplierId } from '../../types.ts';
import {
  checkHotelIdCount,
  checkLang,
  parseCalendarDate,
  parseCurrency,
  parseLocation,
  parseStayDates,
  listItems,
  requireLocation,
} from '../query/search-params.ts';
import type { v1QuerySchema } from './v1-query-schema.ts';

type V1Params = Partial<Static<typeof v1QuerySchema>>;

/** v1's default stay, price range and party, and the bounds it shares with the unified search. */
export type V1ParamsSettings = Pick<
  Settings,
  'v1Nights' | 'v1CheckinInDays' | 'v1MinPrice' | 'v1MaxPrice' | 'maxHotelIds' | 'radiusMeters' | 'pageSize' | 'adults' | 'rooms'
>;

const DAY_MS = 86_400_000;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * v1 prices every search. The default stay is 3 nights: without dates it starts 90 days from
 * today (UTC); with checkin alone it ends 3 nights later; with checkout alone it starts 3 nights
 * earlier, but not before today.
 */
function parseV1Dates(p: V1Params, now: Date, v: Violations, settings: Pick<Settings, 'v1Nights' | 'v1CheckinInDays'>): StayDates | null {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const nights = settings.v1Nights * DAY_MS;
  let { checkin, checkout } = p;
  if (checkin === undefined && checkout === undefined) checkin = isoDay(today + settings.v1CheckinInDays * DAY_MS);
  const lone = checkout === undefined ? 'checkin' : checkin === undefined ? 'checkout' : null;
  const loneMs = lone === null ? null : parseCalendarDate(p[lone] ?? checkin!);
  if (lone !== null && loneMs === null) {
    v.add(lone, `${lone} must be a real calendar date written YYYY-MM-DD`, 'INVALID_DATE_FORMAT');
    return null;
  }
  if (lone === 'checkin') checkout = isoDay(loneMs! + nights);
  if (lone === 'checkout') checkin = isoDay(Math.max(today, loneMs! - nights));
  return parseStayDates(checkin!, checkout!, now, v);
}

/** The v1 parameters as a SearchQuery for the one search core, with v1's own rules and codes. */
export function toV1SearchQuery(
  p: V1Params,
  now: Date,
  v: Violations,
  settings: V1ParamsSettings,
): SearchQuery & { providers: [SupplierId] } {
  let provider: SupplierId = 'supplier_a';
  if (p.provider === undefined) v.add('provider', 'provider is required on v1: one of supplier_a, supplier_b, supplier_c, supplier_d');
  else if (!isSupplierId(p.provider.toLowerCase())) v.add('provider', `unknown provider "${p.provider}"`, 'INVALID_PROVIDER');
  else provider = p.provider.toLowerCase() as SupplierId;

  for (const [param, limit] of [
    ['lat', 90],
    ['lng', 180],
    ['nelat', 90],
    ['nelng', 180],
    ['swlat', 90],
    ['swlng', 180],
  ] as const) {
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
    const ids = listItems('hotelids', p.hotelids, 'id', v);
    if (ids.length > 0 && checkHotelIdCount(ids.length, settings.maxHotelIds, v))
      hotelIds = ids.map((id) => ({ raw: id, supplier: provider, id }));
  }

  const hotelIdsGiven = p.hotelids !== undefined || v.has('hotelids');
  const location = hotelIdsGiven ? null : parseLocation(p, settings.radiusMeters, v);
  if (location === null && !hotelIdsGiven) requireLocation(v, 'or hotelids');

  const dates = parseV1Dates(p, now, v, settings);
  const currency = parseCurrency(p.currency, v);
  checkLang(p.lang, v);
  const minPrice = p.min ?? settings.v1MinPrice;
  const maxPrice = p.max ?? settings.v1MaxPrice;
  if (minPrice > maxPrice) v.add('min', 'min must not exceed max');

  return {
    location,
    hotelIds,
    providers: [provider],
    types,
    hotelSearch: null,
    // v1 shows one supplier's data, so its rating filters apply to that supplier's rating.
    ratingsOf: provider,
    // Applied only when within the scale, as v1 always did; above it the filter is ignored.
    minStars: p.minstarrating !== undefined && p.minstarrating <= 5 ? p.minstarrating : 0,
    minGuestRating: p.minguestrating !== undefined && p.minguestrating <= 10 ? p.minguestrating : 0,
    minRatingCount: 0,
    page: 1,
    pageSize: p.limit ?? settings.pageSize,
    dates,
    occupancy: { adults: p.adults ?? settings.adults, children: p.children ?? 0, childrenAges: null, rooms: p.rooms ?? settings.rooms },
    currency,
    minPrice,
    maxPrice,
    cluster: 'false',
    precision: null,
    cell: null,
  };
}
