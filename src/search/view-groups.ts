// The viewport's stays by cell for the clustering modes, and which dense cells may be clusters
// under a `cell` filter (README, "Clustering", last rule).
import { boxContainsPoint, type BoundingBox } from '../geo/bounding-box.ts';
import { cellStays } from '../inventory/cell-stays.ts';
import { filterCell, locate, type FilterCell } from './candidates.ts';
import { facetWalk, groupCells, pyramidCells, pyramidCellsSliced, type CellGroups, type ViewCell } from './cluster-viewport.ts';
import { facetFilterOf } from './facet-filter.ts';
import type { SearchDeps } from './search-deps.ts';
import type { SearchQuery } from './search-query.ts';
import { isUnfiltered, staticFilter } from './static-filter.ts';

/**
 * Stays a filtered view's walk may leave to scan and still scan them at once: a table test and a
 * tally each, ~10 ns, so ~0.5 ms, a tenth of a work slice (defaults.workSliceMs).
 */
const FACET_SCAN_AT_ONCE = 50_000;

/**
 * The view's stays by cell: from the pyramid's figures when nothing filters them, through the
 * pyramid's runs of stays when attribute filters do, from the cell's own run with a `cell` filter.
 */
export async function viewGroups(deps: SearchDeps, query: SearchQuery, view: BoundingBox, resolution: number): Promise<CellGroups> {
  const { index, pyramid } = deps;
  if (query.cell === null) {
    const unfiltered = isUnfiltered(query);
    if (unfiltered && resolution <= pyramid.maxResolution) return pyramidCells(index, pyramid, view, resolution);
    // Through a filter, or finer than the pyramid, the walk costs a step per stay in view (but
    // for whole big pieces under a filter of one attribute: their facet entries): in slices,
    // taking turns with other heavy searches.
    const facets = unfiltered ? null : facetFilterOf(index, query);
    if (facets !== null && resolution <= pyramid.maxResolution) {
      // The facets leave few stays to scan, mostly (22,000 of the 1M world's 200,000 in Western
      // Europe, ~0.2 ms): then at once, as an unfiltered view, without waiting for a turn.
      const walk = facetWalk(index, pyramid, view, resolution, facets);
      return walk.stays <= FACET_SCAN_AT_ONCE ? walk.now() : deps.slicer.run(walk.sliced);
    }
    const keep = unfiltered ? null : staticFilter(index, query, null, null);
    return deps.slicer.run((pause) => pyramidCellsSliced(index, pyramid, view, resolution, keep, pause, facets));
  }
  const { candidates, centre, radius } = await locate(deps, query);
  return groupCells(index, pyramid, candidates.filter(staticFilter(index, query, centre, radius)), resolution);
}

/**
 * The dense cells whose expand link lists exactly their stays; the others' stays stay sparse.
 * The link names one cell, the finer of the `cell` filter's and the cluster's (http/search/links.ts),
 * and H3 cells do not nest: a filter cell finer than the clusters can straddle two of them, and
 * a cluster finer than the filter cell can straddle its edge. So with a `cell` filter, a finer
 * filter cell is one cluster or none, and a finer cluster is one only when none of its stays in
 * the view (and the other filters) lies outside the filter cell. Without one, every dense cell.
 */
export function linkable(deps: SearchDeps, query: SearchQuery, view: BoundingBox, groups: CellGroups, dense: ViewCell[]): ViewCell[] {
  const filter = filterCell(query);
  if (filter === null || dense.length === 0) return dense;
  if (filter.res <= groups.resolution) {
    if (filter.res < groups.resolution) return dense.filter((c) => !straddles(deps, query, view, c, filter));
    return dense; // the filter cell itself
  }
  return groups.cells.length === 1 ? dense : [];
}

/** Whether a cell holds a stay in the view and the other filters outside the filter cell. */
function straddles(deps: SearchDeps, query: SearchQuery, view: BoundingBox, cell: ViewCell, filter: FilterCell): boolean {
  const { index, pyramid } = deps;
  const keep = staticFilter(index, query, null, null);
  const own = new Uint32Array(2);
  for (const idx of cellStays(index, pyramid, cell.hi, cell.lo)) {
    if (!boxContainsPoint(view, index.lat[idx], index.lng[idx]) || !keep(idx)) continue;
    pyramid.cellOf(idx, filter.res, own);
    if (own[0] !== filter.hi || own[1] !== filter.lo) return true;
  }
  return false;
}
