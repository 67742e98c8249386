import currencyCodes from 'currency-codes';
import { isValidCell } from 'h3-js';
import { Violations } from '../../errors/api-error.ts';
import { foldText } from '../../text/fold-text.ts';
import type { LocationQuery, SearchQuery, StayDates } from '../../search/search-query.ts';
import { RENTAL_TYPES, STAY_TYPES, isSupplierId, type HotelIdRef, type Settings, type StayType, type SupplierId } from '../../types.ts';
import type { UnifiedParams } from './unified-query-schema.ts';

/** The figures a unified search takes when the request names none, and its bound on `hotelids`. */
export type SearchParamsSettings = Pick<Settings, 'maxHotelIds' | 'radiusMeters' | 'pageSize' | 'adults' | 'rooms'>;

/** What a presenter needs besides the search result: the partner's link parameters. */
export interface LinkParams {
  aid: string | null;
  campaign: string | null;
  /**
   * Dated searches: the stay the prices are for (the request's own `checkin`, `checkout` and, when
   * given, party parameters), carried on deeplinks so that `/go/{id}` picks the best-priced
   * supplier for the same stay and the booking page opens on the same dates.
   */
  trip?: Partial<Record<(typeof TRIP_PARAMS)[number], string>>;
}

/** The query parameters that describe a stay to price: what a dated deeplink carries. */
export const TRIP_PARAMS = ['checkin', 'checkout', 'adults', 'children', 'childrenAges', 'rooms'] as const;

// A maintained ISO 4217 list rather than Intl's, which lags the standard by the age of the
// runtime's ICU (Node 20 does not know VED). Codes without a rate fall back to USD (search/currency.ts).
const CURRENCIES = new Set(currencyCodes.codes());
const LANGUAGES = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
const DAY_MS = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Milliseconds at UTC midnight of a real calendar date, or null ("2026-02-30" is not one). */
export function parseCalendarDate(text: string): number | null {
  const m = ISO_DATE.exec(text);
  if (m === null) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999.
  const back = new Date(0);
  back.setUTCFullYear(y, mo - 1, d);
  const ms = back.getTime();
  return back.getUTCFullYear() === y && back.getUTCMonth() === mo - 1 && back.getUTCDate() === d ? ms : null;
}

function utcMidnight(now: Date): number {
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
}

/**
 * Both dates of a stay (docs/decisions.md, "Dates"): not a real YYYY-MM-DD date ->
 * INVALID_DATE_FORMAT; a real date before today (UTC), more than two years ahead, or a checkout
 * not after the checkin -> VALIDATION_ERROR.
 */
export function parseStayDates(checkin: string, checkout: string, now: Date, v: Violations): StayDates | null {
  const today = utcMidnight(now);
  const twoYears = Date.UTC(now.getUTCFullYear() + 2, now.getUTCMonth(), now.getUTCDate());
  const read = (param: string, text: string): number | null => {
    const ms = parseCalendarDate(text);
    if (ms === null) {
      v.add(param, `${param} must be a real calendar date written YYYY-MM-DD`, 'INVALID_DATE_FORMAT');
      return null;
    }
    if (ms < today) v.add(param, `${param} must be today or later`);
    else if (ms > twoYears) v.add(param, `${param} must be at most two years ahead`);
    return ms;
  };
  const inMs = read('checkin', checkin);
  const outMs = read('checkout', checkout);
  if (inMs === null || outMs === null) return null;
  if (outMs <= inMs) {
    v.add('checkout', 'checkout must be after checkin');
    return null;
  }
  return { checkin, checkout, nights: Math.round((outMs - inMs) / DAY_MS) };
}

/**
 * The dates of a unified search: both make it dated; one alone is a static search (the spec
 * orders and bounds dates only "when both dates are given"), and the lone date is reported as
 * ignored rather than refused.
 */
function parseSearchDates(p: UnifiedParams, now: Date, v: Violations): StayDates | null {
  if (p.checkin !== undefined && p.checkout !== undefined) return parseStayDates(p.checkin, p.checkout, now, v);
  if (p.checkin !== undefined) v.ignore('checkin', 'checkin without checkout: prices need both dates, so the search is static');
  if (p.checkout !== undefined) v.ignore('checkout', 'checkout without checkin: prices need both dates, so the search is static');
  return null;
}

export function splitList(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * The items of a list parameter that was given (compile-query.ts drops an empty value as not
 * given). Empty items between commas are skipped (`a,,b` is a and b), but a list of none at all
 * (whitespace, commas only: `hotelids=+`, `type=,`) is a 400 naming the parameter: taking it as
 * "not given" would widen the search to everything, or leave it with nothing to look up.
 */
export function listItems(param: string, texts: string | readonly string[], what: string, v: Violations): string[] {
  const items = (typeof texts === 'string' ? [texts] : texts).flatMap(splitList);
  if (items.length === 0) v.add(param, `${param} lists no ${what}: give at least one, comma-separated`);
  return items;
}

function parseProviders(values: string[] | undefined, v: Violations): SupplierId[] | null {
  if (values === undefined) return null;
  const providers = new Set<SupplierId>();
  for (const value of listItems('provider', values, 'supplier', v)) {
    const id = value.toLowerCase();
    if (isSupplierId(id)) providers.add(id);
    else if (!v.has('provider'))
      v.add('provider', `unknown provider "${value}"; expected supplier_a, supplier_b, supplier_c or supplier_d`);
  }
  return providers.size > 0 ? [...providers] : null;
}

function parseTypes(text: string | undefined, v: Violations): StayType[] | null {
  if (text === undefined) return null;
  const types = new Set<StayType>();
  for (const value of listItems('type', text, 'stay type', v)) {
    const t = value.toLowerCase();
    if (t === 'rental')
      for (const r of RENTAL_TYPES) types.add(r); // rental absorbs the concrete rental types
    else if ((STAY_TYPES as readonly string[]).includes(t)) types.add(t as StayType);
    else v.add('type', `unknown type "${value}"; expected hotel, rental or one of ${RENTAL_TYPES.join(', ')}`);
  }
  return types.size > 0 ? [...types] : null;
}

/** The bound on `hotelids` (v1 and the unified search say it alike). */
export function checkHotelIdCount(count: number, maxHotelIds: number, v: Violations): boolean {
  if (count <= maxHotelIds) return true;
  v.add('hotelids', `hotelids holds ${count} entries; at most ${maxHotelIds} are allowed`);
  return false;
}

function parseHotelIds(text: string | undefined, maxHotelIds: number, v: Violations): HotelIdRef[] | null {
  if (text === undefined) return null;
  const entries = listItems('hotelids', text, 'id', v);
  if (entries.length === 0 || !checkHotelIdCount(entries.length, maxHotelIds, v)) return null;
  const refs: HotelIdRef[] = [];
  for (const raw of entries) {
    const colon = raw.indexOf(':');
    if (colon < 0) {
      refs.push({ raw, supplier: null, id: raw });
      continue;
    }
    const prefix = raw.slice(0, colon).toLowerCase();
    const id = raw.slice(colon + 1);
    if (!isSupplierId(prefix)) v.add('hotelids', `unknown prefix "${raw.slice(0, colon)}" in "${raw}"; expected a supplier identifier`);
    else if (id === '') v.add('hotelids', `"${raw}" has no id after its prefix`);
    else refs.push({ raw, supplier: prefix, id });
  }
  return entries.length > 0 ? refs : null;
}

/** The location parameters every version shares. */
export interface LocationParams {
  address?: string;
  lat?: number;
  lng?: number;
  radius?: number;
  nelat?: number;
  nelng?: number;
  swlat?: number;
  swlng?: number;
}

/** The location method of a request (box, then point, then address; `radiusMeters` when none is given); violations for half-given ones. */
export function parseLocation(p: LocationParams, radiusMeters: number, v: Violations): LocationQuery | null {
  const radius = p.radius ?? radiusMeters;
  const boxKeys = ['nelat', 'nelng', 'swlat', 'swlng'] as const;
  const given = boxKeys.filter((k) => p[k] !== undefined || v.has(k));
  if (given.length > 0) {
    const missing = boxKeys.filter((k) => !given.includes(k));
    if (missing.length > 0) {
      for (const k of missing) v.add(k, `a bounding box needs all of nelat, nelng, swlat, swlng; ${k} is missing`, 'LOCATION_REQUIRED');
      return null;
    }
    if (boxKeys.some((k) => v.has(k))) return null;
    if (p.nelat! < p.swlat!) {
      v.add('nelat', 'nelat must not be south of swlat');
      return null;
    }
    // nelng < swlng is a box across the antimeridian, which is legal.
    return { kind: 'box', south: p.swlat!, west: p.swlng!, north: p.nelat!, east: p.nelng! };
  }
  const hasLat = p.lat !== undefined || v.has('lat');
  const hasLng = p.lng !== undefined || v.has('lng');
  if (hasLat || hasLng) {
    if (!hasLat) v.add('lat', 'lat must be given with lng', 'LOCATION_REQUIRED');
    if (!hasLng) v.add('lng', 'lng must be given with lat', 'LOCATION_REQUIRED');
    if (p.lat === undefined || p.lng === undefined) return null;
    return { kind: 'point', lat: p.lat, lng: p.lng, radius };
  }
  if (p.address !== undefined) {
    if (p.address.trim() === '') {
      v.add('address', 'address is empty');
      return null;
    }
    return { kind: 'address', address: p.address.trim(), radius };
  }
  return null;
}

/**
 * The location rule's 400 when no location method was given: LOCATION_REQUIRED. A half-given
 * method (lat without lng, a box missing a corner) is reported by parseLocation with the same code.
 */
export function requireLocation(v: Violations, alternatives: string): void {
  const locationParams = ['address', 'lat', 'lng', 'nelat', 'nelng', 'swlat', 'swlng'];
  if (locationParams.some((k) => v.has(k))) return;
  v.add('location', `give a location: address, lat and lng, or nelat, nelng, swlat and swlng (${alternatives})`, 'LOCATION_REQUIRED');
}

/** ISO 4217, case-insensitive; USD when absent. */
export function parseCurrency(text: string | undefined, v: Violations): string {
  if (text === undefined) return 'USD';
  const currency = text.toUpperCase();
  if (!CURRENCIES.has(currency)) v.add('currency', `currency "${text}" is not an ISO 4217 code`);
  return currency;
}

/** ISO 639-1, case-insensitive. Every valid code is accepted; content is served in English. */
export function checkLang(text: string | undefined, v: Violations): void {
  if (text !== undefined && LANGUAGES.of(text.toLowerCase()) === undefined) {
    v.add('lang', `lang "${text}" is not an ISO 639-1 language code`);
  }
}

function parseChildrenAges(text: string | undefined, children: number, v: Violations): number[] | null {
  if (text === undefined) return null;
  const parts = text.split(',').map((s) => s.trim());
  const ages = parts.map((s) => (/^\d{1,2}$/.test(s) ? Number(s) : NaN));
  if (ages.some((a) => !(a >= 0 && a <= 17))) {
    v.add('childrenAges', 'childrenAges must be comma-separated whole ages from 0 to 17');
    return null;
  }
  if (ages.length !== children) {
    v.add('childrenAges', `childrenAges lists ${ages.length} ages but children is ${children}; give one age per child`);
    return null;
  }
  return ages;
}

function parsePrecision(text: string | undefined): number | null {
  return text === undefined ? null : Number(text.replace(/^[rR]/, ''));
}

/**
 * The unified (v2/v3) parameters as a SearchQuery, adding every rule that a type and a range
 * cannot say. Violations are collected, never thrown here, so one 400 lists them all.
 */
export function toSearchQuery(p: UnifiedParams, now: Date, v: Violations, settings: SearchParamsSettings): SearchQuery {
  const providers = parseProviders(p.provider, v);
  const hotelIds = parseHotelIds(p.hotelids, settings.maxHotelIds, v);
  const location = parseLocation(p, settings.radiusMeters, v);
  const types = parseTypes(p.type, v);
  const cluster = p.cluster ?? 'false';

  if (hotelIds !== null && providers !== null && providers.length > 1) {
    v.add('provider', 'with hotelids, provider may name only one supplier');
  }

  let hotelSearch: string[] | null = null;
  if (p.hotelsearch !== undefined) {
    hotelSearch = foldText(p.hotelsearch)
      .split(' ')
      .filter((t) => t !== '');
    if (hotelSearch.length === 0) v.add('hotelsearch', 'hotelsearch has no letters or digits to search for');
    if (hotelIds !== null) v.add('hotelsearch', 'hotelsearch cannot be combined with hotelids');
    const boxGiven = ['nelat', 'nelng', 'swlat', 'swlng'].some((k) => p[k as keyof UnifiedParams] !== undefined);
    if (boxGiven) v.add('hotelsearch', 'hotelsearch cannot be combined with a bounding box; use address or lat/lng');
    else if (p.address !== undefined && (p.lat !== undefined || p.lng !== undefined)) {
      v.add('hotelsearch', 'hotelsearch needs exactly one location method: address, or lat/lng');
    }
    if (cluster !== 'false') v.add('cluster', 'hotelsearch cannot be combined with clustering');
    if (p.precision !== undefined) v.add('precision', 'hotelsearch cannot be combined with clustering (precision asks for cluster=top)');
    if (types !== null && (types.length !== 1 || types[0] !== 'hotel')) v.add('type', 'with hotelsearch, type may only be hotel');
  }

  // A cell alone is a location too: the stays inside it, as a flat list (what an expand link lists).
  const hotelIdsGiven = p.hotelids !== undefined || v.has('hotelids');
  if (location === null && !hotelIdsGiven && p.cell === undefined) requireLocation(v, 'or hotelids, or an H3 cell');

  const children = p.children ?? 0;
  const childrenAges = parseChildrenAges(p.childrenAges, children, v);
  const dates = parseSearchDates(p, now, v);

  const currency = parseCurrency(p.currency, v);
  checkLang(p.lang, v);
  if (dates === null) {
    // Pricing rule 1: without dates min and max are ignored, so neither are they checked.
    for (const param of ['min', 'max'] as const) {
      if (p[param] !== undefined || v.has(param)) v.ignore(param, `${param} applies only to dated searches (checkin and checkout)`);
    }
  } else if (p.min !== undefined && p.max !== undefined && p.min > p.max) v.add('min', 'min must not exceed max');
  if (p.cell !== undefined && !isValidCell(p.cell.toLowerCase())) v.add('cell', `cell "${p.cell}" is not an H3 cell index`);

  return {
    location: hotelIds !== null ? null : location,
    hotelIds,
    providers,
    types: hotelSearch !== null ? ['hotel'] : types,
    hotelSearch,
    minStars: p.minstarrating ?? 0,
    minGuestRating: p.minguestrating ?? 0,
    minRatingCount: p.minratingcount ?? 0,
    page: Math.max(1, p.page ?? 1),
    pageSize: p.pageSize ?? settings.pageSize,
    dates,
    occupancy: { adults: p.adults ?? settings.adults, children, childrenAges, rooms: p.rooms ?? settings.rooms },
    currency,
    minPrice: dates === null ? null : (p.min ?? null),
    maxPrice: dates === null ? null : (p.max ?? null),
    cluster,
    precision: parsePrecision(p.precision),
    cell: p.cell?.toLowerCase() ?? null,
  };
}

/**
 * A search's link parameters. A dated search's links carry the stay priced: its dates, and its
 * party, `adults` and `rooms` always (the defaults when the search named none: what the booking
 * page opens with), `children` and `childrenAges` when given.
 */
export function linkParams(p: UnifiedParams, settings: Pick<Settings, 'adults' | 'rooms'>): LinkParams {
  const link: LinkParams = { aid: p.aid ?? null, campaign: p.campaign ?? null };
  if (p.checkin !== undefined && p.checkout !== undefined) {
    link.trip = {};
    const party = { ...p, adults: p.adults ?? settings.adults, rooms: p.rooms ?? settings.rooms };
    for (const name of TRIP_PARAMS) if (party[name] !== undefined) link.trip[name] = String(party[name]);
  }
  return link;
}
