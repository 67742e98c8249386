// Map clustering of a viewport (spec: Clustering rules; README, "Clustering"): the mode and the
// resolution, then `auto`/`true` here and `top` in top-search.ts.
import { ApiError } from '../errors/api-error.ts';
import { boxDiagonalMeters, type BoundingBox } from '../geo/bounding-box.ts';
import { buildResult, hitsOf } from './build-result.ts';
import { boxCentre, type Centre } from './candidates.ts';
import { chooseResolution, expectedCells } from './choose-resolution.ts';
import { clusterHits, groupCells } from './cluster-viewport.ts';
import { price, pricedCandidates, pricedResult } from './dated-search.ts';
import type { ClusteringSettings, SearchDeps } from './search-deps.ts';
import type { SearchQuery } from './search-query.ts';
import type { Clustering, SearchResult } from './search-result.ts';
import { selectByRank } from './select-by-rank.ts';
import { topSearch } from './top-search.ts';
import { linkable, viewGroups } from './view-groups.ts';

export type ClusteringMode = Clustering['mode'];

/**
 * How a query is clustered, or null for a flat list. Only a bounding box is a viewport: ID
 * lookups, centre-plus-radius and address searches, and a `cell` alone are always flat.
 * `precision` forces top mode, whatever `cluster` says.
 */
export function clusterModeOf(query: SearchQuery): ClusteringMode | null {
  if (query.location?.kind !== 'box' || query.hotelIds !== null || query.hotelSearch !== null) return null;
  if (query.precision !== null) return 'top';
  return query.cluster === 'false' ? null : query.cluster;
}

/** A clustered answer, or null when `cluster=auto` finds a flat list more useful. */
export async function clusteredSearch(
  deps: SearchDeps,
  query: SearchQuery,
  mode: ClusteringMode,
  offset: number,
): Promise<SearchResult | null> {
  const settings = deps.clustering;
  const { south, west, north, east } = query.location as BoundingBox;
  const view: BoundingBox = { south, west, north, east };
  if (mode === 'auto' && boxDiagonalMeters(view) < settings.autoFlatDiagonalMeters) return null;
  const maxResolution = mode === 'top' ? settings.topMaxResolution : settings.maxResolution;
  if (query.precision !== null) checkPrecision(settings, view, query.precision);
  const resolution = query.precision ?? chooseResolution(view, { targetCells: settings.targetCells, maxResolution });
  const clustering: Clustering = { strategy: 'h3', precision: resolution, mode };
  const centre = boxCentre(view);
  if (mode === 'top') return topSearch(deps, query, view, resolution, clustering, centre, offset);
  return hexClusters(deps, query, view, resolution, clustering, centre, offset);
}

/** A 400 for a precision that would cut the view into more cells than any map shows (settings.maxPrecisionCells). */
function checkPrecision(settings: ClusteringSettings, view: BoundingBox, precision: number): void {
  const most = settings.maxPrecisionCells;
  const cells = (r: number) => expectedCells(view, r);
  if (cells(precision) <= most) return;
  let finest = precision;
  while (finest > 0 && cells(finest) > most) finest--;
  const asked = Number(cells(precision).toPrecision(2)).toLocaleString('en');
  throw ApiError.fromViolations([
    {
      param: 'precision',
      code: 'VALIDATION_ERROR',
      message:
        `precision ${precision} cuts this viewport into about ${asked} H3 cells; a map shows at most ` +
        `${most.toLocaleString('en')}: use precision ${finest} or less here, or a smaller viewport`,
    },
  ]);
}

/**
 * `auto` and `true`: cells with enough stays become clusters, the stays of the other cells are
 * the (ranked, paged) results; `total` counts only those. Static searches cluster every stay of
 * the view; dated ones the priced survivors. `auto` stays flat when every stay fits on the page
 * or no cell is dense enough.
 */
async function hexClusters(
  deps: SearchDeps,
  query: SearchQuery,
  view: BoundingBox,
  resolution: number,
  clustering: Clustering,
  centre: Centre,
  offset: number,
): Promise<SearchResult | null> {
  const { index, pyramid } = deps;
  const minStays = clustering.mode === 'true' ? 2 : deps.clustering.autoMinStays;
  const auto = clustering.mode === 'auto';
  if (query.dates !== null) {
    const { pageIdx, unresolved } = await pricedCandidates(deps, query);
    const pricing = await price(deps, query, query.dates, pageIdx);
    const groups = groupCells(
      index,
      pyramid,
      pricing.priced.map((p) => p.stay.idx),
      resolution,
    );
    const dense = linkable(
      deps,
      query,
      view,
      groups,
      groups.cells.filter((c) => c.count >= minStays),
    );
    // Flat from the same prices: asking the suppliers twice would cost a second round trip.
    if (auto && (dense.length === 0 || groups.total <= query.pageSize)) {
      return pricedResult(deps, query, pricing.priced, pricing, centre, unresolved, offset);
    }
    const clusteredIdx = new Set<number>();
    for (const cell of dense) for (const idx of groups.members(cell)) clusteredIdx.add(idx);
    const sparse = pricing.priced.filter((p) => !clusteredIdx.has(p.stay.idx));
    const clusters = clusterHits(pyramid, dense);
    return pricedResult(deps, query, sparse, pricing, centre, unresolved, offset, { clusters, clustering });
  }

  const groups = await viewGroups(deps, query, view, resolution);
  const big = groups.cells.filter((c) => c.count >= minStays);
  const dense = linkable(deps, query, view, groups, big);
  if (auto && (dense.length === 0 || groups.total <= query.pageSize)) return null;
  // linkable only leaves cells out: when it leaves none, a cell's count says whether it is dense.
  const linked = dense.length === big.length ? null : new Set(dense);
  const sparse: number[] = [];
  for (const cell of groups.cells) {
    const isDense = linked === null ? cell.count >= minStays : linked.has(cell);
    if (!isDense) for (const idx of groups.members(cell)) sparse.push(idx);
  }
  const pageIdx = selectByRank(sparse, index.rank, index.byRank, offset, query.pageSize);
  const hits = hitsOf(await deps.stays.get(pageIdx), centre, () => null);
  const clusters = clusterHits(pyramid, dense);
  return buildResult(query, { hits, matched: sparse.length, offset, pricing: null, clusters, clustering }, deps.totalCap);
}
