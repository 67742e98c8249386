// Test support: the search core's dependencies over a small world held in memory. The stays go
// through the real pipeline a gateway serves them by (an in-memory SQLite store, the index read
// back from its rows, the cell pyramid, the stay cache), so the unit tests of src/search/ and the
// differential test (brute-force-search.ts) query real indexes; only the geocoder and the quote
// services are fakes, of our own interfaces.
import { latLngToCell } from 'h3-js';
import { clusteringSettings } from '../compose/search.ts';
import { defaults } from '../defaults.ts';
import type { Geocoder } from '../geo/geocoder.ts';
import { buildCellPyramid } from '../inventory/cell-pyramid.ts';
import { createStayCache } from '../inventory/stay-cache.ts';
import { buildStayIndex } from '../inventory/stay-index.ts';
import type { SearchDeps } from '../search/search-deps.ts';
import type { SearchQuery } from '../search/search-query.ts';
import { createWorkSlicer } from '../search/work-slicer.ts';
import { createSqliteStore } from '../store/sqlite-store.ts';
import type { RankedStay, Store } from '../store/store.ts';
import type { QuoteService } from '../suppliers/quote-service.ts';
import { SUPPLIER_IDS, type Listing, type StayType, type SupplierId } from '../types.ts';
import { syntheticPoints } from './synthetic-index.ts';

/** A deterministic generator of numbers in [0, 1) (a linear congruential one: the seed decides everything). */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1_103_515_245 + 12_345) >>> 0) / 2 ** 32;
}

/** Words the world's names are made of, so that `hotelsearch` tokens match some stays and not others. */
export const NAME_WORDS = ['grand', 'plaza', 'royal', 'garden', 'central', 'park', 'river', 'ocean', 'old', 'town'] as const;
/** The types the world uses (hotel most often). */
export const WORLD_TYPES: readonly StayType[] = ['hotel', 'apartment', 'villa', 'hostel', 'resort', 'cabin'];
/** Offsets of each supplier's ids: unique within a supplier, shared across suppliers (a bare id can name several stays). */
const ID_OFFSETS = [0, 17, 331, 977];

/** The supplier's own id of the stay with this idx, in a world of n stays. */
export function supplierStayId(supplier: SupplierId, idx: number, n: number): string {
  return String(10_000 + ((idx + ID_OFFSETS[SUPPLIER_IDS.indexOf(supplier)]) % n));
}

/**
 * n stays around a few cities (and across the antimeridian, and sparse elsewhere), every 40th
 * at the very place of the one before (ties in distance), with varied types, suppliers, stars,
 * ratings (supplier_b's never rated, as Hotelbeds), review counts and names, and a shuffled rank.
 */
export function worldStays(n: number, seed = 1): RankedStay[] {
  const rand = seededRandom(seed * 7_919 + 3);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)];
  const points = syntheticPoints(n, seed);
  for (let i = 40; i < n; i += 40) points[i] = { ...points[i - 1] };
  const ranks = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [ranks[i], ranks[j]] = [ranks[j], ranks[i]];
  }
  return points.map(({ lat, lng }, idx) => {
    const type = rand() < 0.55 ? 'hotel' : pick(WORLD_TYPES.slice(1));
    let suppliers = SUPPLIER_IDS.filter(() => rand() < 0.45);
    if (suppliers.length === 0) suppliers = [pick(SUPPLIER_IDS)];
    const name = `${pick(NAME_WORDS)} ${pick(NAME_WORDS)} ${idx}`;
    const listings: Listing[] = suppliers.map((supplier) => {
      const value = supplier === 'supplier_b' || rand() < 0.1 ? null : Math.round(50 + rand() * 50) / 10;
      return {
        supplier,
        supplierStayId: supplierStayId(supplier, idx, n),
        name,
        typeLabel: type,
        type,
        address: `${idx} Test Street`,
        lat,
        lng,
        rating: {
          value,
          hotelStars: rand() < 0.2 ? null : Math.round(2 + rand() * 8) / 2,
          count: value === null ? 0 : 1 + Math.floor(rand() * 500),
        },
        capacity: { guests: 2, bedrooms: 1, beds: 1, bathrooms: 1 },
        policies: { instantBook: true, freeCancellation: false },
        media: { thumbnail: `https://img.test/${idx}.jpg`, logoSquare: 'https://img.test/logo.png' },
      };
    });
    const rated = listings.filter((l) => l.rating.value !== null);
    const count = rated.reduce((sum, l) => sum + l.rating.count, 0);
    const value = count === 0 ? null : Math.round((rated.reduce((sum, l) => sum + l.rating.value! * l.rating.count, 0) / count) * 10) / 10;
    return {
      idx,
      rank: ranks[idx],
      id: `st${idx.toString(32).padStart(12, '0')}`,
      name,
      type,
      typeLabel: type,
      address: listings[0].address,
      lat,
      lng,
      h3: latLngToCell(lat, lng, 15),
      capacity: listings[0].capacity,
      averageRating: { value, hotelStars: listings.find((l) => l.rating.hotelStars !== null)?.rating.hotelStars ?? null, count },
      listings,
    };
  });
}

export interface SearchWorld {
  /** The stays, by idx: the ground truth the tests compare with. */
  stays: RankedStay[];
  deps: SearchDeps;
  close(): Promise<void>;
}

/** A geocoder of our interface over a fixed table of places; unknown addresses match nothing. */
export function tableGeocoder(places: Record<string, { lat: number; lng: number }>): Geocoder {
  return {
    async geocode(address) {
      const place = places[address];
      return place === undefined ? null : { ...place, label: address };
    },
  };
}

/**
 * The search core's dependencies over these stays (idx 0..n-1, ranks 0..n-1), with the
 * gateway's settings unless `overrides` says otherwise (a small `pricedCandidates` or
 * `totalCap` makes their rules visible on a small world).
 */
export async function searchWorld(
  stays: RankedStay[],
  overrides: Partial<Omit<SearchDeps, 'index' | 'pyramid' | 'stays' | 'store'>> & { quotes?: ReadonlyMap<SupplierId, QuoteService> } = {},
): Promise<SearchWorld> {
  const store: Store = createSqliteStore({ path: ':memory:', settings: defaults });
  await store.publishContent(stays, 'search-world', {});
  const index = await buildStayIndex(store.indexChunks());
  const deps: SearchDeps = {
    index,
    // Facet entries from 8 stays a piece, not 1,024: on a test world a filtered view then adds
    // up entries and scans small pieces both, as the 1M world's views do.
    pyramid: buildCellPyramid(index, { maxResolution: clusteringSettings(defaults).maxResolution, facetMinStays: 8 }),
    stays: createStayCache(store, { capacity: stays.length + 1 }),
    store,
    geocoder: tableGeocoder({}),
    slicer: createWorkSlicer({ sliceMs: defaults.workSliceMs }),
    totalCap: defaults.totalCap,
    quotes: new Map(),
    pricedCandidates: defaults.pricedCandidates,
    quoteBudgetMs: defaults.quoteBudgetMs,
    clustering: clusteringSettings(defaults),
    ...overrides,
  };
  return { stays, deps, close: () => store.close() };
}

/** A static query with every filter off: tests spread what they set over it. */
export function baseQuery(fields: Partial<SearchQuery> = {}): SearchQuery {
  return {
    location: null,
    hotelIds: null,
    providers: null,
    types: null,
    hotelSearch: null,
    minStars: 0,
    minGuestRating: 0,
    minRatingCount: 0,
    page: 1,
    pageSize: 10,
    dates: null,
    occupancy: { adults: 2, children: 0, childrenAges: null, rooms: 1 },
    currency: 'USD',
    minPrice: null,
    maxPrice: null,
    cluster: 'false',
    precision: null,
    cell: null,
    ...fields,
  };
}
