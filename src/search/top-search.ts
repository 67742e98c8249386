// `cluster=top` (and any `precision`): one representative per cell of the viewport.
import type { BoundingBox } from '../geo/bounding-box.ts';
import { cellString } from '../geo/h3-cell.ts';
import type { Stay } from '../types.ts';
import { buildResult, hitsOf } from './build-result.ts';
import type { Centre } from './candidates.ts';
import { spreadOrder, type ViewCell } from './cluster-viewport.ts';
import { price } from './dated-search.ts';
import type { PricedStay } from './price-stays.ts';
import type { SearchDeps } from './search-deps.ts';
import type { SearchQuery } from './search-query.ts';
import type { Clustering, SearchResult } from './search-result.ts';
import { selectByRank } from './select-by-rank.ts';
import { viewGroups } from './view-groups.ts';

/**
 * One representative per cell, the best-ranked stay, paged over cells in spread order
 * (cluster-viewport.ts). Dated: the cells first in that order share the priced-candidate budget
 * (each its best few stays, at least one), the best survivor represents its cell, and a cell
 * with no survivor drops out; `total` counts the cells represented.
 */
export async function topSearch(
  deps: SearchDeps,
  query: SearchQuery,
  view: BoundingBox,
  resolution: number,
  clustering: Clustering,
  centre: Centre,
  offset: number,
): Promise<SearchResult> {
  const { index } = deps;
  const groups = await viewGroups(deps, query, view, resolution);
  const ordered = spreadOrder(groups.cells, view, query.pageSize, index);
  const cellIds = new Map<number, string>();
  const cellOf = (stay: Stay) => cellIds.get(stay.idx)!;

  if (query.dates === null) {
    const page = ordered.slice(offset, offset + query.pageSize);
    for (const cell of page) cellIds.set(cell.best, cellString(cell.hi, cell.lo));
    const hits = hitsOf(await deps.stays.get(page.map((c) => c.best)), centre, () => null, cellOf);
    return buildResult(query, { hits, matched: ordered.length, offset, pricing: null, clustering }, deps.totalCap);
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
  const pricing = await price(deps, query, query.dates, chosen);
  const representative = new Map<ViewCell, PricedStay>();
  for (const p of pricing.priced) {
    const cell = cellOfIdx.get(p.stay.idx)!;
    const seen = representative.get(cell);
    if (seen === undefined || index.rank[p.stay.idx] < index.rank[seen.stay.idx]) representative.set(cell, p);
  }
  const represented = priced.filter((cell) => representative.has(cell));
  for (const cell of represented) cellIds.set(representative.get(cell)!.stay.idx, cellString(cell.hi, cell.lo));
  const page = represented.slice(offset, offset + query.pageSize).map((cell) => representative.get(cell)!);
  const hits = hitsOf(
    page.map((p) => p.stay),
    centre,
    (_stay, i) => page[i].offers,
    cellOf,
  );
  return buildResult(query, { hits, matched: represented.length, offset, pricing, clustering }, deps.totalCap);
}
