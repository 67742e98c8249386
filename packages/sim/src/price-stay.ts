// Live prices of the simulated world: a deterministic model, so that a test (here or in the gateway)
// can compute the exact price a simulated supplier answers with `simQuote`, without asking it.
//
// Per night and per listing, in USD:
//   room rate   = base(class) x city factor x property factor           (one room, two adults)
//   night       = room rate x (rooms + 0.30 x adults beyond 2 per room + 0.15 x children 2-11
//                              + 0.25 x children 12-17)                 (children under 2 free)
//                 x season(month of the night) x weekday(night) x supplier margin
// rounded to US cents per night. The stay's total is the sum of its nights; each supplier then
// writes it in its own currency and units (see simQuote). Not available: a party larger than
// capacity.guests x rooms, or a sold-out check-in date, about 7% of (listing, check-in) pairs:
// 5% of (property, check-in) pairs are full at every seller (the property has no room left), and
// each seller loses 2% more on its own (its allotment is gone while another reseller still has rooms).
import { type RentalType, type StayType, type SupplierId } from './types.ts';
import type { SimListing, World, WorldProperty } from './generate-world.ts';
import { TOURIST_HOTSPOTS } from './load-cities.ts';
import { hashToUnit } from './random.ts';
import { dayCached } from './day-cache.ts';
import { openListing, prepareWorldLookup } from './world-lookup.ts';

// --- constants ------------------------------------------------------------------------------------

/** What each supplier adds to (or takes off) the property's price: resellers do not agree on price. */
export const SUPPLIER_MARGINS: Readonly<Record<SupplierId, number>> = {
  supplier_a: 1.0,
  supplier_b: 1.04,
  supplier_c: 0.97,
  supplier_d: 1.08,
};

/** The age a supplier assumes for a child whose age it is not told. */
export const DEFAULT_CHILD_AGES: Readonly<Record<SupplierId, number>> = {
  supplier_a: 8,
  supplier_b: 10,
  supplier_c: 6,
  supplier_d: 12,
};

/**
 * supplier_a's own exchange rates (units per USD), as of `asOf`: it quotes in these currencies and
 * in USD for any other. Deliberately not the gateway's table: a supplier converts with its own rates.
 */
export const SUPPLIER_A_RATES = {
  asOf: '2026-11-01',
  perUsd: { USD: 1, EUR: 0.865, GBP: 0.76, JPY: 152, CHF: 0.805, CAD: 1.4, AUD: 1.53 } as Readonly<Record<string, number>>,
} as const;

/** Currencies written without decimals (of supplier_a's native ones, only JPY). */
const ZERO_DECIMAL_CURRENCIES: ReadonlySet<string> = new Set(['JPY']);

/** supplier_b prices in EUR, converting with this rate (EUR per USD), its own, not supplier_a's. */
export const SUPPLIER_B_EUR_PER_USD = 0.87;

/** Nightly USD rate of one hotel room for two adults, by star class (before city and property factors). */
export const HOTEL_BASE_USD: Readonly<Record<'unrated' | 1 | 2 | 3 | 4 | 5, number>> = {
  unrated: 80,
  1: 55,
  2: 75,
  3: 110,
  4: 170,
  5: 300,
};

/**
 * Nightly USD rate of a rental by type: [base, per bedroom] (a studio has 0 bedrooms; unknown
 * bedrooms count as 1). Room-like stays (B&B, riad, ryokan, resort, palace...) have no per-bedroom part.
 */
export const RENTAL_BASE_USD: Readonly<Record<RentalType, readonly [number, number]>> = {
  apartment: [60, 35],
  condo: [70, 40],
  aparthotel: [75, 35],
  residence: [80, 35],
  tourist: [55, 25],
  house: [90, 40],
  villa: [160, 70],
  private_vacation_home: [110, 50],
  chalet: [140, 60],
  country_house: [100, 45],
  cottage: [85, 35],
  cabin: [75, 30],
  bungalow: [80, 30],
  farm_stay: [70, 25],
  agritourism: [80, 30],
  lodge: [120, 45],
  hostel: [30, 0],
  bed_and_breakfast: [85, 0],
  pension: [65, 0],
  riad: [110, 0],
  ryokan: [180, 0],
  resort: [190, 0],
  all_inclusive: [240, 0],
  palace: [420, 0],
};

/** Price level of the dearest tourist cities ("<city>|<country code>"). */
export const CITY_FACTORS: Readonly<Record<string, number>> = {
  'New York City|US': 1.7,
  'London|GB': 1.55,
  'Paris|FR': 1.5,
  'San Francisco|US': 1.5,
  'Venice|IT': 1.45,
  'Singapore|SG': 1.4,
  'Amsterdam|NL': 1.4,
  'Tokyo|JP': 1.35,
  'Dubai|AE': 1.35,
  'Honolulu|US': 1.35,
  'Rome|IT': 1.3,
  'Barcelona|ES': 1.3,
  'Sydney|AU': 1.25,
  'Kyoto|JP': 1.25,
};
/** Price level of the other tourist hotspots: [min, max), drawn from a hash of the city. */
export const HOTSPOT_CITY_FACTOR_RANGE = [0.85, 1.25] as const;
/** Price level of every other city: [min, max), drawn from a hash of the city. */
export const OTHER_CITY_FACTOR_RANGE = [0.55, 1.1] as const;
/** Two 3-star hotels of one city do not cost the same: [min, max), a hash of the world seed and property. */
export const PROPERTY_FACTOR_RANGE = [0.85, 1.15] as const;

/** By month of the night, January first: summer high season, a Christmas bump, a low winter. One calendar for the whole world. */
export const SEASON_FACTORS: readonly number[] = [0.8, 0.8, 0.9, 1.0, 1.05, 1.2, 1.35, 1.4, 1.1, 0.95, 0.85, 1.1];
/** Friday and Saturday nights. */
export const WEEKEND_FACTOR = 1.25;

/** Share of a room's rate added per adult beyond two per room, per child 2-11, per child 12-17. Under 2: free. */
export const EXTRA_ADULT_SHARE = 0.3;
export const CHILD_SHARE = 0.15;
export const TEEN_SHARE = 0.25;
/** Children younger than this stay free. */
export const FREE_CHILD_AGE = 2;
/** From this age a child pays the teen share. */
export const TEEN_AGE = 12;

/** Share of (property, check-in) pairs sold out at every seller of the property. */
export const PROPERTY_FULL_RATE = 0.05;
/** Share of (listing, check-in) pairs sold out at that seller only, on top of PROPERTY_FULL_RATE. */
export const ALLOTMENT_GONE_RATE = 0.02;
/** Share of (listing, check-in) pairs sold out in all: 1 - 0.95 x 0.98, about 7%. */
export const SOLD_OUT_RATE = 1 - (1 - PROPERTY_FULL_RATE) * (1 - ALLOTMENT_GONE_RATE);

/** Bounds of a valid request (beyond them: 400). Wider than the gateway's own, on purpose. */
export const QUOTE_LIMITS = { maxNights: 1_000, maxAdults: 50, maxChildren: 50, maxRooms: 50, maxChildAge: 17 } as const;

// --- requests -------------------------------------------------------------------------------------

/** One stay and party to price, as the gateway's QuoteRequest says it (without the ids). */
export interface SimQuoteRequest {
  /** YYYY-MM-DD */
  checkin: string;
  checkout: string;
  adults: number;
  children: number;
  /** One age per child, or null: the supplier applies its default age (DEFAULT_CHILD_AGES). */
  childrenAges: readonly number[] | null;
  rooms: number;
  /** Only supplier_a reads it; b answers in EUR, c and d in USD. */
  currency: string;
}

/** What a supplier's API answers for one id, as a whole-stay total in the supplier's currency. */
export type SimQuote = { available: false } | { available: true; total: number; currency: string };

export interface QuoteRequestProblem {
  field: keyof SimQuoteRequest;
  message: string;
}

const DAY_MS = 86_400_000;

/** Milliseconds of a real YYYY-MM-DD calendar date (UTC), or null. */
export function parseSimDate(text: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return null;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(y, m - 1, d);
  const date = new Date(ms);
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d ? ms : null;
}

const isCount = (x: unknown, min: number, max: number): x is number => Number.isInteger(x) && (x as number) >= min && (x as number) <= max;

/**
 * What is wrong with a request, first problem only, or null. The suppliers answer a problem with a
 * 400 naming their own parameter for `field`. Dates are not checked against today: the simulator
 * has no clock, so that the same request always gets the same answer.
 */
export function checkQuoteRequest(request: SimQuoteRequest): QuoteRequestProblem | null {
  const { checkin, checkout, adults, children, childrenAges, rooms, currency } = request;
  const inMs = parseSimDate(checkin);
  if (inMs === null) return { field: 'checkin', message: 'the check-in date must be a real date written YYYY-MM-DD' };
  const outMs = parseSimDate(checkout);
  if (outMs === null) return { field: 'checkout', message: 'the check-out date must be a real date written YYYY-MM-DD' };
  const nights = Math.round((outMs - inMs) / DAY_MS);
  if (nights < 1) return { field: 'checkout', message: 'the check-out date must be after the check-in date' };
  if (nights > QUOTE_LIMITS.maxNights) return { field: 'checkout', message: `a stay is at most ${QUOTE_LIMITS.maxNights} nights` };
  if (!isCount(adults, 1, QUOTE_LIMITS.maxAdults))
    return { field: 'adults', message: `adults must be an integer from 1 to ${QUOTE_LIMITS.maxAdults}` };
  if (!isCount(children, 0, QUOTE_LIMITS.maxChildren))
    return { field: 'children', message: `children must be an integer from 0 to ${QUOTE_LIMITS.maxChildren}` };
  if (childrenAges !== null) {
    if (!childrenAges.every((age) => isCount(age, 0, QUOTE_LIMITS.maxChildAge))) {
      return { field: 'childrenAges', message: `child ages must be integers from 0 to ${QUOTE_LIMITS.maxChildAge}` };
    }
    if (childrenAges.length !== children) {
      return { field: 'childrenAges', message: `${childrenAges.length} child ages given for ${children} children` };
    }
  }
  if (!isCount(rooms, 1, QUOTE_LIMITS.maxRooms))
    return { field: 'rooms', message: `rooms must be an integer from 1 to ${QUOTE_LIMITS.maxRooms}` };
  if (!/^[A-Z]{3}$/.test(currency)) return { field: 'currency', message: 'currency must be an ISO 4217 code in upper case' };
  return null;
}

// --- the model ------------------------------------------------------------------------------------

interface PriceIndex {
  /** The property's star class as its sellers agree on it (supplier_b, which shifts some by half a star, last). */
  stars: (number | null | undefined)[];
  /** Nightly rate of one room, USD, by propertyId; NaN until first asked. */
  roomRate: Float64Array;
}

/** Lookups per world and day (day-cache.ts), built once (a few tens of ms for the default world). */
function priceIndex(world: World): PriceIndex {
  return dayCached(world, 'price-index', () => {
    const stars: PriceIndex['stars'] = new Array(world.properties.length);
    for (const supplier of ['supplier_a', 'supplier_c', 'supplier_d', 'supplier_b'] as const) {
      for (const listing of world.listings[supplier])
        if (stars[listing.propertyId] === undefined) stars[listing.propertyId] = listing.rating.hotelStars;
    }
    return { stars, roomRate: new Float64Array(world.properties.length).fill(NaN) };
  });
}

/** Builds the lookups of a world ahead of the first quote, so that no quote call pays for it. */
export function preparePricing(world: World): void {
  priceIndex(world);
  prepareWorldLookup(world);
}

const hotspots = new Set(TOURIST_HOTSPOTS.map((h) => `${h.name}|${h.countryCode}`));
const within = ([min, max]: readonly [number, number], unit: number): number => min + (max - min) * unit;

/** The price level of a city: the table for the dearest, a hash-drawn level for the rest. */
export function cityFactor(city: string, countryCode: string): number {
  const key = `${city}|${countryCode}`;
  const fixed = CITY_FACTORS[key];
  if (fixed !== undefined) return fixed;
  return within(hotspots.has(key) ? HOTSPOT_CITY_FACTOR_RANGE : OTHER_CITY_FACTOR_RANGE, hashToUnit('city', key));
}

function hotelBase(stars: number | null): number {
  if (stars === null) return HOTEL_BASE_USD.unrated;
  const clamped = Math.min(5, Math.max(1, stars));
  const lo = Math.floor(clamped) as 1 | 2 | 3 | 4 | 5;
  const hi = Math.ceil(clamped) as 1 | 2 | 3 | 4 | 5;
  // A half star (supplier_b) lies between its neighbours.
  return HOTEL_BASE_USD[lo] + (HOTEL_BASE_USD[hi] - HOTEL_BASE_USD[lo]) * (clamped - lo);
}

function classBase(type: StayType, stars: number | null, bedrooms: number | null): number {
  if (type === 'hotel') return hotelBase(stars);
  const [base, perBedroom] = RENTAL_BASE_USD[type];
  return base + perBedroom * (bedrooms ?? 1);
}

/** Nightly USD rate of one room of a property for two adults, before season, weekday, party and margin. */
function roomRateUsd(world: World, index: PriceIndex, property: WorldProperty, listing: SimListing): number {
  let rate = index.roomRate[property.propertyId];
  if (Number.isNaN(rate)) {
    rate =
      classBase(property.type, index.stars[property.propertyId] ?? null, listing.capacity.bedrooms) *
      cityFactor(property.city, property.countryCode) *
      within(PROPERTY_FACTOR_RANGE, hashToUnit('property', world.seed, property.propertyId));
    index.roomRate[property.propertyId] = rate;
  }
  return rate;
}

/** Season x weekday of each night of the stay. */
function nightFactors(checkin: string, checkout: string): number[] {
  const inMs = parseSimDate(checkin)!;
  const outMs = parseSimDate(checkout)!;
  const factors: number[] = [];
  for (let ms = inMs; ms < outMs; ms += DAY_MS) {
    const date = new Date(ms);
    const day = date.getUTCDay();
    factors.push(SEASON_FACTORS[date.getUTCMonth()] * (day === 5 || day === 6 ? WEEKEND_FACTOR : 1));
  }
  return factors;
}

/** The rooms' share of the party: rooms, plus the shares of extra adults and of children by age. */
function partyUnits(adults: number, childAges: readonly number[], rooms: number): number {
  let units = rooms + EXTRA_ADULT_SHARE * Math.max(0, adults - 2 * rooms);
  for (const age of childAges) units += age < FREE_CHILD_AGE ? 0 : age < TEEN_AGE ? CHILD_SHARE : TEEN_SHARE;
  return units;
}

/** Whether a property has no room left for stays starting on `checkin`, at every seller. */
export function isPropertyFull(world: World, propertyId: number, checkin: string): boolean {
  return hashToUnit('full', world.seed, propertyId, checkin) < PROPERTY_FULL_RATE;
}

/** Whether `supplier` has nothing to sell of a property for stays starting on `checkin`. */
export function isSoldOut(world: World, supplier: SupplierId, propertyId: number, checkin: string): boolean {
  return (
    isPropertyFull(world, propertyId, checkin) || hashToUnit('allotment', world.seed, supplier, propertyId, checkin) < ALLOTMENT_GONE_RATE
  );
}

/**
 * The price of each night in US cents (the supplier's margin included) of a listing, or null when
 * it is not available: an id the supplier does not sell, a party too large, a sold-out date.
 * `request` must be valid (checkQuoteRequest).
 */
export function priceNightsUsdCents(world: World, supplier: SupplierId, supplierStayId: string, request: SimQuoteRequest): number[] | null {
  const index = priceIndex(world);
  const listing = openListing(world, supplier, supplierStayId);
  if (listing === undefined) return null;
  const { adults, children, rooms } = request;
  if (adults + children > listing.capacity.guests * rooms) return null;
  if (isSoldOut(world, supplier, listing.propertyId, request.checkin)) return null;
  const ages = request.childrenAges ?? new Array<number>(children).fill(DEFAULT_CHILD_AGES[supplier]);
  const perNight =
    roomRateUsd(world, index, world.properties[listing.propertyId], listing) * partyUnits(adults, ages, rooms) * SUPPLIER_MARGINS[supplier];
  return nightFactors(request.checkin, request.checkout).map((f) => Math.round(perNight * f * 100));
}

// --- what each supplier answers -------------------------------------------------------------------

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

/** The currency supplier_a answers in: the requested one when it holds a rate for it, else USD. */
export function supplierACurrency(requested: string): string {
  return SUPPLIER_A_RATES.perUsd[requested] === undefined ? 'USD' : requested;
}

/** supplier_a's whole-stay amount in `currency` (one of its own): converted once, 2 decimals (JPY 0). */
export function supplierAAmount(nightsUsdCents: readonly number[], currency: string): number {
  const factor = ZERO_DECIMAL_CURRENCIES.has(currency) ? 1 : 100;
  return Math.round((sum(nightsUsdCents) / 100) * SUPPLIER_A_RATES.perUsd[currency] * factor) / factor;
}

/** supplier_b's nightly amounts in EUR, each rounded to cents. */
export function supplierBNightlyEur(nightsUsdCents: readonly number[]): number[] {
  return nightsUsdCents.map((cents) => Math.round(cents * SUPPLIER_B_EUR_PER_USD) / 100);
}

/**
 * Exactly what `supplier`'s quote API answers for one id, as a whole-stay total: supplier_a in the
 * requested currency when native, else USD (2 decimals, JPY 0); supplier_b in EUR, the sum of its
 * nightly amounts (2 decimals); supplier_c in USD (its cents / 100); supplier_d in USD, a whole
 * number of cents per room (below).
 * Children without ages get the supplier's default age; supplier_a's API has no way to say that,
 * so an adapter sends supplier_a the default age (8) for each child whose age it does not know.
 * Throws a RangeError for a request the API would answer with a 400.
 */
export function simQuote(world: World, supplier: SupplierId, supplierStayId: string, request: SimQuoteRequest): SimQuote {
  const normalised = { ...request, currency: request.currency.toUpperCase() };
  const problem = checkQuoteRequest(normalised);
  if (problem) throw new RangeError(`${problem.field}: ${problem.message}`);
  const nights = priceNightsUsdCents(world, supplier, supplierStayId, normalised);
  if (nights === null) return { available: false };
  switch (supplier) {
    case 'supplier_a': {
      const currency = supplierACurrency(normalised.currency);
      return { available: true, total: supplierAAmount(nights, currency), currency };
    }
    case 'supplier_b':
      // Summed in cents: adding the 2-decimal floats would leave binary noise (0.1 + 0.2).
      return { available: true, total: sum(supplierBNightlyEur(nights).map((x) => Math.round(x * 100))) / 100, currency: 'EUR' };
    case 'supplier_c':
      return { available: true, total: sum(nights) / 100, currency: 'USD' };
    case 'supplier_d': {
      // Expedia Rapid prices every room of an occupancy alike (apis/expedia-rapid-availability-route.ts),
      // so a stay of several rooms costs whole cents per room: the odd cents below a multiple of the
      // rooms are dropped, and any split of the party into rooms can add up to the total exactly.
      const cents = sum(nights);
      return { available: true, total: (cents - (cents % normalised.rooms)) / 100, currency: 'USD' };
    }
  }
}
