import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { distanceMeters } from './distance.ts';
import { RENTAL_TYPES, SUPPLIER_IDS, type StayType, type SupplierId } from './types.ts';
import { CONTINENTS, continentOf, type Continent } from './continent-of.ts';
import {
  CHAIN_MIN_SPACING_M,
  CROSS_LIST_JITTER_M,
  generateWorld,
  SIM_B_ID_MAX,
  SIM_B_ID_MIN,
  SIM_ID_MAX,
  SIM_ID_MIN,
  type SimListing,
  type World,
} from './generate-world.ts';
import { loadCities } from './load-cities.ts';
import { nameKey } from './name-property.ts';
import { CHAIN_BRANDS } from './vocabulary.ts';

const DEFAULT_STAYS = 160_000; // defaults.simStays; sim/ does not import the gateway's defaults
const ABC: readonly SupplierId[] = ['supplier_a', 'supplier_b', 'supplier_c'];

function allListings(world: World): SimListing[] {
  return SUPPLIER_IDS.flatMap((s) => world.listings[s]);
}

function listingsByProperty(world: World): SimListing[][] {
  const by: SimListing[][] = world.properties.map(() => []);
  for (const listing of allListings(world)) by[listing.propertyId].push(listing);
  return by;
}

/** Cross-listed bare ids: an id string used by two suppliers for two different properties. */
function sharedBareIds(world: World): number {
  const owners = new Map<string, Set<number>>();
  for (const s of ['supplier_a', 'supplier_c', 'supplier_d'] as const) {
    for (const l of world.listings[s]) {
      const set = owners.get(l.supplierStayId) ?? new Set<number>();
      set.add(l.propertyId);
      owners.set(l.supplierStayId, set);
    }
  }
  return [...owners.values()].filter((set) => set.size >= 2).length;
}

describe('generateWorld: the default world (160,000 stays)', () => {
  let world: World;
  let byProperty: SimListing[][];

  // How long it takes is measured by bench/timings.ts (target < 5 s), not asserted here.
  before(() => {
    world = generateWorld({ seed: 42, stays: DEFAULT_STAYS });
    byProperty = listingsByProperty(world);
  });

  it('holds exactly the asked number of properties, propertyId = index', () => {
    assert.equal(world.properties.length, DEFAULT_STAYS);
    assert.ok(world.properties.length >= 150_000, 'world.properties.length >= 150_000');
    world.properties.forEach((p, i) => assert.equal(p.propertyId, i));
  });

  it('spreads over at least 1,000 real cities on every inhabited continent', (t) => {
    const cities = new Set(world.properties.map((p) => p.cityId));
    const perContinent = new Map<Continent, number>();
    for (const p of world.properties) {
      const continent = continentOf(p.countryCode);
      assert.ok(continent, `no continent for ${p.countryCode}`);
      perContinent.set(continent, (perContinent.get(continent) ?? 0) + 1);
    }
    t.diagnostic(`${cities.size} cities; ${JSON.stringify(Object.fromEntries(perContinent))}`);
    assert.ok(cities.size >= 1_000, `${cities.size} cities`);
    for (const continent of Object.keys(CONTINENTS) as Continent[]) {
      assert.ok((perContinent.get(continent) ?? 0) >= 1_000, `${CONTINENTS[continent]}: ${perContinent.get(continent)}`);
    }
  });

  it('puts at least 3,000 stays within 15 km of Paris, London, New York, Barcelona, Rome and Tokyo', (t) => {
    const cities = loadCities();
    for (const [name, cc] of [
      ['Paris', 'FR'],
      ['London', 'GB'],
      ['New York City', 'US'],
      ['Barcelona', 'ES'],
      ['Rome', 'IT'],
      ['Tokyo', 'JP'],
    ]) {
      const city = cities.find((c) => c.name === name && c.countryCode === cc);
      assert.ok(city, `${name} is in the gazetteer`);
      const near = world.properties.filter((p) => distanceMeters(p.lat, p.lng, city.lat, city.lng) <= 15_000).length;
      t.diagnostic(`${name}: ${near} stays within 15 km`);
      assert.ok(near >= 3_000, `${name}: ${near}`);
    }
  });

  it('is dense in city centres and sparse outside', () => {
    const paris = loadCities().find((c) => c.name === 'Paris' && c.countryCode === 'FR');
    assert.ok(paris, 'paris');
    const own = world.properties.filter((p) => p.cityId === paris.cityId);
    const distances = own.map((p) => distanceMeters(p.lat, p.lng, paris.lat, paris.lng));
    const within = (km: number): number => distances.filter((d) => d <= km * 1_000).length;
    // Density per km2 in the first 2 km is far above the density between 10 and 20 km.
    const innerDensity = within(2) / (Math.PI * 4);
    const outerDensity = (within(20) - within(10)) / (Math.PI * (400 - 100));
    assert.ok(innerDensity > 20 * outerDensity, `${innerDensity} vs ${outerDensity}`);
    // ... and there is a sparse tail tens of km out.
    assert.ok(
      distances.some((d) => d > 25_000),
      'distances.some((d) => d > 25_000)',
    );
  });

  it('has hotels (about 55%) and every concrete rental type, apartment/house/villa/condo leading', (t) => {
    const counts = new Map<StayType, number>();
    for (const p of world.properties) counts.set(p.type, (counts.get(p.type) ?? 0) + 1);
    const hotelShare = (counts.get('hotel') ?? 0) / world.properties.length;
    t.diagnostic(`hotel share ${hotelShare.toFixed(3)}`);
    assert.ok(hotelShare > 0.5 && hotelShare < 0.6, `hotel share ${hotelShare}`);
    for (const type of RENTAL_TYPES) assert.ok((counts.get(type) ?? 0) > 0, `no ${type}`);
    const topRentals = [...RENTAL_TYPES].sort((x, y) => (counts.get(y) ?? 0) - (counts.get(x) ?? 0)).slice(0, 4);
    assert.deepEqual(new Set(topRentals), new Set(['apartment', 'house', 'villa', 'condo']));
  });

  it('writes every listing field in its canonical form', () => {
    const canonical = /^\d+ [^,]+(, [^,]+)*, [^,]+, [A-Z]{2}$/;
    const canonicalListed = new Set<number>();
    for (const l of allListings(world)) {
      const p = world.properties[l.propertyId];
      assert.ok(l.name.trim().length > 0, 'l.name.trim().length > 0');
      assert.ok(l.typeLabel.length > 0, 'l.typeLabel.length > 0');
      assert.equal(l.type, p.type);
      assert.match(p.address, canonical);
      // Cross-listings may write the street their own way (vary-address.ts); one listing as it is.
      if (l.address === p.address) canonicalListed.add(p.propertyId);
      assert.ok(l.address.endsWith(`, ${p.city}, ${p.countryCode}`), 'l.address.endsWith(`, ${p.city}, ${p.countryCode}`)');
      const { value, count, hotelStars } = l.rating;
      assert.ok(value >= 1 && value <= 10 && Math.round(value * 10) / 10 === value, `rating ${value}`);
      assert.ok(Number.isInteger(count) && count >= 0, 'Number.isInteger(count) && count >= 0');
      assert.ok(
        hotelStars === null || (hotelStars >= 1 && hotelStars <= 5 && Number.isInteger(hotelStars * 2)),
        'hotelStars === null || (hotelStars >= 1 && hotelStars <= 5 && Number.isInteger(hotelStars * 2))',
      );
      if (hotelStars !== null && !Number.isInteger(hotelStars)) assert.equal(l.supplier, 'supplier_b');
      const { guests, bedrooms, beds, bathrooms } = l.capacity;
      assert.ok(Number.isInteger(guests) && guests >= 1, 'Number.isInteger(guests) && guests >= 1');
      assert.ok(
        bedrooms === null || (Number.isInteger(bedrooms) && bedrooms >= 0),
        'bedrooms === null || (Number.isInteger(bedrooms) && bedrooms >= 0)',
      );
      assert.ok(beds === null || (Number.isInteger(beds) && beds >= 1), 'beds === null || (Number.isInteger(beds) && beds >= 1)');
      assert.ok(bathrooms >= 0.5 && Number.isInteger(bathrooms * 2), 'bathrooms >= 0.5 && Number.isInteger(bathrooms * 2)');
      assert.equal(typeof l.policies.instantBook, 'boolean');
      assert.equal(typeof l.policies.freeCancellation, 'boolean');
      // Paths on the supplier's own server (media.ts); the feed writes them absolute.
      assert.match(l.media.thumbnail, /^\/[a-z]+\/.*\.svg$/);
      assert.ok(l.media.thumbnail.includes(`/${l.supplierStayId}/`), l.media.thumbnail);
      assert.match(l.media.logoSquare, /^\/[a-z]+\/.*logo.*\.svg$/);
    }
    assert.equal(canonicalListed.size, world.properties.length);
  });

  it('gives hotels stars and rentals mostly none, and has the edge values adapters must handle', () => {
    const listings = allListings(world);
    const hotels = listings.filter((l) => l.type === 'hotel');
    const rentals = listings.filter((l) => l.type !== 'hotel');
    assert.ok(
      hotels.filter((l) => l.rating.hotelStars !== null).length / hotels.length > 0.9,
      'hotels.filter((l) => l.rating.hotelStars !== null).length / hotels.length > 0.9',
    );
    assert.ok(
      rentals.filter((l) => l.rating.hotelStars === null).length / rentals.length > 0.8,
      'rentals.filter((l) => l.rating.hotelStars === null).length / rentals.length > 0.8',
    );
    assert.ok(
      hotels.some((l) => l.supplier === 'supplier_b' && !Number.isInteger(l.rating.hotelStars ?? 0)),
      'half stars on supplier_b',
    );
    assert.ok(
      rentals.some((l) => l.rating.count === 0),
      'rentals without reviews',
    );
    assert.ok(
      listings.some((l) => l.capacity.bathrooms === 0.5),
      'listings.some((l) => l.capacity.bathrooms === 0.5)',
    );
    assert.ok(
      listings.some((l) => l.capacity.bathrooms === 1.5),
      'listings.some((l) => l.capacity.bathrooms === 1.5)',
    );
    assert.ok(
      listings.some((l) => l.capacity.bedrooms === null),
      'listings.some((l) => l.capacity.bedrooms === null)',
    );
    assert.ok(
      listings.some((l) => l.capacity.beds === null),
      'listings.some((l) => l.capacity.beds === null)',
    );
    assert.ok(
      listings.some((l) => l.capacity.bedrooms === 0),
      'studios',
    );
    // Display labels vary by supplier.
    const hotelLabels = new Set(hotels.map((l) => l.typeLabel));
    for (const label of ['Hotel', 'Boutique hotel']) assert.ok(hotelLabels.has(label), label);
    const villaLabels = new Set(listings.filter((l) => l.type === 'villa').map((l) => l.typeLabel));
    assert.ok(villaLabels.has('Entire villa'), "villaLabels.has('Entire villa')");
  });

  it("keeps every rating exactly representable in each supplier's wire units", () => {
    for (const l of allListings(world)) {
      const v = l.rating.value;
      // supplier_b / supplier_d: 0-5 scale, value / 2, through JSON and back.
      assert.equal((JSON.parse(JSON.stringify(v / 2)) as number) * 2, v);
      // supplier_c: integer percent.
      const pct = Math.round(v * 10);
      assert.ok(Math.abs(v * 10 - pct) < 1e-9, 'Math.abs(v * 10 - pct) < 1e-9');
      assert.equal(pct / 10, v);
    }
  });

  it('sells rentals mostly on supplier_d and hotels mostly on supplier_a/b/c', () => {
    const d = world.listings.supplier_d;
    const dHotels = d.filter((l) => l.type === 'hotel').length;
    assert.ok(dHotels > 0 && dHotels / d.length < 0.1, `supplier_d hotels ${dHotels}/${d.length}`);
    const dTypes = new Set(d.map((l) => l.type));
    for (const type of RENTAL_TYPES) assert.ok(dTypes.has(type), `supplier_d sells no ${type}`);
    for (const s of ABC) {
      const listings = world.listings[s];
      const hotels = listings.filter((l) => l.type === 'hotel').length;
      assert.ok(hotels / listings.length > 0.85, `${s}: ${hotels}/${listings.length}`);
      const rentalTypes = new Set(listings.filter((l) => l.type !== 'hotel').map((l) => l.type));
      assert.deepEqual(rentalTypes, new Set(['apartment', 'aparthotel', 'residence']));
    }
  });

  it('sells every property at least once and never twice at one supplier', () => {
    byProperty.forEach((listings, propertyId) => {
      assert.ok(listings.length >= 1, `property ${propertyId} is sold nowhere`);
      assert.equal(new Set(listings.map((l) => l.supplier)).size, listings.length);
    });
  });

  it('cross-lists about a third of hotels on supplier_a/b/c, with varied names, jittered coordinates and ratings', (t) => {
    const hotels = world.properties.filter((p) => p.type === 'hotel');
    const crossListed = hotels.filter((p) => byProperty[p.propertyId].filter((l) => ABC.includes(l.supplier)).length >= 2);
    const share = crossListed.length / hotels.length;
    t.diagnostic(`cross-listed hotels: ${(share * 100).toFixed(1)}%`);
    assert.ok(share > 0.28 && share < 0.4, `share ${share}`);
    assert.ok(
      crossListed.some((p) => byProperty[p.propertyId].length === 3),
      'some hotels on three suppliers',
    );

    let ratingsDiffer = 0;
    let countsDiffer = 0;
    for (const listings of byProperty) {
      const p = world.properties[listings[0].propertyId];
      // The first seller writes the canonical name at the property's coordinates; the others vary.
      const canonical = listings.filter((l) => l.name === p.name);
      assert.equal(canonical.length, 1, `one canonical listing of ${p.name}`);
      assert.equal(canonical[0].lat, p.lat);
      assert.equal(canonical[0].lng, p.lng);
      for (const l of listings) {
        if (l === canonical[0]) continue;
        const d = distanceMeters(l.lat, l.lng, p.lat, p.lng);
        assert.ok(d >= CROSS_LIST_JITTER_M[0] - 0.5 && d <= CROSS_LIST_JITTER_M[1] + 0.5, `jitter ${d} m`);
        if (l.rating.value !== canonical[0].rating.value) ratingsDiffer++;
        if (l.rating.count !== canonical[0].rating.count) countsDiffer++;
      }
    }
    assert.ok(ratingsDiffer > 1_000 && countsDiffer > 1_000, 'ratingsDiffer > 1_000 && countsDiffer > 1_000');
  });

  it('varies cross-listed names in the ways content teams do', () => {
    const variants = byProperty
      .filter((ls) => ls.length >= 2)
      .flatMap((ls) =>
        ls
          .filter((l) => l.name !== ls.find((x) => x.name === world.properties[x.propertyId].name)?.name)
          .map((l) => ({ canonical: world.properties[l.propertyId].name, variant: l.name, city: world.properties[l.propertyId].city })),
      );
    const has = (test: (v: { canonical: string; variant: string; city: string }) => boolean, what: string): void =>
      assert.ok(variants.some(test), what);
    has((v) => v.variant === v.canonical.toUpperCase(), 'upper case');
    has((v) => v.variant === v.canonical.toLowerCase(), 'lower case');
    has((v) => /^Hotel /.test(v.canonical) && v.variant.endsWith(' Hotel'), '"Hotel X" -> "X Hotel"');
    has((v) => v.variant.endsWith(v.city) && !v.canonical.endsWith(v.city), 'city appended');
    has(
      (v) =>
        v.canonical !== v.canonical.normalize('NFD').replace(/[\u0300-\u036f]/g, '') &&
        v.variant ===
          v.canonical
            .normalize('NFD')
            .replace(/[\u0300-\u036f]/g, '')
            .normalize('NFC'),
      'accents dropped',
    );
    has((v) => v.canonical.includes(' & ') && v.variant === v.canonical.replace(' & ', ' and '), '"&" -> "and"');
    has((v) => v.variant.split(' ').length === v.canonical.split(' ').length - 1, 'a word dropped');
  });

  it('builds hard cases: same-chain branches in one city far apart, and distinct close neighbours', () => {
    const family = new Map(CHAIN_BRANDS.map((b) => [b.brand, b.family]));
    const branches = new Map<string, { lat: number; lng: number; name: string }[]>();
    for (const p of world.properties) {
      if (p.chain === null) continue;
      const key = `${p.cityId}|${family.get(p.chain)}`;
      const list = branches.get(key) ?? [];
      list.push(p);
      branches.set(key, list);
    }
    let multiBranchCities = 0;
    for (const list of branches.values()) {
      if (list.length >= 2) multiBranchCities++;
      for (let i = 0; i < list.length; i++) {
        for (let j = i + 1; j < list.length; j++) {
          const d = distanceMeters(list[i].lat, list[i].lng, list[j].lat, list[j].lng);
          assert.ok(d >= CHAIN_MIN_SPACING_M - 1, `${list[i].name} / ${list[j].name}: ${d} m`);
        }
      }
    }
    assert.ok(multiBranchCities >= 100, `${multiBranchCities}`);
    const parisIbis = world.properties.filter((p) => p.city === 'Paris' && p.name.startsWith('Ibis Paris '));
    assert.ok(parisIbis.length >= 2, 'near-identical "Ibis Paris ..." names');

    // Distinct properties within 80 m of each other, found through a ~100 m grid.
    const cells = new Map<string, number[]>();
    const cellOf = (lat: number, lng: number): [number, number] => [Math.floor(lat * 1_000), Math.floor(lng * 1_000)];
    for (const p of world.properties) {
      const [a, b] = cellOf(p.lat, p.lng);
      const list = cells.get(`${a},${b}`) ?? [];
      list.push(p.propertyId);
      cells.set(`${a},${b}`, list);
    }
    let closePairs = 0;
    for (const list of cells.values()) {
      for (let i = 0; i < list.length; i++) {
        for (let j = i + 1; j < list.length; j++) {
          const p = world.properties[list[i]];
          const q = world.properties[list[j]];
          if (distanceMeters(p.lat, p.lng, q.lat, q.lng) < 80 && nameKey(p.name) !== nameKey(q.name)) closePairs++;
        }
      }
    }
    assert.ok(closePairs >= 100, `${closePairs} close pairs`);
  });

  it('never gives two properties of one city the same name', () => {
    const seen = new Set<string>();
    for (const p of world.properties) {
      const key = `${p.cityId}|${nameKey(p.name)}`;
      assert.ok(!seen.has(key), `${p.name} twice in ${p.city}`);
      seen.add(key);
    }
  });

  it("uses each supplier's id space, unique per supplier, in ascending feed order", (t) => {
    for (const s of SUPPLIER_IDS) {
      const ids = world.listings[s].map((l) => l.supplierStayId);
      assert.equal(new Set(ids).size, ids.length, `${s} ids are unique`);
      for (const id of ids) {
        assert.match(id, /^[1-9]\d*$/);
        // supplier_b's range is its own: its bare ids never name another supplier's listing.
        const [min, max] = s === 'supplier_b' ? [SIM_B_ID_MIN, SIM_B_ID_MAX] : [SIM_ID_MIN, SIM_ID_MAX];
        assert.ok(Number(id) >= min && Number(id) <= max, `${s} id ${id} in [${min}, ${max}]`);
      }
      const keys = ids.map(Number);
      for (let i = 1; i < keys.length; i++) assert.ok(keys[i - 1] < keys[i], `${s} feed order`);
    }
    const shared = sharedBareIds(world);
    t.diagnostic(`${shared} bare ids name different properties at two suppliers`);
    assert.ok(shared >= 1_000, 'shared >= 1_000');
  });
});

describe('generateWorld: small worlds', () => {
  it('is deterministic for a seed, and differs between seeds', () => {
    const a = generateWorld({ seed: 7, stays: 3_000 });
    const b = generateWorld({ seed: 7, stays: 3_000 });
    const c = generateWorld({ seed: 8, stays: 3_000 });
    assert.deepEqual(a, b);
    assert.notDeepEqual(
      a.properties.map((p) => p.name),
      c.properties.map((p) => p.name),
    );
  });

  it('has bare ids shared by different properties even in a small world', () => {
    const world = generateWorld({ seed: 7, stays: 3_000 });
    assert.equal(world.properties.length, 3_000);
    assert.ok(sharedBareIds(world) >= 1, 'sharedBareIds(world) >= 1');
  });

  it('handles an empty world and rejects a bad size', () => {
    const empty = generateWorld({ seed: 1, stays: 0 });
    assert.equal(empty.properties.length, 0);
    for (const s of SUPPLIER_IDS) assert.equal(empty.listings[s].length, 0);
    assert.throws(() => generateWorld({ seed: 1, stays: -1 }), RangeError);
    assert.throws(() => generateWorld({ seed: 1, stays: 1.5 }), RangeError);
  });
});
