// The search core against the rules written plainly (test-support/brute-force-search.ts): a few
// hundred random queries (boxes tiny to whole-world and across the antimeridian, radius, `cell`
// and `hotelids` searches, every static filter, sorts, pages, the four cluster modes and
// `precision`, dated searches with price bounds and a failing supplier) over a world of 3,000
// stays, each answered by the core (index, kd-tree, cell pyramid) and by a scan of the stays.
// The seeds are fixed: the same queries on every run.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { cellToLatLng, latLngToCell } from 'h3-js';
import { ApiError } from '../errors/api-error.ts';
import { answerOf, bruteForceSearch, REFUSED, type Answer, type OracleWorld } from '../test-support/brute-force-search.ts';
import { fakeQuoteService, worldQuote } from '../test-support/fake-quote-service.ts';
import {
  baseQuery,
  NAME_WORDS,
  searchWorld,
  seededRandom,
  supplierStayId,
  WORLD_TYPES,
  type SearchWorld,
  worldStays,
} from '../test-support/search-world.ts';
import { facetFilterOf } from './facet-filter.ts';
import { SUPPLIER_IDS, type HotelIdRef, type SupplierId } from '../types.ts';
import type { SearchQuery } from './search-query.ts';
import { createSearch } from './search.ts';

const N = 3_000;
const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8];
const QUERIES_PER_SEED = 75;
/**
 * The cell pyramid keeps a piece's box and centroid as float32, the box widened by |x| x 2^-23 and
 * rounded outwards (inventory/cell-pyramid.ts): at longitude 180 that is up to 3e-5 degrees (3 m)
 * wider than its stays. A cluster's id, count and stays agree exactly; its coordinates this closely.
 */
const COORDINATE_TOLERANCE = 4e-5;

const nightsOf = (checkin: string, checkout: string) => Math.round((Date.parse(checkout) - Date.parse(checkin)) / 86_400_000);
/** supplier_d times out on every quote; the others answer worldQuote. */
const FAILING: SupplierId = 'supplier_d';

let world: SearchWorld;
let oracle: OracleWorld;
let search: ReturnType<typeof createSearch>;

before(async () => {
  const quotes = new Map(
    SUPPLIER_IDS.map((s) => [
      s,
      s === FAILING
        ? fakeQuoteService(s, () => null, { failure: 'timeout' })
        : fakeQuoteService(s, (id, request) => worldQuote(s, id, nightsOf(request.checkin, request.checkout))),
    ]),
  );
  world = await searchWorld(worldStays(N, 11), { quotes, totalCap: 1_000, pricedCandidates: 40 });
  search = createSearch(world.deps);
  oracle = {
    stays: world.stays,
    totalCap: world.deps.totalCap,
    pricedCandidates: world.deps.pricedCandidates,
    clustering: world.deps.clustering,
    suppliers: new Map(SUPPLIER_IDS.map((s) => [s, s === FAILING ? 'timeout' : (id: string, nights: number) => worldQuote(s, id, nights)])),
  };
});
after(() => world.close());

/** A random query; `rand` decides everything. */
function randomQuery(rand: () => number): SearchQuery {
  const stays = world.stays;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)];
  const chance = (p: number) => rand() < p;
  const someStay = () => stays[Math.floor(rand() * stays.length)];
  const fields: Partial<SearchQuery> = {
    page: chance(0.6) ? 1 : 2 + Math.floor(rand() * 4),
    pageSize: pick([1, 3, 10, 10, 25, 100]),
    currency: pick(['USD', 'USD', 'EUR', 'JPY', 'XXX']),
  };
  if (chance(0.3)) fields.providers = SUPPLIER_IDS.filter(() => chance(0.5)).slice(0, 3);
  if (fields.providers?.length === 0) fields.providers = [pick(SUPPLIER_IDS)];
  if (chance(0.25)) fields.types = WORLD_TYPES.filter(() => chance(0.4));
  if (fields.types?.length === 0) fields.types = ['hotel'];
  if (chance(0.15)) fields.minStars = pick([1, 2.5, 3, 3.5, 4.5, 5]);
  if (chance(0.15)) fields.minGuestRating = pick([0.1, 6, 7.5, 8.25, 8.5, 9.9]);
  if (chance(0.1)) fields.minRatingCount = pick([1, 50, 300, 900]);
  if (chance(0.1)) fields.ratingsOf = pick(SUPPLIER_IDS);
  if (chance(0.25)) {
    const nights = 1 + Math.floor(rand() * 5);
    fields.dates = { checkin: '2027-03-01', checkout: `2027-03-0${1 + nights}`, nights };
    if (chance(0.4)) fields.minPrice = pick([null, 60, 150, 300]);
    if (chance(0.4)) fields.maxPrice = pick([null, 80, 200, 450]);
  }

  const kind = rand();
  if (kind < 0.62) {
    fields.location = { kind: 'box', ...randomBox(rand) };
    fields.cluster = pick(['false', 'auto', 'true', 'top'] as const);
    if (chance(0.3)) oneAttribute(fields, rand);
    if (chance(0.12)) fields.precision = Math.floor(rand() * 14);
    if (chance(0.12)) {
      const box = fields.location;
      const inside = stays.filter((s) => s.lat >= box.south && s.lat <= box.north);
      const stay = inside.length > 0 ? pick(inside) : someStay();
      fields.cell = latLngToCell(stay.lat, stay.lng, 2 + Math.floor(rand() * 11));
    }
  } else if (kind < 0.77) {
    const stay = someStay();
    const radius = pick([200, 2_000, 20_000, 200_000, 3_000_000]);
    fields.location = { kind: 'point', lat: stay.lat + (rand() - 0.5) * 0.02, lng: stay.lng, radius };
    if (chance(0.35)) fields.hotelSearch = chance(0.5) ? [pick(NAME_WORDS)] : [pick(NAME_WORDS), pick(NAME_WORDS)];
    if (fields.hotelSearch !== undefined && fields.types !== undefined) fields.types = ['hotel'];
  } else if (kind < 0.87) {
    fields.hotelIds = Array.from({ length: 1 + Math.floor(rand() * 8) }, () => randomRef(rand));
    if (chance(0.4)) fields.providers = [pick(SUPPLIER_IDS)];
    if (chance(0.1)) fields.cell = latLngToCell(someStay().lat, someStay().lng, 1 + Math.floor(rand() * 3));
  } else {
    const stay = someStay();
    fields.cell = latLngToCell(stay.lat, stay.lng, 1 + Math.floor(rand() * 10));
  }
  return baseQuery(fields);
}

/**
 * Leaves exactly one attribute filtering (a type, suppliers, a guest rating or star
 * class), as the cell pyramid's facet entries answer it (inventory/cell-facets.ts).
 */
function oneAttribute(fields: Partial<SearchQuery>, rand: () => number): void {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)];
  for (const k of ['providers', 'types', 'minStars', 'minGuestRating', 'minRatingCount', 'ratingsOf'] as const) delete fields[k];
  const kind = rand();
  if (kind < 0.3) fields.types = [pick(WORLD_TYPES), ...WORLD_TYPES.filter(() => rand() < 0.2)];
  else if (kind < 0.55) fields.providers = [pick(SUPPLIER_IDS), ...SUPPLIER_IDS.filter(() => rand() < 0.3)].slice(0, 3);
  else if (kind < 0.8) fields.minGuestRating = pick([6, 7, 8, 9, 10, 8.5, 8.25, 0.1]);
  else fields.minStars = pick([1, 2, 3, 4, 5, 3.5, 2.5]);
}

/** Tiny to whole-world boxes, around the world's cities, across the antimeridian (Fiji) and anywhere. */
function randomBox(rand: () => number): { south: number; west: number; north: number; east: number } {
  const where = rand();
  if (where < 0.05) return { south: -90, west: -180, north: 90, east: 180 };
  const stay = world.stays[Math.floor(rand() * world.stays.length)];
  const [lat, lng] =
    where < 0.65 ? [stay.lat, stay.lng] : where < 0.85 ? [-17.75, 179.9 + rand() * 0.2] : [-60 + rand() * 130, -180 + rand() * 360];
  const size = [0.0005, 0.01, 0.2, 1, 8, 40, 150][Math.floor(rand() * 7)] * (0.5 + rand());
  const height = size,
    width = Math.min(360, size * (1 + rand()));
  const south = Math.max(-90, lat - height * rand()),
    north = Math.min(90, south + height);
  if (width >= 360) return { south, west: -180, north, east: 180 };
  let west = lng - width * rand();
  let east = west + width;
  if (west < -180) west += 360;
  if (east > 180) east -= 360;
  return { south, west, north, east };
}

/** A `hotelids` entry: a service id, a bare supplier id (may name several stays), a prefixed one, or one naming nothing. */
function randomRef(rand: () => number): HotelIdRef {
  const idx = Math.floor(rand() * N);
  const stay = world.stays[idx];
  const supplier = SUPPLIER_IDS[Math.floor(rand() * 4)];
  const which = rand();
  if (which < 0.3) return { raw: stay.id, supplier: null, id: stay.id };
  const id = supplierStayId(supplier, idx, N);
  if (which < 0.6) return { raw: id, supplier: null, id };
  if (which < 0.9) return { raw: `${supplier}:${id}`, supplier, id };
  return { raw: `nope-${idx}`, supplier: null, id: `nope-${idx}` };
}

/**
 * After a clustered answer, what a map does next: a cluster's expand link (the same query, flat,
 * restricted to its cell: it must list exactly the cluster's stays) and the same viewport
 * clustered again under a `cell` filter coarser or finer than the clusters (which clusters may
 * then be linked: README, "Clustering", last rule).
 */
function followUps(rand: () => number, query: SearchQuery, answer: Answer): { query: SearchQuery; expands?: number }[] {
  const { id, count } = answer.clusters![Math.floor(rand() * answer.clusters!.length)];
  const r = answer.clustering!.precision;
  const [lat, lng] = cellToLatLng(id);
  const other = Math.max(0, Math.min(15, r + [-2, -1, 1, 2][Math.floor(rand() * 4)]));
  return [
    { query: { ...query, cluster: 'false', page: 1, cell: id }, expands: count },
    { query: { ...query, page: 1, cell: latLngToCell(lat, lng, other) } },
  ];
}

function assertSameAnswer(got: Answer, want: Answer, label: string): void {
  const exact = (a: Answer) => ({ ...a, clusters: a.clusters?.map((c) => `${c.id} x${c.count}`) ?? null });
  assert.deepEqual(exact(got), exact(want), label);
  got.clusters?.forEach((c, i) => {
    const w = want.clusters![i];
    for (const k of ['lat', 'lng', 'south', 'west', 'north', 'east'] as const) {
      assert.ok(Math.abs(c[k] - w[k]) <= COORDINATE_TOLERANCE, `${label}: cluster ${c.id} ${k} ${c[k]}, the stays say ${w[k]}`);
    }
    assert.ok(
      c.south <= w.south && c.west <= w.west && c.north >= w.north && c.east >= w.east,
      `${label}: cluster ${c.id} bounds hold its stays`,
    );
  });
}

describe('the search core agrees with a brute-force scan of the same stays', () => {
  for (const seed of SEEDS) {
    test(`seed ${seed}: ${QUERIES_PER_SEED} random queries`, async (t) => {
      const rand = seededRandom(seed);
      const seen = { clustered: 0, top: 0, dated: 0, refused: 0, nonEmpty: 0, byFacets: 0 };
      const queue: { query: SearchQuery; expands?: number }[] = [];
      for (let q = 0; q < QUERIES_PER_SEED || queue.length > 0; q++) {
        const { query, expands } = queue.shift() ?? { query: randomQuery(rand) };
        const label = `seed ${seed} query ${q}: ${JSON.stringify(query)}`;
        const want = bruteForceSearch(oracle, query);
        if (want === REFUSED) {
          seen.refused++;
          await assert.rejects(search(query), (e) => e instanceof ApiError && /precision/.test(e.message), label);
          continue;
        }
        assertSameAnswer(answerOf(await search(query)), want, label);
        if (expands !== undefined)
          assert.equal(want.total, Math.min(expands, world.deps.totalCap), `${label}: the expand link lists the cluster's stays`);
        if (want.clusters !== null && want.clusters.length > 0 && query.dates === null && query.cell === null)
          queue.push(...followUps(rand, query, want));
        if (want.clusters !== null && want.clusters.length > 0) seen.clustered++;
        if (want.clustering?.mode === 'top') seen.top++;
        if (want.clustering !== null && query.dates === null && facetFilterOf(world.deps.index, query)?.codes) seen.byFacets++;
        if (query.dates !== null) seen.dated++;
        if (want.hits.length > 0) seen.nonEmpty++;
      }
      // The generator must reach every kind of answer, or the agreement says little.
      t.diagnostic(JSON.stringify(seen));
      assert.ok(seen.nonEmpty > QUERIES_PER_SEED / 4, `only ${seen.nonEmpty} queries found stays`);
      assert.ok(seen.clustered > 0 && seen.top > 0 && seen.dated > 0 && seen.byFacets > 0, `answers reached: ${JSON.stringify(seen)}`);
    });
  }
});
