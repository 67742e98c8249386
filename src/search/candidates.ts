// Where a search's stays come from, before any filter: a location's (box, centre and radius,
// address via the geocoder, or a `cell` filter's cell) or the ones `hotelids` names.
import { ApiError } from '../errors/api-error.ts';
import { GeocoderError } from '../geo/geocoder-error.ts';
import { boxAroundPoint, boxContainsPoint, type BoundingBox } from '../geo/bounding-box.ts';
import { cellCentre, cellHalves, resolutionOf } from '../geo/h3-cell.ts';
import { cellStays } from '../inventory/cell-stays.ts';
import type { HotelIdRef, SupplierId } from '../types.ts';
import { boxCandidates } from './large-steps.ts';
import type { SearchDeps } from './search-deps.ts';
import type { SearchQuery } from './search-query.ts';

export interface Centre {
  lat: number;
  lng: number;
}

/** A cell as id halves (geo/h3-cell.ts), with its resolution. */
export interface FilterCell {
  hi: number;
  lo: number;
  res: number;
}

/** The middle of a box, across the antimeridian too: where a box search measures distances from. */
export function boxCentre(box: { south: number; west: number; north: number; east: number }): Centre {
  const width = box.west <= box.east ? box.east - box.west : box.east + 360 - box.west;
  let lng = box.west + width / 2;
  if (lng > 180) lng -= 360;
  return { lat: (box.south + box.north) / 2, lng };
}

/** The `cell` filter's cell; null without one. */
export function filterCell(query: SearchQuery): FilterCell | null {
  if (query.cell === null) return null;
  const halves = cellHalves(query.cell);
  if (halves === null) throw new Error(`cell "${query.cell}" is not an H3 cell id`); // http/ validates it
  return { ...halves, res: resolutionOf(halves.hi) };
}

/** A geocoder outage is the upstream's failure (502/504), not the caller's (400) nor ours (500). */
async function geocode(deps: SearchDeps, address: string): Promise<Centre | null> {
  try {
    return await deps.geocoder.geocode(address);
  } catch (error) {
    if (!(error instanceof GeocoderError)) throw error;
    const code = error.failure === 'timeout' ? 'UPSTREAM_TIMEOUT' : 'BAD_GATEWAY';
    throw new ApiError(code, `The geocoder failed (${error.failure}) while resolving address`, {
      details: { params: { address: error.message } },
    });
  }
}

/** idx of the stays whose coordinates lie in the `cell` filter's cell (inventory/cell-stays.ts), inside the box when one is given. */
function cellCandidates(deps: SearchDeps, cell: { hi: number; lo: number }, box: BoundingBox | null): number[] {
  const { index } = deps;
  const stays = cellStays(index, deps.pyramid, cell.hi, cell.lo);
  return box === null ? stays : stays.filter((idx) => boxContainsPoint(box, index.lat[idx], index.lng[idx]));
}

/**
 * Candidates of a location, with the centre distances are measured from. With a `cell` filter
 * they are the cell's stays (from the cell pyramid); a cell alone is a location of its own,
 * measured from its centre.
 */
export async function locate(
  deps: SearchDeps,
  query: SearchQuery,
): Promise<{ candidates: number[]; centre: Centre; radius: number | null }> {
  const location = query.location;
  const cell = filterCell(query);
  if (location === null) {
    if (cell === null) throw new Error('a search needs a location, hotelids or a cell'); // http/ answers LOCATION_REQUIRED
    return { candidates: cellCandidates(deps, cell, null), centre: cellCentre(query.cell!), radius: null };
  }
  if (location.kind === 'box') {
    const candidates = cell === null ? await boxCandidates(deps.index, location, deps.slicer) : cellCandidates(deps, cell, location);
    return { candidates, centre: boxCentre(location), radius: null };
  }
  let centre: Centre;
  if (location.kind === 'point') centre = location;
  else {
    const place = await geocode(deps, location.address);
    if (place === null) {
      throw ApiError.fromViolations([
        { param: 'address', code: 'VALIDATION_ERROR', message: `address "${location.address}" could not be resolved to a place` },
      ]);
    }
    centre = place;
  }
  const box = boxAroundPoint(centre.lat, centre.lng, location.radius);
  const candidates = cell === null ? await boxCandidates(deps.index, box, deps.slicer) : cellCandidates(deps, cell, box);
  return { candidates, centre, radius: location.radius };
}

/** Stays named by `hotelids`, in the order asked, with the entries that matched nothing. */
export async function lookup(deps: SearchDeps, query: SearchQuery): Promise<{ candidates: number[]; unresolved: string[] }> {
  const { index, pyramid } = deps;
  const refs = query.hotelIds!;
  const matches = await resolveHotelIds(deps, refs, query.providers?.length === 1 ? query.providers[0] : null);
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
async function resolveHotelIds(deps: SearchDeps, refs: readonly HotelIdRef[], only: SupplierId | null): Promise<number[][]> {
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
