// The simulated world moves on: day after day, listings open (new properties, and existing ones
// newly listed on another supplier), close, and change name, rating, reviews, photos and capacity,
// as real suppliers' content does. Each day's changes are drawn from a PRNG seeded by the world's
// seed and that day's number, so advancing 30 days twice is advancing 60 days once.
import { SUPPLIER_IDS, type RentalType, type SupplierId } from './types.ts';
import { SIM_B_ID_MAX, SIM_B_ID_MIN, SIM_ID_MAX, SIM_ID_MIN, type SimListing, type World, type WorldProperty } from './generate-world.ts';
import { dropDayCaches } from './day-cache.ts';
import { clamp, offsetPoint, round1, round6 } from './geometry.ts';
import { nameIndependentHotel, nameRental } from './name-property.ts';
import { createRandom, hashToUnit, type Random } from './random.ts';
import { typeLabel } from './type-label.ts';
import { varyAddress } from './vary-address.ts';
import { varyName } from './vary-name.ts';
import { languageOf } from './vocabulary.ts';

/**
 * Daily rates, per listing (or per property for openings): a real inventory moves well under 1% a
 * day in openings and closures, and a few percent of listings get new reviews every day.
 */
export const DAILY_RATES = {
  /** Listings closing (the property leaves that supplier). */
  close: 0.0008,
  /** New properties opening, per existing property. */
  open: 0.0006,
  /** Existing properties newly listed on one more supplier, per property. */
  crossList: 0.0003,
  /** Listings whose reviews grow (and rating drifts). */
  reviews: 0.03,
  rename: 0.0004,
  photos: 0.002,
  capacity: 0.0004,
} as const;

/** Most days one advance may move: a year. */
export const MAX_ADVANCE_DAYS = 365;
/** Each list of an advance's answer holds at most this many entries (`count` says how many in all). */
export const ADVANCE_LIST_CAP = 1_000;

export interface ListingRef {
  supplier: SupplierId;
  id: string;
}

export interface AdvanceResult {
  /** The world's day after the advance (0 = as generated). */
  day: number;
  added: ListingRef[];
  removed: ListingRef[];
  changed: ListingRef[];
  counts: { added: number; removed: number; changed: number };
}

/** offsetPoint, at the world's precision of coordinates (6 decimals). */
function offset(lat: number, lng: number, metres: number, bearing: number): { lat: number; lng: number } {
  const at = offsetPoint(lat, lng, metres, bearing);
  return { lat: round6(at.lat), lng: round6(at.lng) };
}

/** A count for a rate over a population: the expectation, its fraction drawn, so small worlds still move. */
function countOf(rng: Random, population: number, rate: number): number {
  const expected = population * rate;
  return Math.floor(expected) + (rng.chance(expected - Math.floor(expected)) ? 1 : 0);
}

const key = (supplier: SupplierId, id: string): string => `${supplier}\n${id}`;
const refOf = (k: string): ListingRef => {
  const [supplier, id] = k.split('\n');
  return { supplier: supplier as SupplierId, id };
};

/** A new supplier id, never one the supplier used before (open or closed): an id names one property for good. */
function newId(rng: Random, supplier: SupplierId, used: Set<string>): string {
  for (;;) {
    const id = String(supplier === 'supplier_b' ? rng.int(SIM_B_ID_MIN, SIM_B_ID_MAX) : rng.int(SIM_ID_MIN, SIM_ID_MAX));
    if (!used.has(id)) {
      used.add(id);
      return id;
    }
  }
}

/** The feed order of a supplier: ascending id. */
function feedKey(listing: SimListing): number {
  return Number(listing.supplierStayId);
}

/**
 * Moves the world `days` days forward, in place: its listings arrays (which the feed routes serve)
 * are edited where they are, closed listings move to `world.closed`, new properties are appended.
 * Returns what changed, per listing, over the whole advance.
 */
export function advanceWorld(world: World, days: number): AdvanceResult {
  if (!Number.isInteger(days) || days < 1 || days > MAX_ADVANCE_DAYS) {
    throw new RangeError(`days must be an integer from 1 to ${MAX_ADVANCE_DAYS}, got ${days}`);
  }
  // Today's lookups are wrong from here on: their memory is the advance's, not held beside it.
  dropDayCaches(world);
  const used = Object.fromEntries(SUPPLIER_IDS.map((s) => [s, new Set<string>()])) as Record<SupplierId, Set<string>>;
  for (const s of SUPPLIER_IDS) {
    for (const l of world.listings[s]) used[s].add(l.supplierStayId);
    for (const l of world.closed[s]) used[s].add(l.supplierStayId);
  }
  const added = new Set<string>();
  const removed = new Set<string>();
  const changed = new Set<string>();
  // Who sells each property today, kept up to date through the days (built once: it is the dear part).
  const sellers = new Map<number, SimListing[]>();
  for (const s of SUPPLIER_IDS)
    for (const l of world.listings[s]) {
      const list = sellers.get(l.propertyId);
      if (list) list.push(l);
      else sellers.set(l.propertyId, [l]);
    }

  for (let d = 0; d < days; d++) {
    world.day++;
    const rng = createRandom(Math.floor(hashToUnit('world-day', world.seed, world.day) * 2 ** 31));
    advanceOneDay({ world, rng, used, sellers, added, removed, changed, opened: perSupplier() });
  }
  // Net effect over the advance: opened then closed is nothing; a change of what opened or closed is no change.
  for (const k of [...added])
    if (removed.has(k)) {
      added.delete(k);
      removed.delete(k);
    }
  for (const k of changed) if (added.has(k) || removed.has(k)) changed.delete(k);
  const list = (set: Set<string>) => [...set].slice(0, ADVANCE_LIST_CAP).map(refOf);
  return {
    day: world.day,
    added: list(added),
    removed: list(removed),
    changed: list(changed),
    counts: { added: added.size, removed: removed.size, changed: changed.size },
  };
}

/** What one day's steps share: the world, the day's PRNG, and the bookkeeping of the whole advance. */
interface Day {
  world: World;
  rng: Random;
  /** Every id each supplier ever used. */
  used: Record<SupplierId, Set<string>>;
  /** Who sells each property today. */
  sellers: Map<number, SimListing[]>;
  added: Set<string>;
  removed: Set<string>;
  changed: Set<string>;
  /**
   * The listings opened today, not yet in their feeds: put in feed order at the day's end, in one
   * merge per feed. Put in one by one, each moved the rest of its feed (2.5M listings at 10M): a
   * month's advance of the 10M world ran 40 minutes without an answer.
   */
  opened: Record<SupplierId, SimListing[]>;
}

const perSupplier = (): Record<SupplierId, SimListing[]> =>
  Object.fromEntries(SUPPLIER_IDS.map((s) => [s, [] as SimListing[]])) as Record<SupplierId, SimListing[]>;

/** Merges the listings opened today into their feeds, in feed order (ids are unique in a feed). */
function fileOpened({ world, opened }: Day): void {
  for (const s of SUPPLIER_IDS) {
    const add = opened[s].sort((a, b) => feedKey(a) - feedKey(b));
    if (add.length === 0) continue;
    const feed = world.listings[s];
    let i = feed.length - 1,
      j = add.length - 1,
      w = feed.length + add.length - 1;
    feed.length = w + 1;
    // From the end, in place: each listing moves once.
    while (j >= 0) feed[w--] = i >= 0 && feedKey(feed[i]) > feedKey(add[j]) ? feed[i--] : add[j--];
  }
}

/**
 * One day: changes and closures on the listings open this morning, then openings and cross-listings
 * among the properties of this morning. The steps draw from the day's PRNG in this order, which
 * makes a day the same whichever advance it is part of.
 */
function advanceOneDay(day: Day): void {
  const open = openListings(day);
  if (open.count === 0) return;
  changeListings(day, open);
  closeListings(day, open);
  const propertyCount = day.world.properties.length;
  openProperties(day, propertyCount);
  crossListProperties(day, propertyCount);
  fileOpened(day);
}

/**
 * The listings open this morning: how many, and one drawn at random, addressed across the four
 * feeds without copying them (flatMap of 200k listings a day was most of an advance).
 */
function openListings({ world, rng }: Day): { count: number; pick(): SimListing } {
  const feeds = SUPPLIER_IDS.map((s) => world.listings[s]);
  const count = feeds.reduce((n, f) => n + f.length, 0);
  return {
    count,
    pick() {
      let i = rng.int(0, count - 1);
      for (const feed of feeds) {
        if (i < feed.length) return feed[i];
        i -= feed.length;
      }
      throw new Error('unreachable');
    },
  };
}

/** Reviews, renames, new photos and capacity changes, on listings open this morning. */
function changeListings({ world, rng, changed }: Day, open: ReturnType<typeof openListings>): void {
  for (let i = countOf(rng, open.count, DAILY_RATES.reviews); i > 0; i--) {
    const l = open.pick();
    const extra = rng.int(1, 5);
    const count = l.rating.count + extra;
    // A new review pulls the mean towards a fresh score by its weight.
    const fresh = clamp(round1(rng.normal(l.rating.value, 1)), 1, 10);
    l.rating = { ...l.rating, value: clamp(round1((l.rating.value * l.rating.count + fresh * extra) / count), 1, 10), count };
    changed.add(key(l.supplier, l.supplierStayId));
  }
  for (let i = countOf(rng, open.count, DAILY_RATES.rename); i > 0; i--) {
    const l = open.pick();
    const property = world.properties[l.propertyId];
    // A rename the content team makes: still the same property, recognisably (entity resolution must keep up).
    l.name = varyName(property.name, property.city, rng);
    changed.add(key(l.supplier, l.supplierStayId));
  }
  for (let i = countOf(rng, open.count, DAILY_RATES.photos); i > 0; i--) {
    const l = open.pick();
    const base = l.media.thumbnail.split('?')[0];
    l.media = { ...l.media, thumbnail: `${base}?v=${world.day}` };
    changed.add(key(l.supplier, l.supplierStayId));
  }
  for (let i = countOf(rng, open.count, DAILY_RATES.capacity); i > 0; i--) {
    const l = open.pick();
    l.capacity = { ...l.capacity, guests: Math.max(1, l.capacity.guests + (rng.chance(0.5) ? 1 : -1)) };
    changed.add(key(l.supplier, l.supplierStayId));
  }
}

/** Closures: drawn among this morning's listings, moved to `world.closed`. */
function closeListings({ world, rng, sellers, removed }: Day, open: ReturnType<typeof openListings>): void {
  const closing = new Set<SimListing>();
  for (let i = countOf(rng, open.count, DAILY_RATES.close); i > 0; i--) closing.add(open.pick());
  for (const s of SUPPLIER_IDS) {
    const listings = world.listings[s];
    let w = 0;
    for (let r = 0; r < listings.length; r++) {
      const l = listings[r];
      if (closing.has(l)) {
        world.closed[s].push(l);
        const list = sellers.get(l.propertyId)!;
        list.splice(list.indexOf(l), 1);
        removed.add(key(s, l.supplierStayId));
      } else listings[w++] = l;
    }
    listings.length = w;
  }
}

/**
 * Openings: new properties, each near an existing one of its city (at least 400 m away, further
 * than any merge distance, so it is a neighbour, not a duplicate), sold by one supplier. Anchors
 * are drawn among the `propertyCount` properties of this morning.
 */
function openProperties(day: Day, propertyCount: number): void {
  const { world, rng } = day;
  for (let i = countOf(rng, propertyCount, DAILY_RATES.open); i > 0; i--) {
    const anchor = world.properties[rng.int(0, propertyCount - 1)];
    const hotel = anchor.type === 'hotel';
    const at = offset(anchor.lat, anchor.lng, rng.float(400, 3_000), rng.float(0, 2 * Math.PI));
    const lang = languageOf(anchor.countryCode);
    const capacity = {
      guests: hotel ? 2 : rng.int(2, 6),
      bedrooms: hotel ? 1 : rng.int(1, 3),
      beds: hotel ? 1 : rng.int(1, 3),
      bathrooms: 1,
    };
    const name = hotel
      ? nameIndependentHotel(rng, lang, rng.int(0, 3))
      : nameRental(rng, anchor.type as RentalType, lang, capacity.bedrooms);
    const property: WorldProperty = {
      propertyId: world.properties.length,
      cityId: anchor.cityId,
      city: anchor.city,
      countryCode: anchor.countryCode,
      type: anchor.type,
      lat: at.lat,
      lng: at.lng,
      name,
      address: `${1 + rng.int(0, 398)} ${anchor.address.split(', ')[0].replace(/^\d+ /, '')}, ${anchor.city}, ${anchor.countryCode}`,
      chain: null,
    };
    world.properties.push(property);
    const supplier: SupplierId = hotel ? rng.pick(['supplier_a', 'supplier_b', 'supplier_c'] as const) : 'supplier_d';
    const rating = {
      value: clamp(round1(rng.normal(hotel ? 8 : 8.6, 0.7)), 1, 10),
      hotelStars: hotel ? rng.int(2, 5) : null,
      count: rng.int(0, 5),
    };
    day.sellers.set(property.propertyId, [addListing(day, property, supplier, at, name, property.address, rating, capacity)]);
  }
}

/** Existing properties (of this morning) newly listed on one more supplier: a variant of the name and address, a few metres off. */
function crossListProperties(day: Day, propertyCount: number): void {
  const { world, rng, sellers } = day;
  for (let i = countOf(rng, propertyCount, DAILY_RATES.crossList); i > 0; i--) {
    const property = world.properties[rng.int(0, propertyCount - 1)];
    const open = sellers.get(property.propertyId);
    if (open === undefined || open.length === 0) continue; // closed everywhere: it does not come back under a new listing
    const candidates = (property.type === 'hotel' ? (['supplier_a', 'supplier_b', 'supplier_c'] as const) : SUPPLIER_IDS).filter(
      (s) => !open.some((l) => l.supplier === s),
    );
    if (candidates.length === 0) continue;
    const supplier = rng.pick(candidates);
    const model = open[0];
    const at = offset(property.lat, property.lng, rng.float(5, 60), rng.float(0, 2 * Math.PI));
    const rating = {
      value: clamp(round1(model.rating.value + rng.int(-3, 3) / 10), 1, 10),
      hotelStars: model.rating.hotelStars,
      count: rng.int(0, 20),
    };
    const name = varyName(property.name, property.city, rng);
    const address = varyAddress(property.address, property.propertyId, supplier);
    const listing = addListing(day, property, supplier, at, name, address, rating, { ...model.capacity });
    // In SUPPLIER_IDS order, the order advanceWorld builds `sellers` in: `open[0]` is then the same
    // model whether the days are advanced in one call or several.
    const index = open.findIndex((l) => SUPPLIER_IDS.indexOf(l.supplier) > SUPPLIER_IDS.indexOf(supplier));
    open.splice(index < 0 ? open.length : index, 0, listing);
  }
}

function addListing(
  { world, rng, used, added, opened }: Day,
  property: WorldProperty,
  supplier: SupplierId,
  at: { lat: number; lng: number },
  name: string,
  address: string,
  rating: SimListing['rating'],
  capacity: SimListing['capacity'],
): SimListing {
  const id = newId(rng, supplier, used[supplier]);
  // Media as this supplier writes them: its logo, and its thumbnail pattern with the new id.
  const model = firstInFeed(world.listings[supplier][0], opened[supplier]) ?? world.closed[supplier][0];
  const media =
    model === undefined
      ? { thumbnail: `https://img.${supplier}.example/${id}.jpg`, logoSquare: `https://img.${supplier}.example/logo.png` }
      : { thumbnail: model.media.thumbnail.split('?')[0].replace(model.supplierStayId, id), logoSquare: model.media.logoSquare };
  const listing: SimListing = {
    propertyId: property.propertyId,
    supplier,
    supplierStayId: id,
    name,
    typeLabel: typeLabel(supplier, property.type, 'standard'),
    type: property.type,
    address,
    lat: at.lat,
    lng: at.lng,
    rating,
    capacity,
    policies: { instantBook: rng.chance(0.8), freeCancellation: rng.chance(0.5) },
    media,
  };
  // Into its feed in feed order (by id), where the supplier's database would page it, at the day's
  // end; the first of today's in feed order is kept in front, for firstInFeed.
  const today = opened[supplier];
  today.push(listing);
  if (today.length > 1 && feedKey(listing) < feedKey(today[0])) [today[0], today[today.length - 1]] = [listing, today[0]];
  added.add(key(supplier, id));
  return listing;
}

/** The first listing of a feed in feed order, today's openings (the first of them in front) counted. */
function firstInFeed(first: SimListing | undefined, opened: readonly SimListing[]): SimListing | undefined {
  const today = opened[0];
  if (today === undefined || (first !== undefined && feedKey(first) < feedKey(today))) return first;
  return today;
}
