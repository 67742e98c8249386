// Test support: the search rules (src/search/README.md, the spec's search, pagination, pricing and
// clustering rules) written as plainly as possible over an array of stays: every stay tested
// against every filter, sorted, paged, priced and grouped into H3 cells with h3-js. No index, no
// kd-tree, no cell pyramid: the differential test (search/differential.test.ts) holds the search
// core to the same answers.
import { cellToLatLng, getNumCells, latLngToCell } from 'h3-js';
import { distanceMeters } from '../geo/distance.ts';
import { ratePerUsd } from '../search/currency.ts';
import type { ClusteringSettings } from '../search/search-deps.ts';
import type { SearchQuery } from '../search/search-query.ts';
import type { SearchResult } from '../search/search-result.ts';
import type { RankedStay } from '../store/store.ts';
import type { SupplierFailure } from '../suppliers/quote-service.ts';
import type { Quote } from '../suppliers/supplier.ts';
import type { SupplierId } from '../types.ts';

/** What the rules decide of an answer: a SearchResult with stays as their idx and offers as arrays. */
export interface Answer {
  hits: { idx: number; distanceMeters: number | null; cellId?: string; offers: [SupplierId, number | null][] | null }[];
  total: number;
  hasMore: boolean;
  unresolved: string[];
  currency: string;
  cache: 'HIT' | 'MISS';
  failures: string[];
  clusters: { id: string; count: number; lat: number; lng: number; south: number; west: number; north: number; east: number }[] | null;
  clustering: SearchResult['clustering'];
}

/** The core's result in the oracle's shape. */
export function answerOf(result: SearchResult): Answer {
  return {
    hits: result.hits.map((h) => ({
      idx: h.stay.idx,
      distanceMeters: h.distanceMeters,
      ...(h.cellId === undefined ? {} : { cellId: h.cellId }),
      offers: h.offers === null ? null : [...h.offers],
    })),
    total: result.total,
    hasMore: result.hasMore,
    unresolved: result.unresolved,
    currency: result.currency,
    cache: result.cache,
    failures: Object.entries(result.failures).map(([s, f]) => `${s}:${f!.failure}`),
    clusters:
      result.clusters?.map((c) => ({
        id: c.id,
        count: c.count,
        lat: c.lat,
        lng: c.lng,
        south: c.bounds.sw.lat,
        west: c.bounds.sw.lng,
        north: c.bounds.ne.lat,
        east: c.bounds.ne.lng,
      })) ?? null,
    clustering: result.clustering,
  };
}

export interface OracleWorld {
  stays: readonly RankedStay[];
  totalCap: number;
  pricedCandidates: number;
  clustering: ClusteringSettings;
  /** Each configured supplier's answer for one of its ids; a failing supplier's is its failure. */
  suppliers: ReadonlyMap<SupplierId, ((supplierStayId: string, nights: number) => Quote) | SupplierFailure>;
}

/** A precision the viewport cannot be cut at: the core answers 400. */
export const REFUSED = 'precision refused';

type Centre = { lat: number; lng: number };

const byRank = (stays: readonly RankedStay[]) => (a: number, b: number) => stays[a].rank - stays[b].rank;

function inBox(box: { south: number; west: number; north: number; east: number }, lat: number, lng: number): boolean {
  if (lat < box.south || lat > box.north) return false;
  return box.west <= box.east ? lng >= box.west && lng <= box.east : lng >= box.west || lng <= box.east;
}

function boxWidth(box: { west: number; east: number }): number {
  return box.west <= box.east ? box.east - box.west : box.east + 360 - box.west;
}

/** The static filters of the query, stay by stay, from its own fields (not the index's columns). */
function passesFilters(stay: RankedStay, query: SearchQuery): boolean {
  if (query.providers !== null && !stay.listings.some((l) => query.providers!.includes(l.supplier))) return false;
  if (query.types !== null && !query.types.includes(stay.type)) return false;
  const rating = query.ratingsOf === undefined ? stay.averageRating : stay.listings.find((l) => l.supplier === query.ratingsOf)?.rating;
  if (query.minStars > 0 && !(rating?.hotelStars != null && rating.hotelStars >= query.minStars)) return false;
  if (query.minGuestRating > 0 && !(rating?.value != null && rating.value >= query.minGuestRating)) return false;
  if (query.minRatingCount > 0 && stay.averageRating.count < query.minRatingCount) return false;
  if (query.hotelSearch !== null) {
    const name = stay.name.toLowerCase();
    if (stay.type !== 'hotel' || !query.hotelSearch.every((t) => name.includes(t))) return false;
  }
  return true;
}

function inCell(stay: RankedStay, cell: string): boolean {
  return latLngToCell(stay.lat, stay.lng, cellResolution(cell)) === cell;
}

function cellResolution(cell: string): number {
  return parseInt(cell[1], 16);
}

/** The stays a `hotelids` entry names, with a single provider read in its namespace or as a service id. */
function named(stays: readonly RankedStay[], ref: { supplier: SupplierId | null; id: string }, only: SupplierId | null): number[] {
  const out: number[] = [];
  for (const stay of stays) {
    const supplier = ref.supplier ?? only;
    const bySupplier = stay.listings.some((l) => l.supplierStayId === ref.id && (supplier === null || l.supplier === supplier));
    if (bySupplier || (ref.supplier === null && stay.id === ref.id)) out.push(stay.idx);
  }
  return out.sort(byRank(stays));
}

/** The matching stays in the order a flat list shows them, where distances are measured from, and unmatched ids. */
function flatOrder(world: OracleWorld, query: SearchQuery): { list: number[]; centre: Centre | null; unresolved: string[] } {
  const { stays } = world;
  if (query.hotelIds !== null) {
    const only = query.providers?.length === 1 ? query.providers[0] : null;
    const seen = new Set<number>();
    const list: number[] = [];
    const unresolved: string[] = [];
    for (const ref of query.hotelIds) {
      const idxs = named(stays, ref, only);
      if (idxs.length === 0) unresolved.push(ref.raw);
      for (const idx of idxs) {
        if (seen.has(idx) || (query.cell !== null && !inCell(stays[idx], query.cell))) continue;
        seen.add(idx);
        if (passesFilters(stays[idx], query)) list.push(idx);
      }
    }
    return { list, centre: null, unresolved };
  }
  const location = query.location;
  let centre: Centre;
  let where: (stay: RankedStay) => boolean;
  if (location === null) {
    const [lat, lng] = cellToLatLng(query.cell!);
    centre = { lat, lng };
    where = () => true;
  } else if (location.kind === 'box') {
    let lng = location.west + boxWidth(location) / 2;
    if (lng > 180) lng -= 360;
    centre = { lat: (location.south + location.north) / 2, lng };
    where = (s) => inBox(location, s.lat, s.lng);
  } else if (location.kind === 'point') {
    centre = location;
    where = (s) => distanceMeters(centre.lat, centre.lng, s.lat, s.lng) <= location.radius;
  } else throw new Error('the oracle knows no geocoder');
  const list = stays.filter((s) => where(s) && (query.cell === null || inCell(s, query.cell)) && passesFilters(s, query)).map((s) => s.idx);
  const distance = (idx: number) => distanceMeters(centre.lat, centre.lng, stays[idx].lat, stays[idx].lng);
  list.sort(query.hotelSearch === null ? byRank(stays) : (a, b) => distance(a) - distance(b) || stays[a].rank - stays[b].rank);
  return { list, centre, unresolved: [] };
}

type Offers = [SupplierId, number | null][];

/** Prices these stays as the pricing rules say: the survivors with their offers, which suppliers were asked, and failed. */
function priceAll(world: OracleWorld, query: SearchQuery, idxs: readonly number[]) {
  const nights = query.dates!.nights;
  const currency = effectiveCurrency(query.currency);
  const asked = new Set<SupplierId>();
  const survivors: { idx: number; offers: Offers }[] = [];
  for (const idx of idxs) {
    const offers: Offers = [];
    let unknown = false;
    let within = false;
    for (const listing of world.stays[idx].listings) {
      const answer = world.suppliers.get(listing.supplier);
      if (answer === undefined || (query.providers !== null && !query.providers.includes(listing.supplier))) continue;
      asked.add(listing.supplier);
      const quote = typeof answer === 'string' ? null : answer(listing.supplierStayId, nights);
      const rate = quote?.available === true ? ratePerUsd(quote.currency) : undefined;
      if (quote === null || (quote.available && rate === undefined)) {
        offers.push([listing.supplier, null]);
        unknown = true;
        continue;
      }
      if (!quote.available) continue;
      const usd = quote.total / rate!;
      offers.push([listing.supplier, quote.currency === currency ? quote.total : inMinorUnits(usd * ratePerUsd(currency)!, currency)]);
      const perNight = usd / nights;
      if (perNight >= (query.minPrice ?? 0) && perNight <= (query.maxPrice ?? Infinity)) within = true;
    }
    if (offers.length === 0) continue;
    if ((query.minPrice !== null || query.maxPrice !== null) && !within && !unknown) continue;
    survivors.push({ idx, offers });
  }
  const failures = [...asked].filter((s) => typeof world.suppliers.get(s) === 'string').map((s) => `${s}:${world.suppliers.get(s)}`);
  return { survivors, asked: asked.size > 0, failures };
}

function effectiveCurrency(requested: string): string {
  return ratePerUsd(requested) === undefined ? 'USD' : requested;
}

function inMinorUnits(amount: number, currency: string): number {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return Math.round(amount * 10 ** digits) / 10 ** digits;
}

function page<T>(list: readonly T[], query: SearchQuery): T[] {
  const offset = (query.page - 1) * query.pageSize;
  return list.slice(offset, offset + query.pageSize);
}

function answer(
  world: OracleWorld,
  query: SearchQuery,
  parts: {
    hits: Answer['hits'];
    matched: number;
    dated: { asked: boolean; failures: string[] } | null;
    unresolved?: string[];
    clusters?: Answer['clusters'];
    clustering?: Answer['clustering'];
  },
): Answer {
  const { dated } = parts;
  return {
    hits: parts.hits,
    total: dated === null ? Math.min(parts.matched, world.totalCap) : parts.matched,
    hasMore: (query.page - 1) * query.pageSize + query.pageSize < parts.matched,
    unresolved: parts.unresolved ?? [],
    currency: effectiveCurrency(query.currency),
    cache: dated === null || (!dated.asked && dated.failures.length === 0) ? 'HIT' : 'MISS',
    failures: dated?.failures ?? [],
    clusters: parts.clusters ?? null,
    clustering: parts.clustering ?? null,
  };
}

function hit(world: OracleWorld, idx: number, centre: Centre | null, offers: Offers | null, cellId?: string): Answer['hits'][number] {
  const s = world.stays[idx];
  return {
    idx,
    distanceMeters: centre === null ? null : Math.round(distanceMeters(centre.lat, centre.lng, s.lat, s.lng)),
    ...(cellId === undefined ? {} : { cellId }),
    offers,
  };
}

/** A flat list, static or dated. */
function flat(world: OracleWorld, query: SearchQuery): Answer {
  const { list, centre, unresolved } = flatOrder(world, query);
  if (query.dates === null) {
    const hits = page(list, query).map((idx) => hit(world, idx, centre, null));
    return answer(world, query, { hits, matched: list.length, dated: null, unresolved });
  }
  const pricing = priceAll(world, query, list.slice(0, world.pricedCandidates));
  const hits = page(pricing.survivors, query).map((p) => hit(world, p.idx, centre, p.offers));
  return answer(world, query, { hits, matched: pricing.survivors.length, dated: pricing, unresolved });
}

/** The resolution whose average cell puts about targetCells cells in the box, closest on a log scale. */
function resolutionOf(box: { south: number; west: number; north: number; east: number }, target: number, max: number): number {
  const share = shareOfEarth(box);
  if (!(share > 0)) return max;
  let best = 0;
  for (let r = 1; r <= max; r++) {
    if (Math.abs(Math.log((share * getNumCells(r)) / target)) < Math.abs(Math.log((share * getNumCells(best)) / target))) best = r;
  }
  return best;
}

function shareOfEarth(box: { south: number; west: number; north: number; east: number }): number {
  const rad = Math.PI / 180;
  return (boxWidth(box) * rad * (Math.sin(box.north * rad) - Math.sin(box.south * rad))) / (4 * Math.PI);
}

/** Stays grouped by their cell (latLngToCell of their coordinates), each cell's list in the given order. */
function byCell(world: OracleWorld, idxs: readonly number[], r: number): Map<string, number[]> {
  const cells = new Map<string, number[]>();
  for (const idx of idxs) {
    const id = latLngToCell(world.stays[idx].lat, world.stays[idx].lng, r);
    const list = cells.get(id);
    if (list === undefined) cells.set(id, [idx]);
    else list.push(idx);
  }
  return cells;
}

const floor6 = (x: number) => {
  const y = Math.floor(x * 1e6) / 1e6;
  return y > x ? y - 1e-6 : y;
};
const ceil6 = (x: number) => {
  const y = Math.ceil(x * 1e6) / 1e6;
  return y < x ? y + 1e-6 : y;
};
const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** A cluster: the centroid of its stays (longitudes on 0..360 when they span more than 180 degrees) and their box. */
function cluster(world: OracleWorld, id: string, members: readonly number[]): NonNullable<Answer['clusters']>[number] {
  const lats = members.map((i) => world.stays[i].lat);
  const lngs = members.map((i) => world.stays[i].lng);
  const [south, north] = [floor6(Math.min(...lats)), ceil6(Math.max(...lats))];
  const [west, east] = [floor6(Math.min(...lngs)), ceil6(Math.max(...lngs))];
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  let lng = mean(lngs);
  if (Math.max(...lngs) - Math.min(...lngs) > 180) {
    lng = mean(lngs.map((x) => (x < 0 ? x + 360 : x)));
    if (lng > 180) lng -= 360;
  }
  const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
  return {
    id,
    count: members.length,
    lat: clamp(round6(mean(lats)), south, north),
    lng: clamp(round6(lng), west, east),
    south,
    west,
    north,
    east,
  };
}

/**
 * The dense cells whose expand link (the finer of the `cell` filter and the cluster) lists exactly
 * their stays: with a coarser filter cell, those none of whose stays in view (and the other
 * filters) lies outside it; with a finer one, the only cell of the view or none.
 */
function linkable(world: OracleWorld, query: SearchQuery, cells: Map<string, number[]>, dense: string[], r: number): string[] {
  if (query.cell === null || dense.length === 0) return dense;
  const filterRes = cellResolution(query.cell);
  if (filterRes > r) return cells.size === 1 ? dense : [];
  if (filterRes === r) return dense;
  const box = query.location as { south: number; west: number; north: number; east: number };
  return dense.filter(
    (id) =>
      !world.stays.some(
        (s) => inBox(box, s.lat, s.lng) && passesFilters(s, query) && latLngToCell(s.lat, s.lng, r) === id && !inCell(s, query.cell!),
      ),
  );
}

/** The cells of top mode in spread order: a sqrt(pageSize) grid over the box, cells dealt round by round, best first. */
function spread(world: OracleWorld, query: SearchQuery, cells: Map<string, number[]>): { id: string; best: number; members: number[] }[] {
  const box = query.location as { south: number; west: number; north: number; east: number };
  const g = Math.max(1, Math.floor(Math.sqrt(query.pageSize)));
  const width = boxWidth(box);
  const height = box.north - box.south;
  const ranked = [...cells].map(([id, members]) => ({ id, members, best: [...members].sort(byRank(world.stays))[0] }));
  ranked.sort((a, b) => world.stays[a.best].rank - world.stays[b.best].rank);
  const dealt = new Map<number, number>();
  const rounds = ranked.map((c) => {
    const s = world.stays[c.best];
    let dx = s.lng - box.west;
    if (dx < 0) dx += 360;
    const col = width > 0 ? Math.min(g - 1, Math.floor((dx / width) * g)) : 0;
    const row = height > 0 ? Math.min(g - 1, Math.floor(((s.lat - box.south) / height) * g)) : 0;
    const square = row * g + col;
    const round = dealt.get(square) ?? 0;
    dealt.set(square, round + 1);
    return round;
  });
  return ranked
    .map((c, i) => ({ c, round: rounds[i], i }))
    .sort((a, b) => a.round - b.round || a.i - b.i)
    .map((x) => x.c);
}

/** The answer the rules give this query over the world's stays, or REFUSED for a precision too fine for the viewport. */
export function bruteForceSearch(world: OracleWorld, query: SearchQuery): Answer | typeof REFUSED {
  const settings = world.clustering;
  const location = query.location;
  if (location?.kind !== 'box' || query.hotelIds !== null || query.hotelSearch !== null) return flat(world, query);
  const mode = query.precision !== null ? 'top' : query.cluster;
  if (mode === 'false') return flat(world, query);
  const box = location;
  if (mode === 'auto' && distanceMeters(box.south, box.west, box.north, box.east) < settings.autoFlatDiagonalMeters)
    return flat(world, query);
  if (query.precision !== null && shareOfEarth(box) * getNumCells(query.precision) > settings.maxPrecisionCells) return REFUSED;
  const r = query.precision ?? resolutionOf(box, settings.targetCells, mode === 'top' ? settings.topMaxResolution : settings.maxResolution);
  const clustering = { strategy: 'h3' as const, precision: r, mode };
  const { list: inView, centre } = flatOrder(world, query);

  if (mode === 'top') {
    const ordered = spread(world, query, byCell(world, inView, r));
    if (query.dates === null) {
      const hits = page(ordered, query).map((c) => hit(world, c.best, centre, null, c.id));
      return answer(world, query, { hits, matched: ordered.length, dated: null, clustering });
    }
    const priced = ordered.slice(0, world.pricedCandidates);
    const perCell = Math.max(1, Math.floor(world.pricedCandidates / Math.max(1, priced.length)));
    const picks = priced.flatMap((c) => [...c.members].sort(byRank(world.stays)).slice(0, perCell));
    const pricing = priceAll(world, query, picks);
    const represented = priced
      .map((c) => ({
        c,
        p: pricing.survivors.filter((p) => c.members.includes(p.idx)).sort((a, b) => byRank(world.stays)(a.idx, b.idx))[0],
      }))
      .filter((x) => x.p !== undefined);
    const hits = page(represented, query).map(({ c, p }) => hit(world, p.idx, centre, p.offers, c.id));
    return answer(world, query, { hits, matched: represented.length, dated: pricing, clustering });
  }

  const minStays = mode === 'true' ? 2 : settings.autoMinStays;
  const pricing = query.dates === null ? null : priceAll(world, query, inView.slice(0, world.pricedCandidates));
  const grouped = pricing === null ? inView : pricing.survivors.map((p) => p.idx);
  const cells = byCell(world, grouped, r);
  const dense = linkable(
    world,
    query,
    cells,
    [...cells].filter(([, m]) => m.length >= minStays).map(([id]) => id),
    r,
  );
  if (mode === 'auto' && (dense.length === 0 || grouped.length <= query.pageSize)) return flat(world, query);
  const clustered = new Set(dense.flatMap((id) => cells.get(id)!));
  const clusters = dense
    .map((id) => cluster(world, id, cells.get(id)!))
    .sort((a, b) => b.count - a.count || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (pricing === null) {
    const sparse = inView.filter((idx) => !clustered.has(idx));
    const hits = page(sparse, query).map((idx) => hit(world, idx, centre, null));
    return answer(world, query, { hits, matched: sparse.length, dated: null, clusters, clustering });
  }
  const sparse = pricing.survivors.filter((p) => !clustered.has(p.idx));
  const hits = page(sparse, query).map((p) => hit(world, p.idx, centre, p.offers));
  return answer(world, query, { hits, matched: sparse.length, dated: pricing, clusters, clustering });
}
