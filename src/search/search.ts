import { defaults } from '../defaults.ts';
import { ApiError } from '../errors/api-error.ts';
import type { Geocoder } from '../geo/geocoder.ts';
import { GeocoderError } from '../geo/geocoder-error.ts';
import { boxAroundPoint, boxContainsPoint, boxDiagonalMeters, type BoundingBox } from '../geo/bounding-box.ts';
import { distanceMeters } from '../geo/distance.ts';
import { cellCentre, cellHalves, cellString, resolutionOf } from '../geo/h3-cell.ts';
import { buildCellPyramid, type CellPyramid } from '../inventory/cell-pyramid.ts';
import { cellStays } from '../inventory/cell-stays.ts';
import type { StayCache } from '../inventory/stay-cache.ts';
import { supplierMask, type StayIndex } from '../inventory/stay-index.ts';
import type { Store } from '../store/store.ts';
import { STAY_TYPES, SUPPLIER_IDS, type HotelIdRef, type Stay, type SupplierId } from '../types.ts';
import type { SearchQuery, StayDates } from './search-query.ts';
import { chooseResolution, expectedCells } from './choose-resolution.ts';
import { byCountThenId, clusterHit, groupCells, pyramidCells, pyramidCellsSliced, spreadOrder, type CellGroups, type ViewCell } from './cluster-viewport.ts';
import { createWorkSlicer, type WorkSlicer } from './work-slicer.ts';
import { boxCandidates, keepMatching, pageByDistance, pageByRank } from './large-steps.ts';
import { effectiveCurrency } from './currency.ts';
import { cacheStatus, priceStays, type Offers, type PricedStay, type PricingOutcome } from './price-stays.ts';
import type { QuoteService } from '../suppliers/quote-service.ts';
import { selectByRank } from './select-by-rank.ts';
import type { Clustering, Search, SearchHit, SearchResult } from './search-result.ts';
import { staticFilter } from './static-filter.ts';

export interface SearchDeps {
  index: StayIndex;
  stays: StayCache;
  /** The content version this search serves (its id lookups); never another one. */
  store: Pick<Store, 'resolveHotelIds'>;
  geocoder: Geocoder;
  /** Where `meta.total` saturates. */
  totalCap: number;
  /** Live prices: one quote service per configured supplier. */
  quotes: ReadonlyMap<SupplierId, QuoteService>;
  /** Dated searches price at most this many best-ranked candidates (docs/decisions.md 11). */
  pricedCandidates: number;
  /** Overall deadline for the suppliers' quotes of one search. */
  quoteBudgetMs: number;
  /** Cells per resolution for clustering; built from `index` when not given (inventory/cell-pyramid.ts). */
  pyramid?: CellPyramid;
  /** Where CPU-heavy clustering takes turns with everything else (default: defaults.workSliceMs slices). */
  slicer?: WorkSlicer;
}


interface Centre {
  lat: number;
  lng: number;
}

/** One page of stays, before their details are fetched. */
interface Page {
  pageIdx: number[];
  /** Stays matching before paging (not capped). */
  matched: number;
  unresolved: string[];
  /** Where distances are measured from; null for ID lookups. */
  centre: Centre | null;
}

const ALL_SUPPLIERS = supplierMask(SUPPLIER_IDS);

type ClusteringMode = Clustering['mode'];

/** The one search pipeline behind every API version. */
export function createSearch(deps: SearchDeps): Search {
  const { index } = deps;
  // Built with the index at boot (createSearch runs there): ~36 bytes per stay and ~5 s on 1M stays, see cell-pyramid.ts.
  const pyramid = deps.pyramid ?? buildCellPyramid(index, { maxResolution: defaults.clusterMaxResolution });
  const slicer = deps.slicer ?? createWorkSlicer({ sliceMs: defaults.workSliceMs });

  /** A geocoder outage is the upstream's failure (502/504), not the caller's (400) nor ours (500). */
  async function geocode(address: string) {
    try {
      return await deps.geocoder.geocode(address);
    } catch (error) {
      if (!(error instanceof GeocoderError)) throw error;
      const code = error.failure === 'timeout' ? 'UPSTREAM_TIMEOUT' : 'BAD_GATEWAY';
      throw new ApiError(code, `The geocoder failed (${error.failure}) while resolving address`, { details: { params: { address: error.message } } });
    }
  }

  /** The `cell` filter's cell as id halves, with its resolution; null without one. */
  function filterCell(query: SearchQuery): { hi: number; lo: number; res: number } | null {
    if (query.cell === null) return null;
    const halves = cellHalves(query.cell);
    if (halves === null) throw new Error(`cell "${query.cell}" is not an H3 cell id`); // http/ validates it
    return { ...halves, res: resolutionOf(halves.hi) };
  }

  /** idx of the stays whose coordinates lie in the `cell` filter's cell (inventory/cell-stays.ts), inside the box when one is given. */
  function cellCandidates(cell: { hi: number; lo: number }, box: BoundingBox | null): number[] {
    const stays = cellStays(index, pyramid, cell.hi, cell.lo);
    return box === null ? stays : stays.filter((idx) => boxContainsPoint(box, index.lat[idx], index.lng[idx]));
  }

  /**
   * Candidates of a location, with the centre distances are measured from. With a `cell` filter
   * they are the cell's stays (from the cell pyramid); a cell alone is a location of its own,
   * measured from its centre.
   */
  async function locate(query: SearchQuery): Promise<{ candidates: number[]; centre: Centre; radius: number | null }> {
    const location = query.location;
    const cell = filterCell(query);
    if (location === null) {
      if (cell === null) throw new Error('a search needs a location, hotelids or a cell'); // http/ answers LOCATION_REQUIRED
      return { candidates: cellCandidates(cell, null), centre: cellCentre(query.cell!), radius: null };
    }
    if (location.kind === 'box') {
      const candidates = cell === null ? await boxCandidates(index, location, slicer) : cellCandidates(cell, location);
      return { candidates, centre: boxCentre(location), radius: null };
    }
    let centre: Centre;
    if (location.kind === 'point') centre = location;
    else {
      const place = await geocode(location.address);
      if (place === null) {
        throw ApiError.fromViolations([
          { param: 'address', code: 'VALIDATION_ERROR', message: `address "${location.address}" could not be resolved to a place` },
        ]);
      }
      centre = place;
    }
    const box = boxAroundPoint(centre.lat, centre.lng, location.radius);
    const candidates = cell === null ? await boxCandidates(index, box, slicer) : cellCandidates(cell, box);
    return { candidates, centre, radius: location.radius };
  }

  /** Stays named by `hotelids`, in the order asked, with the entries that matched nothing. */
  async function lookup(query: SearchQuery): Promise<{ candidates: number[]; unresolved: string[] }> {
    const refs = query.hotelIds!;
    const matches = await resolveHotelIds(refs, query.providers?.length === 1 ? query.providers[0] : null);
    const seen = new Set<number>();
    const candidates: number[] = [];
    const unresolved: string[] = [];
    const cell = filterCell(query);
    const own = new Uint32Array(2);
    const inCell = (idx: number) => {
      if (cell === null) return true;
      pyramid.cellOf(idx, cell.res, own);
      return own[0] === cell.hi && own[1] === cell.lo;
    };
    matches.forEach((idxs, i) => {
      if (idxs.length === 0) unresolved.push(refs[i].raw);
      // A bare id may name several stays: best-ranked first, so the order is stable.
      for (const idx of [...idxs].sort((a, b) => index.rank[a] - index.rank[b])) {
        if (!seen.has(idx) && inCell(idx)) {
          seen.add(idx);
          candidates.push(idx);
        }
      }
    });
    // An entry whose stays all lie outside the cell did match: it is filtered out, not unresolved.
    return { candidates, unresolved };
  }

  /**
   * The stays each entry names. With a single provider, a bare entry is read in that supplier's
   * namespace, or as a service id: a service id names its stay whatever `provider` says (the
   * provider then only restricts which suppliers are shown).
   */
  async function resolveHotelIds(refs: readonly HotelIdRef[], only: SupplierId | null): Promise<number[][]> {
    if (only === null) return deps.store.resolveHotelIds(refs);
    const bare = refs.map((ref, i) => (ref.supplier === null ? i : -1)).filter((i) => i >= 0);
    const [scoped, anyNamespace] = await Promise.all([
      deps.store.resolveHotelIds(refs.map((ref) => (ref.supplier === null ? { ...ref, supplier: only } : ref))),
      deps.store.resolveHotelIds(bare.map((i) => refs[i])),
    ]);
    // Of what a bare entry matches in any namespace, only the stay whose service id it is counts.
    const byService = await Promise.all(bare.map(async (i, j) => (await deps.stays.get(anyNamespace[j])).filter((s) => s.id === refs[i].id)));
    bare.forEach((i, j) => {
      for (const stay of byService[j]) if (!scoped[i].includes(stay.idx)) scoped[i].push(stay.idx);
    });
    return scoped;
  }

  /**
   * A box with no attribute filter, the common map-viewport case, needs no candidate list: the
   * count comes from the kd-tree's subtrees and the page from walking the global ranking when the
   * box is busy enough for that to be the cheaper way (expected checks k * n / count < count).
   */
  function unfilteredBox(query: SearchQuery, offset: number): Page | null {
    const location = query.location;
    if (location?.kind !== 'box' || !isUnfiltered(query)) return null;
    const { south, west, north, east } = location;
    const matched = index.countInBox(south, west, north, east);
    const k = offset + query.pageSize;
    const pageIdx = matched * matched > k * index.size
      ? index.bestInBox(south, west, north, east, offset, query.pageSize)
      : selectByRank(index.inBox(south, west, north, east), index.rank, index.byRank, offset, query.pageSize);
    return { pageIdx, matched, unresolved: [], centre: boxCentre(location) };
  }

  /** No filter beyond the location: every stay inside it matches. */
  function isUnfiltered(query: SearchQuery): boolean {
    if (query.hotelIds !== null || query.hotelSearch !== null || query.cell !== null) return false;
    if (query.providers !== null && supplierMask(query.providers) !== ALL_SUPPLIERS) return false;
    if (query.types !== null && query.types.length < STAY_TYPES.length) return false;
    return query.minStars === 0 && query.minGuestRating === 0 && query.minRatingCount === 0;
  }

  /** Every other search: list the candidates, filter them, then order and page. */
  async function filtered(query: SearchQuery, offset: number): Promise<Page> {
    let candidates: number[];
    let unresolved: string[] = [];
    let centre: Centre | null = null;
    let radius: number | null = null;
    if (query.hotelIds !== null) ({ candidates, unresolved } = await lookup(query));
    else ({ candidates, centre, radius } = await locate(query));

    const matched = await keepMatching(candidates, staticFilter(index, query, centre, radius), slicer);
    let pageIdx: number[];
    if (query.hotelIds !== null) {
      pageIdx = matched.slice(offset, offset + query.pageSize);
    } else if (query.hotelSearch !== null) {
      pageIdx = await pageByDistance(index, matched, centre!, offset, query.pageSize, slicer);
    } else {
      pageIdx = await pageByRank(index, matched, offset, query.pageSize, slicer);
    }
    return { pageIdx, matched: matched.length, unresolved, centre };
  }

  function hitsOf(
    stays: readonly Stay[],
    centre: Centre | null,
    offers: (stay: Stay, i: number) => Offers | null,
    cellOf?: (stay: Stay) => string,
  ): SearchHit[] {
    return stays.map((stay, i) => {
      const hit: SearchHit = {
        stay,
        distanceMeters: centre === null ? null : Math.round(distanceMeters(centre.lat, centre.lng, stay.lat, stay.lng)),
        offers: offers(stay, i),
      };
      if (cellOf !== undefined) hit.cellId = cellOf(stay);
      return hit;
    });
  }

  /** Live prices for the stays with these idx, in that order. */
  async function price(query: SearchQuery, dates: StayDates, idxs: readonly number[]): Promise<PricingOutcome> {
    const currency = effectiveCurrency(query.currency);
    return priceStays(await deps.stays.get(idxs), query, dates, { services: deps.quotes, budgetMs: deps.quoteBudgetMs, currency });
  }

  /** A page of priced stays as a dated result: `total` counts them all. */
  function pricedResult(
    query: SearchQuery,
    priced: readonly PricedStay[],
    pricing: PricingOutcome,
    centre: Centre | null,
    unresolved: string[],
    offset: number,
    extra: Pick<SearchResult, 'clusters' | 'clustering'> = { clusters: null, clustering: null },
  ): SearchResult {
    const page = priced.slice(offset, offset + query.pageSize);
    return {
      hits: hitsOf(page.map((p) => p.stay), centre, (_stay, i) => page[i].offers),
      total: priced.length,
      hasMore: offset + query.pageSize < priced.length,
      unresolved,
      currency: effectiveCurrency(query.currency),
      cache: cacheStatus(pricing),
      failures: pricing.failures,
      ...extra,
    };
  }

  /**
   * A dated search prices the best-ranked candidates (at most `pricedCandidates`), keeps those
   * that survive availability and the price filter, and pages over the survivors: `total` counts
   * survivors, so it agrees with `hasMore` and `_links.next`.
   */
  async function dated(query: SearchQuery, dates: StayDates, offset: number): Promise<SearchResult> {
    const { pageIdx, unresolved, centre } = await pricedCandidates(query);
    const pricing = await price(query, dates, pageIdx);
    return pricedResult(query, pricing.priced, pricing, centre, unresolved, offset);
  }

  /** The best-ranked candidates a dated search prices (docs/decisions.md 11). */
  async function pricedCandidates(query: SearchQuery): Promise<Page> {
    const top = { ...query, page: 1, pageSize: deps.pricedCandidates };
    return unfilteredBox(top, 0) ?? (await filtered(top, 0));
  }

  // --- clustering (spec: Clustering rules) -------------------------------------------------------

  /**
   * How a query is clustered, or null for a flat list. Only a bounding box is a viewport: ID
   * lookups, centre-plus-radius and address searches, and a `cell` alone are always flat.
   * `precision` forces top mode, whatever `cluster` says.
   */
  function clusterModeOf(query: SearchQuery): ClusteringMode | null {
    if (query.location?.kind !== 'box' || query.hotelIds !== null || query.hotelSearch !== null) return null;
    if (query.precision !== null) return 'top';
    return query.cluster === 'false' ? null : query.cluster;
  }

  /**
   * The view's stays by cell: from the pyramid's figures when nothing filters them, through the
   * pyramid's runs of stays when attribute filters do, from the cell's own run with a `cell` filter.
   */
  async function viewGroups(query: SearchQuery, view: BoundingBox, resolution: number): Promise<CellGroups> {
    if (query.cell === null) {
      const keep = isUnfiltered(query) ? null : staticFilter(index, query, null, null);
      if (keep === null && resolution <= pyramid.maxResolution) return pyramidCells(index, pyramid, view, resolution);
      // Through a filter, or finer than the pyramid, the walk costs a step per stay in view: in
      // slices, taking turns with other heavy searches.
      return slicer.run((pause) => pyramidCellsSliced(index, pyramid, view, resolution, keep, pause));
    }
    const { candidates, centre, radius } = await locate(query);
    return groupCells(index, pyramid, candidates.filter(staticFilter(index, query, centre, radius)), resolution);
  }

  /** A 400 for a precision that would cut the view into more cells than any map shows (defaults.maxPrecisionCells). */
  function checkPrecision(view: BoundingBox, precision: number): void {
    const cells = (r: number) => expectedCells(view, r);
    if (cells(precision) <= defaults.maxPrecisionCells) return;
    let finest = precision;
    while (finest > 0 && cells(finest) > defaults.maxPrecisionCells) finest--;
    const asked = Number(cells(precision).toPrecision(2)).toLocaleString('en');
    throw ApiError.fromViolations([{
      param: 'precision', code: 'VALIDATION_ERROR',
      message: `precision ${precision} cuts this viewport into about ${asked} H3 cells; a map shows at most ` +
        `${defaults.maxPrecisionCells.toLocaleString('en')}: use precision ${finest} or less here, or a smaller viewport`,
    }]);
  }

  /** A clustered answer, or null when `cluster=auto` finds a flat list more useful. */
  async function clustered(query: SearchQuery, mode: ClusteringMode, offset: number): Promise<SearchResult | null> {
    const { south, west, north, east } = query.location as BoundingBox;
    const view: BoundingBox = { south, west, north, east };
    if (mode === 'auto' && boxDiagonalMeters(view) < defaults.autoFlatDiagonalMeters) return null;
    const maxResolution = mode === 'top' ? defaults.topMaxResolution : defaults.clusterMaxResolution;
    if (query.precision !== null) checkPrecision(view, query.precision);
    const resolution = query.precision ?? chooseResolution(view, { targetCells: defaults.clusterTargetCells, maxResolution });
    const clustering: Clustering = { strategy: 'h3', precision: resolution, mode };
    const centre = boxCentre(view);
    if (mode === 'top') return top(query, view, resolution, clustering, centre, offset);
    return hexClusters(query, view, resolution, clustering, centre, offset);
  }

  /**
   * `auto` and `true`: cells with enough stays become clusters, the stays of the other cells are
   * the (ranked, paged) results; `total` counts only those. Static searches cluster every stay of
   * the view; dated ones the priced survivors. `auto` stays flat when every stay fits on the page
   * or no cell is dense enough.
   */
  async function hexClusters(
    query: SearchQuery, view: BoundingBox, resolution: number, clustering: Clustering, centre: Centre, offset: number,
  ): Promise<SearchResult | null> {
    const minStays = clustering.mode === 'true' ? 2 : defaults.autoClusterMinStays;
    const auto = clustering.mode === 'auto';
    if (query.dates !== null) {
      const { pageIdx, unresolved } = await pricedCandidates(query);
      const pricing = await price(query, query.dates, pageIdx);
      const groups = groupCells(index, pyramid, pricing.priced.map((p) => p.stay.idx), resolution);
      const dense = linkable(query, view, groups, groups.cells.filter((c) => c.count >= minStays));
      // Flat from the same prices: asking the suppliers twice would cost a second round trip.
      if (auto && (dense.length === 0 || groups.total <= query.pageSize)) {
        return pricedResult(query, pricing.priced, pricing, centre, unresolved, offset);
      }
      const clusteredIdx = new Set<number>();
      for (const cell of dense) for (const idx of groups.members(cell)) clusteredIdx.add(idx);
      const sparse = pricing.priced.filter((p) => !clusteredIdx.has(p.stay.idx));
      const clusters = dense.sort(byCountThenId).map(clusterHit);
      return pricedResult(query, sparse, pricing, centre, unresolved, offset, { clusters, clustering });
    }

    const groups = await viewGroups(query, view, resolution);
    const dense = linkable(query, view, groups, groups.cells.filter((c) => c.count >= minStays));
    if (auto && (dense.length === 0 || groups.total <= query.pageSize)) return null;
    const isDense = new Set(dense);
    const sparse: number[] = [];
    for (const cell of groups.cells) {
      if (!isDense.has(cell)) for (const idx of groups.members(cell)) sparse.push(idx);
    }
    const pageIdx = selectByRank(sparse, index.rank, index.byRank, offset, query.pageSize);
    return {
      hits: hitsOf(await deps.stays.get(pageIdx), centre, () => null),
      total: Math.min(sparse.length, deps.totalCap),
      hasMore: offset + query.pageSize < sparse.length,
      unresolved: [],
      currency: effectiveCurrency(query.currency),
      cache: 'HIT',
      failures: {},
      clusters: dense.sort(byCountThenId).map(clusterHit),
      clustering,
    };
  }

  /**
   * The dense cells whose expand link lists exactly their stays; the others' stays stay sparse.
   * The link names one cell, the finer of the `cell` filter's and the cluster's (http/links.ts),
   * and H3 cells do not nest: a filter cell finer than the clusters can straddle two of them, and
   * a cluster finer than the filter cell can straddle its edge. So with a `cell` filter, a finer
   * filter cell is one cluster or none, and a finer cluster is one only when none of its stays in
   * the view (and the other filters) lies outside the filter cell. Without one, every dense cell.
   */
  function linkable(query: SearchQuery, view: BoundingBox, groups: CellGroups, dense: ViewCell[]): ViewCell[] {
    const filter = filterCell(query);
    if (filter === null || dense.length === 0) return dense;
    if (filter.res <= groups.resolution) {
      if (filter.res < groups.resolution) return dense.filter((c) => !straddles(query, view, c, filter));
      return dense; // the filter cell itself
    }
    return groups.cells.length === 1 ? dense : [];
  }

  /** Whether a cell holds a stay in the view and the other filters outside the filter cell. */
  function straddles(query: SearchQuery, view: BoundingBox, cell: ViewCell, filter: { hi: number; lo: number; res: number }): boolean {
    const keep = staticFilter(index, query, null, null);
    const own = new Uint32Array(2);
    for (const idx of cellStays(index, pyramid, cell.hi, cell.lo)) {
      if (!boxContainsPoint(view, index.lat[idx], index.lng[idx]) || !keep(idx)) continue;
      pyramid.cellOf(idx, filter.res, own);
      if (own[0] !== filter.hi || own[1] !== filter.lo) return true;
    }
    return false;
  }

  /**
   * `top`: one representative per cell, the best-ranked stay, paged over cells in spread order
   * (cluster-viewport.ts). Dated: the cells first in that order share the priced-candidate budget
   * (each its best few stays, at least one), the best survivor represents its cell, and a cell
   * with no survivor drops out; `total` counts the cells represented.
   */
  async function top(
    query: SearchQuery, view: BoundingBox, resolution: number, clustering: Clustering, centre: Centre, offset: number,
  ): Promise<SearchResult> {
    const groups = await viewGroups(query, view, resolution);
    const ordered = spreadOrder(groups.cells, view, query.pageSize, index);
    const cellIds = new Map<number, string>();
    const cellOf = (stay: Stay) => cellIds.get(stay.idx)!;

    if (query.dates === null) {
      const page = ordered.slice(offset, offset + query.pageSize);
      for (const cell of page) cellIds.set(cell.best, cellString(cell.hi, cell.lo));
      return {
        hits: hitsOf(await deps.stays.get(page.map((c) => c.best)), centre, () => null, cellOf),
        total: Math.min(ordered.length, deps.totalCap),
        hasMore: offset + query.pageSize < ordered.length,
        unresolved: [],
        currency: effectiveCurrency(query.currency),
        cache: 'HIT',
        failures: {},
        clusters: null,
        clustering,
      };
    }

    const priced = ordered.slice(0, deps.pricedCandidates);
    const perCell = Math.max(1, Math.floor(deps.pricedCandidates / Math.max(1, priced.length)));
    const cellOfIdx = new Map<number, ViewCell>();
    const chosen: number[] = [];
    for (const cell of priced) {
      const picks = perCell === 1 ? [cell.best] : selectByRank(groups.members(cell), index.rank, index.byRank, 0, perCell);
      for (const idx of picks) {
        chosen.push(idx);
        cellOfIdx.set(idx, cell);
      }
    }
    const pricing = await price(query, query.dates, chosen);
    const representative = new Map<ViewCell, PricedStay>();
    for (const p of pricing.priced) {
      const cell = cellOfIdx.get(p.stay.idx)!;
      const seen = representative.get(cell);
      if (seen === undefined || index.rank[p.stay.idx] < index.rank[seen.stay.idx]) representative.set(cell, p);
    }
    const represented = priced.filter((cell) => representative.has(cell));
    for (const cell of represented) cellIds.set(representative.get(cell)!.stay.idx, cellString(cell.hi, cell.lo));
    const page = represented.slice(offset, offset + query.pageSize).map((cell) => representative.get(cell)!);
    return {
      hits: hitsOf(page.map((p) => p.stay), centre, (_stay, i) => page[i].offers, cellOf),
      total: represented.length,
      hasMore: offset + query.pageSize < represented.length,
      unresolved: [],
      currency: effectiveCurrency(query.currency),
      cache: cacheStatus(pricing),
      failures: pricing.failures,
      clusters: null,
      clustering,
    };
  }

  return async function search(query) {
    const offset = (query.page - 1) * query.pageSize;
    const mode = clusterModeOf(query);
    if (mode !== null) {
      const result = await clustered(query, mode, offset);
      if (result !== null) return result;
    }
    if (query.dates !== null) return dated(query, query.dates, offset);
    const { pageIdx, matched, unresolved, centre } = unfilteredBox(query, offset) ?? (await filtered(query, offset));
    return {
      hits: hitsOf(await deps.stays.get(pageIdx), centre, () => null),
      total: Math.min(matched, deps.totalCap),
      hasMore: offset + query.pageSize < matched,
      unresolved,
      currency: effectiveCurrency(query.currency),
      // A static search is answered from the inventory alone.
      cache: 'HIT',
      failures: {},
      clusters: null,
      clustering: null,
    };
  };
}

function boxCentre(box: { south: number; west: number; north: number; east: number }): Centre {
  const width = box.west <= box.east ? box.east - box.west : box.east + 360 - box.west;
  let lng = box.west + width / 2;
  if (lng > 180) lng -= 360;
  return { lat: (box.south + box.north) / 2, lng };
}
