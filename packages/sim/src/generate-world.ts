// The simulated world (ground truth): real properties placed around real cities, and what each of the
// four suppliers sells of them. Deterministic per seed, so tests, benchmarks and demos agree on it.
import { distanceMeters } from './distance.ts';
import type { Capacity, Listing, Policies, Rating, RentalType, StayType, SupplierId } from './types.ts';
import { loadCities, type SimCity } from './load-cities.ts';
import { MEDIA_PATHS } from './media-paths.ts';
import { nameChainHotel, nameIndependentHotel, nameKey, nameRental } from './name-property.ts';
import { createRandom, createWeightedPicker, type Random } from './random.ts';
import { typeLabel, type HotelStyle } from './type-label.ts';
import { varyAddress } from './vary-address.ts';
import { varyName } from './vary-name.ts';
import { CHAIN_BRANDS, languageOf, STREETS, type ChainBrand, type Language } from './vocabulary.ts';
import { clamp, offsetPoint, round1, round6 } from './geometry.ts';
import { flatString } from './flat-string.ts';

export interface WorldProperty {
  /** Index in `World.properties`. */
  propertyId: number;
  cityId: number;
  city: string;
  countryCode: string;
  type: StayType;
  lat: number;
  lng: number;
  /** Canonical name: the one its first supplier writes; other suppliers write variants of it. */
  name: string;
  /** Canonical address, "<number> <street>, <City>, <CC>". */
  address: string;
  /** Chain brand ("Ibis Styles"), null for independents and rentals. */
  chain: string | null;
}

/** A supplier's listing with canonical values, and the property it really is (the ground truth). */
export interface SimListing extends Listing {
  propertyId: number;
}

export interface World {
  seed: number;
  properties: WorldProperty[];
  /** Each supplier's open listings in feed order (ascending supplier id). */
  listings: Record<SupplierId, SimListing[]>;
  /** Simulated days since generation (advance-world.ts); 0 as generated. */
  day: number;
  /** Listings closed since generation: their bookings stay in the reports, their ids are never reused. */
  closed: Record<SupplierId, SimListing[]>;
}

export interface GenerateWorldOptions {
  seed: number;
  /** Number of properties. */
  stays: number;
}

/** Numeric supplier ids (supplier_a, supplier_c, supplier_d) share this range, so bare ids collide. */
export const SIM_ID_MIN = 1_000_000;
export const SIM_ID_MAX = 9_999_999;
/**
 * supplier_b's ids (Hotelbeds' hotel codes are plain integers) come from a range of their own,
 * above the shared one: never a bare id another supplier uses, and room for any world's size.
 */
export const SIM_B_ID_MIN = 10_000_000;
export const SIM_B_ID_MAX = 99_999_999;

/** Share of properties that are hotels. */
const HOTEL_SHARE = 0.55;
/** Share of hotels (on supplier_a/b/c) also sold by one or two more of those three. */
const HOTEL_CROSS_LIST_SHARE = 0.335;
/** Chance that supplier_c / supplier_d reuse a bare id another supplier uses for a different property. */
const SHARED_BARE_ID_RATE = 0.03;
/** Chance that a property is placed 15-80 m from another one of its city: distinct neighbours. */
const NEIGHBOUR_RATE = 0.015;
/** Same-family chain branches ("Ibis Paris Nord", "Ibis Styles Paris Nord") stay this far apart. */
export const CHAIN_MIN_SPACING_M = 300;
/** Jitter of a cross-listed copy's coordinates around the property, in metres. */
export const CROSS_LIST_JITTER_M = [5, 60] as const;

const ABC: readonly SupplierId[] = ['supplier_a', 'supplier_b', 'supplier_c'];
const pickHotelSupplier = createWeightedPicker<SupplierId>([
  ['supplier_a', 0.38],
  ['supplier_b', 0.31],
  ['supplier_c', 0.31],
]);

/** Share of each rental type sold by the hotel suppliers (a/b/c) rather than by supplier_d. */
const HOTEL_SUPPLIER_RENTAL_SHARE: Partial<Record<RentalType, number>> = {
  apartment: 0.18,
  aparthotel: 0.75,
  residence: 0.6,
};

// Media are paths on the supplier's own server (media.ts serves them); each feed writes them as
// absolute URLs under the address it was reached at.
const LOGOS = (supplier: SupplierId): string => MEDIA_PATHS[supplier].logo;
const THUMBNAILS = (supplier: SupplierId, id: string): string => MEDIA_PATHS[supplier].photo(id, 1);

// --- rental type mix -------------------------------------------------------------------------------

type TypeWeights = Partial<Record<RentalType, number>>;

/** Rentals in town: mostly apartments; condos, houses, B&Bs, aparthotels. */
const URBAN_RENTALS: TypeWeights = {
  apartment: 30,
  condo: 8,
  house: 7,
  villa: 5,
  private_vacation_home: 3,
  bungalow: 1,
  cottage: 1,
  cabin: 0.3,
  chalet: 0.3,
  country_house: 0.3,
  farm_stay: 0.1,
  agritourism: 0.1,
  lodge: 0.5,
  resort: 1.5,
  all_inclusive: 0.6,
  palace: 0.3,
  pension: 2,
  bed_and_breakfast: 3.5,
  hostel: 3.5,
  tourist: 2,
  residence: 3.5,
  aparthotel: 4,
};

/** Rentals tens of km out: houses, villas, cottages, cabins, farms. */
const RURAL_RENTALS: TypeWeights = {
  apartment: 4,
  condo: 2,
  house: 14,
  villa: 12,
  private_vacation_home: 7,
  bungalow: 5,
  cottage: 9,
  cabin: 8,
  chalet: 5,
  country_house: 6,
  farm_stay: 4,
  agritourism: 2,
  lodge: 4,
  resort: 3,
  all_inclusive: 1.5,
  palace: 0.2,
  pension: 2,
  bed_and_breakfast: 6,
  hostel: 0.5,
  tourist: 1,
  residence: 1,
  aparthotel: 0.5,
};

/** Local specialities: riads are Moroccan, ryokans Japanese, agriturismi Italian, chalets alpine. */
function localTypeWeights(countryCode: string, rural: boolean): TypeWeights {
  const w: TypeWeights = { ...(rural ? RURAL_RENTALS : URBAN_RENTALS) };
  if (countryCode === 'MA') w.riad = rural ? 6 : 25;
  if (countryCode === 'TN' || countryCode === 'DZ') w.riad = 2;
  if (countryCode === 'JP') w.ryokan = 15;
  if (countryCode === 'IT') w.agritourism = rural ? 14 : 0.6;
  if (['CH', 'AT', 'FR', 'CA'].includes(countryCode)) w.chalet = (w.chalet ?? 0) * 3;
  if (['IN', 'MA', 'IT', 'FR'].includes(countryCode)) w.palace = (w.palace ?? 0) * 3;
  if (['MX', 'DO', 'CU', 'TH', 'ID', 'EG', 'TR'].includes(countryCode)) w.all_inclusive = (w.all_inclusive ?? 0) * 4;
  return w;
}

const typePickers = new Map<string, (rng: Random) => RentalType>();
function rentalTypePicker(countryCode: string, rural: boolean): (rng: Random) => RentalType {
  const key = `${countryCode}|${rural}`;
  let picker = typePickers.get(key);
  if (!picker) {
    picker = createWeightedPicker(Object.entries(localTypeWeights(countryCode, rural)) as [RentalType, number][]);
    typePickers.set(key, picker);
  }
  return picker;
}

const brandsByCountry = new Map<string, readonly ChainBrand[]>();
function brandsIn(countryCode: string): readonly ChainBrand[] {
  let brands = brandsByCountry.get(countryCode);
  if (!brands) {
    brands = CHAIN_BRANDS.filter((b) => !b.countries || b.countries.includes(countryCode));
    brandsByCountry.set(countryCode, brands);
  }
  return brands;
}

// --- geometry (offsetPoint and the rounding helpers: geometry.ts) -----------------------------------

/**
 * Core scale in metres: grows with sqrt(population) (a city's area grows about with its population),
 * bounded so villages still spread a little and megacities do not sprawl over 50 km.
 */
function coreScaleM(population: number): number {
  return clamp(350 * Math.sqrt(population / 100_000), 400, 2_500);
}

/**
 * A point around the city: most in a dense core whose density falls off as exp(-r / scale)
 * (radius ~ Gamma(2, scale)), a sparse tail tens of km out (exurbs, coast, countryside).
 */
function samplePoint(rng: Random, city: SimCity, scaleM: number, tail: boolean): { lat: number; lng: number } {
  const r = tail ? Math.min(3 * scaleM + rng.exponential(12_000), 70_000) : scaleM * (rng.exponential(1) + rng.exponential(1));
  return offsetPoint(city.lat, city.lng, r, rng.float(0, 2 * Math.PI));
}

// --- allocation ------------------------------------------------------------------------------------

/** Stays per city: hotspots get their fixed share, the rest is spread by population (largest remainder). */
function allocate(cities: readonly SimCity[], stays: number): number[] {
  const hotspotShare = cities.reduce((sum, c) => sum + c.touristShare, 0);
  const populationTotal = cities.reduce((sum, c) => sum + (c.touristShare > 0 ? 0 : c.population), 0);
  const byPopulation = stays * Math.max(0, 1 - hotspotShare);
  const quotas = cities.map((c) => (c.touristShare > 0 ? stays * c.touristShare : (byPopulation * c.population) / populationTotal));
  const counts = quotas.map(Math.floor);
  let missing = stays - counts.reduce((a, b) => a + b, 0);
  const order = quotas.map((q, i) => [q - Math.floor(q), i] as const).sort((x, y) => y[0] - x[0] || x[1] - y[1]);
  for (let k = 0; missing > 0; k = (k + 1) % order.length, missing--) counts[order[k][1]]++;
  return counts;
}

// --- property attributes ---------------------------------------------------------------------------

const pickHotelStars = createWeightedPicker<number | null>([
  [null, 6],
  [1, 4],
  [2, 14],
  [3, 38],
  [4, 28],
  [5, 10],
]);
const pickHotelGuests = createWeightedPicker<number>([
  [1, 5],
  [2, 65],
  [3, 12],
  [4, 18],
]);
const pickHotelStyle = createWeightedPicker<HotelStyle>([
  ['standard', 55],
  ['boutique', 25],
  ['business', 14],
  ['design', 6],
]);

const WHOLE_HOMES: ReadonlySet<RentalType> = new Set<RentalType>([
  'villa',
  'house',
  'private_vacation_home',
  'chalet',
  'country_house',
  'cottage',
  'cabin',
  'bungalow',
  'farm_stay',
  'agritourism',
  'lodge',
]);
const FLATS: ReadonlySet<RentalType> = new Set<RentalType>(['apartment', 'condo', 'aparthotel', 'residence', 'tourist']);
const STARRED_RENTALS: ReadonlySet<RentalType> = new Set<RentalType>(['resort', 'all_inclusive', 'palace', 'aparthotel', 'residence']);

const halfStep = (x: number): number => Math.max(0.5, Math.round(x * 2) / 2);

function makeCapacity(rng: Random, type: StayType): Capacity {
  if (type === 'hotel') {
    const guests = pickHotelGuests(rng);
    return {
      guests,
      bedrooms: rng.chance(0.5) ? null : 1,
      beds: rng.chance(0.1) ? null : guests <= 2 ? 1 : 2,
      bathrooms: 1,
    };
  }
  if (type === 'hostel') {
    return { guests: rng.chance(0.7) ? 1 : rng.int(2, 6), bedrooms: null, beds: rng.int(1, 2), bathrooms: rng.chance(0.6) ? 0.5 : 1 };
  }
  if (FLATS.has(type) || WHOLE_HOMES.has(type)) {
    const bedrooms = FLATS.has(type) ? rng.int(0, 3) : rng.int(1, 6);
    const guests = Math.max(1, bedrooms === 0 ? rng.int(1, 3) : bedrooms * 2 + rng.int(0, 2));
    return {
      guests,
      bedrooms: rng.chance(0.05) ? null : bedrooms,
      beds: rng.chance(0.1) ? null : Math.max(1, bedrooms + rng.int(0, 2)),
      bathrooms: halfStep(bedrooms / 2 + rng.float(0.25, 1.25)),
    };
  }
  // Room-like stays: B&Bs, pensions, riads, ryokans, resorts, palaces.
  const guests = rng.int(1, 4);
  return {
    guests,
    bedrooms: rng.chance(0.4) ? null : 1,
    beds: rng.chance(0.15) ? null : guests <= 2 ? 1 : 2,
    bathrooms: rng.chance(0.15) ? 0.5 : 1,
  };
}

/**
 * The four policy combinations, shared by every listing (frozen: nothing edits one in place; the
 * world's days replace a listing's objects whole), rather than an object per listing.
 */
const POLICIES: readonly Policies[] = [false, true].flatMap((instantBook) =>
  [false, true].map((freeCancellation) => Object.freeze({ instantBook, freeCancellation })),
);

function makePolicies(rng: Random, type: StayType, supplier: SupplierId): Policies {
  const hotelLike = type === 'hotel' || supplier !== 'supplier_d';
  const instantBook = rng.chance(hotelLike ? 0.9 : 0.5);
  const freeCancellation = rng.chance(hotelLike ? 0.6 : 0.4);
  return POLICIES[(instantBook ? 2 : 0) + (freeCancellation ? 1 : 0)];
}

/**
 * A rating shared by every listing of the same (value, stars, count) (frozen, as the world's days
 * replace a listing's rating whole): ~64 bytes a listing less. Values are whole tenths and stars
 * halves, so the key names exactly one triple of doubles.
 */
function sharedRating(ratings: Map<number, Rating>, value: number, hotelStars: number | null, count: number): Rating {
  const key = (count * 12 + (hotelStars === null ? 0 : Math.round(hotelStars * 2) + 1)) * 101 + Math.round(value * 10);
  let rating = ratings.get(key);
  if (rating === undefined) ratings.set(key, (rating = Object.freeze({ value, hotelStars, count })));
  return rating;
}

/** Each (supplier, type, style) label once: supplier_d's "Entire ..." labels are built strings. */
const labels = new Map<string, string>();
function sharedTypeLabel(supplier: SupplierId, type: StayType, style: HotelStyle): string {
  const key = `${supplier} ${type} ${style}`;
  let label = labels.get(key);
  if (label === undefined) labels.set(key, (label = typeLabel(supplier, type, style)));
  return label;
}

function guestRating(rng: Random, hotel: boolean): number {
  if (rng.chance(0.01)) return round1(rng.float(1, 6));
  return clamp(round1(hotel ? rng.normal(8.0, 0.7) : rng.normal(8.6, 0.8)), 1, 10);
}

/** Reviews behind a property: hotels have hundreds, rentals a handful, some none yet. */
function popularity(rng: Random, hotel: boolean): number {
  if (!hotel && rng.chance(0.12)) return 0;
  return Math.round(Math.exp(hotel ? rng.normal(5.3, 1.1) : rng.normal(2.5, 1.2)));
}

/** The suppliers selling a property; the first one writes its canonical name and coordinates. */
function chooseSuppliers(rng: Random, type: StayType): SupplierId[] {
  if (type === 'hotel') {
    if (rng.chance(0.015)) return ['supplier_d'];
    const primary = pickHotelSupplier(rng);
    const sellers = [primary];
    if (rng.chance(HOTEL_CROSS_LIST_SHARE)) {
      const others = ABC.filter((s) => s !== primary);
      if (rng.chance(0.3)) sellers.push(...others);
      else sellers.push(rng.pick(others));
    }
    if (rng.chance(0.025)) sellers.push('supplier_d');
    return sellers;
  }
  const hotelSupplierShare = HOTEL_SUPPLIER_RENTAL_SHARE[type] ?? 0;
  if (!rng.chance(hotelSupplierShare)) return ['supplier_d'];
  const primary = pickHotelSupplier(rng);
  const sellers = [primary];
  if (rng.chance(0.2)) sellers.push(rng.pick(ABC.filter((s) => s !== primary)));
  if (rng.chance(0.35)) sellers.push('supplier_d');
  return sellers;
}

// --- the generator ---------------------------------------------------------------------------------

interface CityState {
  city: SimCity;
  lang: Language;
  scaleM: number;
  /** Share of its hotels that are a chain's branch. */
  chainRate: number;
  /** Chain hotels by family, to keep branches of one family apart. */
  chainPoints: Map<string, { lat: number; lng: number }[]>;
  nameKeys: Set<string>;
  placed: { lat: number; lng: number }[];
}

function tooCloseToFamily(state: CityState, family: string, p: { lat: number; lng: number }): boolean {
  const points = state.chainPoints.get(family);
  return !!points && points.some((q) => distanceMeters(p.lat, p.lng, q.lat, q.lng) < CHAIN_MIN_SPACING_M);
}

/** A name not yet used in the city (by nameKey), trying `make` a few times; null if all were taken. */
function uniqueName(state: CityState, make: (attempt: number) => string, tries = 8): string | null {
  for (let i = 0; i < tries; i++) {
    const name = make(i);
    const key = nameKey(name);
    if (!state.nameKeys.has(key)) {
      state.nameKeys.add(key);
      return name;
    }
  }
  return null;
}

/** Last resort for a taken name: a street, then a number, after it ("Hotel Aurora Rue Lafayette 2"). */
function disambiguate(state: CityState, name: string, rng: Random): string {
  const base = `${name} ${rng.pick(STREETS[state.lang])}`;
  let claimed = base;
  for (let n = 2; state.nameKeys.has(nameKey(claimed)); n++) claimed = `${base} ${n}`;
  state.nameKeys.add(nameKey(claimed));
  return claimed;
}

export function generateWorld({ seed, stays }: GenerateWorldOptions): World {
  if (!Number.isInteger(stays) || stays < 0) throw new RangeError(`stays must be a non-negative integer, got ${stays}`);
  if (!Number.isFinite(seed)) throw new RangeError(`seed must be a finite number, got ${seed}`);
  const rng = createRandom(seed);
  const cities = loadCities();
  const counts = allocate(cities, stays);

  const properties: WorldProperty[] = [];
  const listings: Record<SupplierId, SimListing[]> = { supplier_a: [], supplier_b: [], supplier_c: [], supplier_d: [] };
  // One frozen rating object per distinct (value, stars, count), for this generation only.
  const ratings = new Map<number, Rating>();

  for (let ci = 0; ci < cities.length; ci++) {
    if (counts[ci] === 0) continue;
    const city = cities[ci];
    const state: CityState = {
      city,
      lang: languageOf(city.countryCode),
      scaleM: coreScaleM(city.population),
      chainRate: city.population >= 200_000 || city.touristShare > 0 ? 0.2 : 0.1,
      chainPoints: new Map(),
      nameKeys: new Set(),
      placed: [],
    };
    for (let k = 0; k < counts[ci]; k++) {
      const generated = generateProperty(rng, state, properties.length);
      properties.push(generated.property);
      listProperty(rng, generated, listings, ratings);
    }
  }

  assignIds(rng, listings);
  return { seed, properties, listings, day: 0, closed: { supplier_a: [], supplier_b: [], supplier_c: [], supplier_d: [] } };
}

interface GeneratedProperty {
  property: WorldProperty;
  /** Where it is, before rounding to the world's 6 decimals: its other listings are placed around it. */
  point: { lat: number; lng: number };
  brand: ChainBrand | null;
  capacity: SimListing['capacity'];
}

/**
 * One property of a city: its type, place, capacity, name (a chain's branch now and then, kept
 * apart from its family's other branches) and address. The draws from `rng` come in this order,
 * on which a seed's world depends.
 */
function generateProperty(rng: Random, state: CityState, propertyId: number): GeneratedProperty {
  const { city } = state;
  const hotel = rng.chance(HOTEL_SHARE);
  const tail = rng.chance(hotel ? 0.03 : 0.14);
  const type: StayType = hotel ? 'hotel' : rentalTypePicker(city.countryCode, tail)(rng);
  const scaleM = state.scaleM * (hotel ? 0.8 : 1.2);
  let point: { lat: number; lng: number };
  if (state.placed.length > 0 && rng.chance(NEIGHBOUR_RATE)) {
    const neighbour = rng.pick(state.placed);
    point = offsetPoint(neighbour.lat, neighbour.lng, rng.float(15, 80), rng.float(0, 2 * Math.PI));
  } else {
    point = samplePoint(rng, city, scaleM, tail);
  }

  // One object for all of the property's listings (frozen: the world's days replace it whole).
  const capacity = Object.freeze(makeCapacity(rng, type));
  let name: string | null = null;
  let brand: ChainBrand | null = null;
  if (hotel && rng.chance(state.chainRate)) {
    const candidate = rng.pick(brandsIn(city.countryCode));
    for (let i = 0; i < 20 && tooCloseToFamily(state, candidate.family, point); i++) point = samplePoint(rng, city, scaleM, tail);
    if (!tooCloseToFamily(state, candidate.family, point)) {
      name = uniqueName(state, () => nameChainHotel(rng, candidate, city.name, state.lang), 6);
      if (name !== null) brand = candidate;
    }
  }
  if (name === null) {
    const make = hotel
      ? (attempt: number) => nameIndependentHotel(rng, state.lang, attempt)
      : () => nameRental(rng, type as RentalType, state.lang, capacity.bedrooms);
    name = uniqueName(state, make) ?? disambiguate(state, make(1), rng);
  }
  if (brand) {
    const points = state.chainPoints.get(brand.family) ?? [];
    points.push(point);
    state.chainPoints.set(brand.family, points);
  }
  state.placed.push(point);

  const streetNumber = 1 + Math.min(399, Math.floor(rng.exponential(40)));
  const property: WorldProperty = {
    propertyId,
    cityId: city.cityId,
    city: city.name,
    countryCode: city.countryCode,
    type,
    lat: round6(point.lat),
    lng: round6(point.lng),
    name: flatString(name),
    address: flatString(`${streetNumber} ${rng.pick(STREETS[state.lang])}, ${city.name}, ${city.countryCode}`),
    chain: brand ? brand.brand : null,
  };
  return { property, point, brand, capacity };
}

/**
 * A property's listings at the suppliers that sell it: the first as the property is, the others a
 * few metres off, the name and address varied, the rating, reviews and (at supplier_b) stars a little apart.
 */
function listProperty(
  rng: Random,
  { property, point, brand, capacity }: GeneratedProperty,
  listings: Record<SupplierId, SimListing[]>,
  ratings: Map<number, Rating>,
): void {
  const { type, propertyId, name, address, lat, lng } = property;
  const hotel = type === 'hotel';
  const stars = hotel
    ? brand
      ? brand.stars
      : pickHotelStars(rng)
    : STARRED_RENTALS.has(type as RentalType) && rng.chance(0.6)
      ? rng.int(3, 5)
      : null;
  const style: HotelStyle = brand ? (rng.chance(0.6) ? 'business' : 'standard') : pickHotelStyle(rng);
  const rating = guestRating(rng, hotel);
  const reviews = popularity(rng, hotel);

  chooseSuppliers(rng, type).forEach((supplier, i) => {
    const primary = i === 0;
    const at = primary ? point : offsetPoint(point.lat, point.lng, rng.float(...CROSS_LIST_JITTER_M), rng.float(0, 2 * Math.PI));
    // supplier_b classifies some hotels half a star apart from the others.
    const listedStars =
      stars !== null && supplier === 'supplier_b' && rng.chance(0.2) ? clamp(stars + (rng.chance(0.5) ? 0.5 : -0.5), 1, 5) : stars;
    listings[supplier].push({
      propertyId,
      supplier,
      supplierStayId: '',
      name: primary ? name : flatString(varyName(name, property.city, rng)),
      typeLabel: sharedTypeLabel(supplier, type, style),
      type,
      address: primary ? address : flatString(varyAddress(address, propertyId, supplier)),
      lat: primary ? lat : round6(at.lat),
      lng: primary ? lng : round6(at.lng),
      rating: sharedRating(
        ratings,
        primary ? rating : clamp(round1(rating + rng.int(-3, 3) / 10), 1, 10),
        listedStars,
        primary ? reviews : Math.round(reviews * rng.float(0.2, 1.1)),
      ),
      capacity,
      policies: makePolicies(rng, type, supplier),
      media: { thumbnail: '', logoSquare: LOGOS(supplier) },
    });
  });
}

// --- ids -------------------------------------------------------------------------------------------

/** A set of integers in [min, max]: one bit each, where a Set held ~40 bytes per id drawn (10M at 10M listings). */
function idBitmap(min: number, max: number): { has(id: number): boolean; add(id: number): void } {
  const bits = new Uint32Array(Math.ceil((max - min + 1) / 32));
  return {
    has: (id) => (bits[(id - min) >>> 5] & (1 << ((id - min) & 31))) !== 0,
    add: (id) => void (bits[(id - min) >>> 5] |= 1 << ((id - min) & 31)),
  };
}

/** Listings in ascending numeric id, with no object per listing: id and index packed in one exact double, sorted natively. */
function byNumericId(listings: SimListing[]): SimListing[] {
  const INDEX = 2 ** 24; // indexes below 16.7M, ids below 2^28: the packed key stays under 2^53
  if (listings.length > INDEX) throw new RangeError(`a supplier of more than ${INDEX} listings`);
  const keys = new Float64Array(listings.length);
  for (let i = 0; i < listings.length; i++) keys[i] = Number(listings[i].supplierStayId) * INDEX + i;
  keys.sort();
  const sorted = new Array<SimListing>(listings.length);
  for (let i = 0; i < keys.length; i++) sorted[i] = listings[keys[i] % INDEX];
  return sorted;
}

/**
 * Gives every listing its supplier id. supplier_a, supplier_c and supplier_d draw from one numeric
 * range, and c and d sometimes reuse on purpose a bare id another supplier uses for another property,
 * so that bare-id lookups are ambiguous in worlds of any size, as the spec warns they are.
 */
function assignIds(rng: Random, listings: Record<SupplierId, SimListing[]>): void {
  const numericSupplier = (supplier: SupplierId, shareWith: SupplierId[]): void => {
    const used = idBitmap(SIM_ID_MIN, SIM_ID_MAX);
    for (const listing of listings[supplier]) {
      let id = 0;
      if (shareWith.length > 0 && rng.chance(SHARED_BARE_ID_RATE)) {
        const other = listings[rng.pick(shareWith)];
        // A donor's supplier was numbered before this one: its id is set.
        const donor = other.length > 0 ? rng.pick(other) : undefined;
        const candidate = donor ? Number(donor.supplierStayId) : 0;
        if (donor && donor.propertyId !== listing.propertyId && !used.has(candidate)) id = candidate;
      }
      while (id === 0 || used.has(id)) id = rng.int(SIM_ID_MIN, SIM_ID_MAX);
      used.add(id);
      listing.supplierStayId = String(id);
    }
  };
  numericSupplier('supplier_a', []);
  numericSupplier('supplier_c', ['supplier_a']);
  numericSupplier('supplier_d', ['supplier_a', 'supplier_c']);

  const usedB = idBitmap(SIM_B_ID_MIN, SIM_B_ID_MAX);
  for (const listing of listings.supplier_b) {
    let id: number;
    do id = rng.int(SIM_B_ID_MIN, SIM_B_ID_MAX);
    while (usedB.has(id));
    usedB.add(id);
    listing.supplierStayId = String(id);
  }

  for (const supplier of Object.keys(listings) as SupplierId[]) {
    for (const listing of listings[supplier]) listing.media.thumbnail = flatString(THUMBNAILS(supplier, listing.supplierStayId));
    // Feed order: by id, as a supplier's database would page it.
    listings[supplier] = byNumericId(listings[supplier]);
  }
}
