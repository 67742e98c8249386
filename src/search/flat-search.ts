// A flat list of stays, static: candidates -> static filters -> rank (or distance for
// `hotelsearch`) -> page. Dated searches take their priced candidates from `findPage` too.
import { buildResult, hitsOf } from './build-result.ts';
import { boxCentre, locate, lookup, type Centre } from './candidates.ts';
import { keepMatching, pageByDistance, pageByRank } from './large-steps.ts';
import type { SearchDeps } from './search-deps.ts';
import type { SearchQuery } from './search-query.ts';
import type { SearchResult } from './search-result.ts';
import { selectByRank } from './select-by-rank.ts';
import { isUnfiltered, staticFilter } from './static-filter.ts';

/** One page of stays, before their details are fetched. */
export interface Page {
  pageIdx: number[];
  /** Stays matching before paging (not capped). */
  matched: number;
  unresolved: string[];
  /** Where distances are measured from; null for ID lookups. */
  centre: Centre | null;
}

/** The page of stays at `offset`: the cheap way for an unfiltered box, the general one otherwise. */
export async function findPage(deps: SearchDeps, query: SearchQuery, offset: number): Promise<Page> {
  return unfilteredBox(deps, query, offset) ?? (await filtered(deps, query, offset));
}

/** A static flat search. */
export async function flatSearch(deps: SearchDeps, query: SearchQuery, offset: number): Promise<SearchResult> {
  const { pageIdx, matched, unresolved, centre } = await findPage(deps, query, offset);
  const hits = hitsOf(await deps.stays.get(pageIdx), centre, () => null);
  return buildResult(query, { hits, matched, offset, unresolved, pricing: null }, deps.totalCap);
}

/**
 * A box with no attribute filter, the common map-viewport case, needs no candidate list: the
 * count comes from the kd-tree's subtrees and the page from walking the global ranking when the
 * box is busy enough for that to be the cheaper way (expected checks k * n / count < count).
 */
function unfilteredBox(deps: SearchDeps, query: SearchQuery, offset: number): Page | null {
  const { index } = deps;
  const location = query.location;
  if (location?.kind !== 'box' || !isUnfiltered(query)) return null;
  const { south, west, north, east } = location;
  const matched = index.countInBox(south, west, north, east);
  const k = offset + query.pageSize;
  const pageIdx =
    matched * matched > k * index.size
      ? index.bestInBox(south, west, north, east, offset, query.pageSize)
      : selectByRank(index.inBox(south, west, north, east), index.rank, index.byRank, offset, query.pageSize);
  return { pageIdx, matched, unresolved: [], centre: boxCentre(location) };
}

/** Every other search: list the candidates, filter them, then order and page. */
async function filtered(deps: SearchDeps, query: SearchQuery, offset: number): Promise<Page> {
  const { index, slicer } = deps;
  let candidates: number[];
  let unresolved: string[] = [];
  let centre: Centre | null = null;
  let radius: number | null = null;
  if (query.hotelIds !== null) ({ candidates, unresolved } = await lookup(deps, query));
  else ({ candidates, centre, radius } = await locate(deps, query));

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
