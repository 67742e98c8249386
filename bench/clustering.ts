// Map clustering on a 1,000,000-stay world: median time of the search core call (no HTTP) for
// cluster=auto and cluster=top over a Western-Europe viewport, beside supercluster's getClusters
// on the same points, viewport and the zoom a 1024 px wide map of it shows. Also the cell
// pyramid's build time and memory.
//
// The world is the simulator's own (generateWorld: stays around real cities, dense in centres),
// ingested the short way: no suppliers, no store; stays ranked by their review-weighted rating
// and numbered in res-15 cell order as ingestion numbers them. Full stays come from an in-memory
// map, as a warm stay cache serves a page that is asked again.
import Supercluster from 'supercluster';
import { latLngToCell } from 'h3-js';
import { defaults } from '../src/defaults.ts';
import type { Geocoder } from '../src/geo/geocoder.ts';
import { buildCellPyramid } from '../src/inventory/cell-pyramid.ts';
import { rankScore } from '../src/inventory/rank-stays.ts';
import type { StayCache } from '../src/inventory/stay-cache.ts';
import { buildStayIndex } from '../src/inventory/stay-index.ts';
import type { SearchQuery } from '../src/search/search-query.ts';
import { createSearch } from '../src/search/search.ts';
import { createWorkSlicer } from '../src/search/work-slicer.ts';
import { clusteringSettings } from '../src/compose/search.ts';
import { generateWorld } from '@staygate/sim';
import type { IndexRow, Store } from '../src/store/store.ts';
import type { Stay } from '../src/types.ts';

const N = Number(process.env.BENCH_STAYS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const VIEW = { north: 55, east: 15, south: 40, west: -10 };
/** The zoom at which a 1024 px wide map shows the viewport's 25 degrees of longitude. */
const ZOOM = Math.floor(Math.log2((1024 * 360) / ((VIEW.east - VIEW.west) * 256)));
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function time(run: () => unknown, runs: number): number[] {
  for (let i = 0; i < 20; i++) run(); // warm-up: JIT
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    run();
    out.push(performance.now() - t0);
  }
  return out;
}

async function timeAsync(run: () => Promise<unknown>, runs: number): Promise<number[]> {
  for (let i = 0; i < 20; i++) await run();
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await run();
    out.push(performance.now() - t0);
  }
  return out;
}

// --- the world, as rows ------------------------------------------------------------------------
let t0 = performance.now();
const rows: IndexRow[] = [];
{
  const world = generateWorld({ seed: defaults.simSeed, stays: N });
  const ratings = new Map<number, { weighted: number; count: number; plain: number; n: number }>();
  for (const list of Object.values(world.listings)) {
    for (const l of list) {
      const r = ratings.get(l.propertyId) ?? { weighted: 0, count: 0, plain: 0, n: 0 };
      r.weighted += l.rating.value * l.rating.count;
      r.count += l.rating.count;
      r.plain += l.rating.value;
      r.n++;
      ratings.set(l.propertyId, r);
    }
  }
  const cells = world.properties.map((p) => latLngToCell(p.lat, p.lng, 15));
  const order = world.properties.map((_, i) => i).sort((a, b) => (cells[a] < cells[b] ? -1 : cells[a] > cells[b] ? 1 : a - b));
  const scores = world.properties.map((p) => {
    const r = ratings.get(p.propertyId)!;
    return rankScore({ value: r.count > 0 ? r.weighted / r.count : r.plain / r.n, hotelStars: null, count: r.count }, defaults);
  });
  const byScore = order.map((_, idx) => idx).sort((a, b) => scores[order[b]] - scores[order[a]] || a - b);
  const rank = new Uint32Array(N);
  byScore.forEach((idx, r) => {
    rank[idx] = r;
  });
  order.forEach((p, idx) => {
    const property = world.properties[p];
    rows.push({
      idx,
      rank: rank[idx],
      lat: property.lat,
      lng: property.lng,
      h3: cells[p],
      type: property.type,
      suppliers: ['supplier_a'],
      stars: null,
      rating: 8,
      reviewCount: 0,
      listingRatings: [{ supplier: 'supplier_a', value: 8, hotelStars: null }],
      searchName: '',
    });
  });
}
gc();
console.log(`world of ${N.toLocaleString('en')} stays generated and ranked in ${Math.round(performance.now() - t0)} ms`);

async function* batches() {
  for (let i = 0; i < rows.length; i += 20_000) yield rows.slice(i, i + 20_000);
}
const index = await buildStayIndex(batches());

gc();
const before = process.memoryUsage();
t0 = performance.now();
const pyramid = buildCellPyramid(index, { maxResolution: defaults.clusterMaxResolution });
const buildMs = performance.now() - t0;
gc();
const after = process.memoryUsage();
console.log(
  `cell pyramid r0-r${pyramid.maxResolution}: built in ${Math.round(buildMs)} ms; ${pyramid.levels.map((l) => l.cellHi.length).join(' / ')} cells per level, in ${pyramid.levels.map((l) => l.size).join(' / ')} pieces`,
);
console.log(
  `cell pyramid memory: ${(pyramid.bytes / N).toFixed(1)} bytes per stay in typed arrays (${(pyramid.bytes / 1e6).toFixed(1)} MB; heap + buffers grew ${((after.heapUsed - before.heapUsed + after.arrayBuffers - before.arrayBuffers) / N).toFixed(1)} bytes per stay)`,
);

// --- the search core ---------------------------------------------------------------------------
const stays = new Map<number, Stay>();
const stayCache: StayCache = {
  async get(idxs) {
    return idxs.map((idx) => {
      let stay = stays.get(idx);
      if (stay === undefined) {
        stay = { idx, id: `st${idx}`, lat: index.lat[idx], lng: index.lng[idx] } as unknown as Stay;
        stays.set(idx, stay);
      }
      return stay;
    });
  },
};
const search = createSearch({
  index,
  pyramid,
  stays: stayCache,
  store: {} as Store,
  geocoder: {} as Geocoder,
  totalCap: defaults.totalCap,
  quotes: new Map(),
  pricedCandidates: defaults.pricedCandidates,
  quoteBudgetMs: defaults.quoteBudgetMs,
  slicer: createWorkSlicer({ sliceMs: defaults.workSliceMs }),
  clustering: clusteringSettings(defaults),
});
const query = (cluster: SearchQuery['cluster'], view = VIEW, types: SearchQuery['types'] = null): SearchQuery => ({
  location: { kind: 'box', ...view },
  hotelIds: null,
  providers: null,
  types,
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
  cluster,
  precision: null,
  cell: null,
});

const inView = index.countInBox(VIEW.south, VIEW.west, VIEW.north, VIEW.east);
const sample = { auto: await search(query('auto')), top: await search(query('top')) };
console.log(`viewport nelat ${VIEW.north} nelng ${VIEW.east} swlat ${VIEW.south} swlng ${VIEW.west}: ${inView.toLocaleString('en')} stays`);
console.log(
  `  auto: r${sample.auto.clustering?.precision}, ${sample.auto.clusters?.length} clusters holding ${sample.auto.clusters?.reduce((s, c) => s + c.count, 0)} stays, ${sample.auto.total} sparse`,
);
console.log(`  top:  r${sample.top.clustering?.precision}, ${sample.top.total} cells`);

const flatMs = median(await timeAsync(() => search(query('false')), RUNS));
const autoMs = median(await timeAsync(() => search(query('auto')), RUNS));
const topMs = median(await timeAsync(() => search(query('top')), RUNS));
// A user panning: the same size of viewport, moved by up to 3 degrees each way (a fixed series).
let seed = 5;
const rand = () => (seed = (seed * 1_103_515_245 + 12_345) >>> 0) / 2 ** 32;
const panned = Array.from({ length: RUNS + 20 }, () => {
  const dy = (rand() - 0.5) * 6,
    dx = (rand() - 0.5) * 6;
  return { north: VIEW.north + dy, south: VIEW.south + dy, east: VIEW.east + dx, west: VIEW.west + dx };
});
let pan = 0;
const autoPanMs = median(await timeAsync(() => search(query('auto', panned[pan++ % panned.length])), RUNS));
pan = 0;
const topPanMs = median(await timeAsync(() => search(query('top', panned[pan++ % panned.length])), RUNS));
// Filtered: the pyramid's figures no longer hold; its runs of stays in view are scanned through the filter.
const hotelsMs = median(await timeAsync(() => search(query('auto', VIEW, ['hotel'])), 30));

// --- supercluster on the same points -----------------------------------------------------------
const points = Array.from({ length: N }, (_, i) => ({
  type: 'Feature' as const,
  properties: null,
  geometry: { type: 'Point' as const, coordinates: [index.lng[i], index.lat[i]] as [number, number] },
}));
rows.length = 0;
gc();
t0 = performance.now();
const supercluster = new Supercluster({ maxZoom: 16 }).load(points);
const loadMs = performance.now() - t0;
const bbox: [number, number, number, number] = [VIEW.west, VIEW.south, VIEW.east, VIEW.north];
const features = supercluster.getClusters(bbox, ZOOM);
console.log(`supercluster: load ${Math.round(loadMs)} ms; getClusters at zoom ${ZOOM}: ${features.length} features`);
const superMs = median(time(() => supercluster.getClusters(bbox, ZOOM), RUNS));
pan = 0;
const superPanMs = median(
  time(() => {
    const v = panned[pan++ % panned.length];
    return supercluster.getClusters([v.west, v.south, v.east, v.north], ZOOM);
  }, RUNS),
);

console.log(`\nmedian of ${RUNS} runs (search core call, no HTTP):`);
console.log(`  flat list (reference)          ${flatMs.toFixed(2)} ms`);
console.log(`  cluster=auto                   ${autoMs.toFixed(2)} ms (target < 5 ms)`);
console.log(`  cluster=top                    ${topMs.toFixed(2)} ms (target < 10 ms)`);
console.log(`  supercluster getClusters       ${superMs.toFixed(2)} ms`);
console.log(
  `  panning (viewport moved up to 3 degrees each run): auto ${autoPanMs.toFixed(2)} ms, top ${topPanMs.toFixed(2)} ms, supercluster ${superPanMs.toFixed(2)} ms`,
);
console.log(`  cluster=auto&type=hotel (filtered: every stay in view scanned; 30 runs) ${hotelsMs.toFixed(2)} ms`);
console.log(
  `ratio cluster=auto / supercluster: ${(autoMs / superMs).toFixed(2)}; cluster=top / supercluster: ${(topMs / superMs).toFixed(2)}`,
);
console.log(
  '(supercluster precomputes every zoom level at load; it neither filters, ranks nor pages, and its clusters are zoom-grid merges, not exact viewport counts)',
);
