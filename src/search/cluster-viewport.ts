// The stays of a viewport grouped by H3 cell at one resolution: the step every clustering mode
// starts from. A stay's cell is latLngToCell of its coordinates (inventory/cell-pyramid.ts), so a
// cluster's hexagon holds exactly its stays. Two ways in, one result shape:
// - pyramidCells: static viewports, walked down the cell pyramid's pieces from r0. Unfiltered, a
//   viewport costs the pieces it covers plus the stays of the finest pieces cut by its edges;
//   with attribute filters, the stays in view, scanned in pyramid order through the filter;
// - groupCells: any list of candidates (priced survivors, a cell filter), grouped by cell.
// Then the modes' own steps: clusterHit (auto/true) and spreadOrder (top).
import type { BoundingBox } from '../geo/bounding-box.ts';
import { cellKey, cellString } from '../geo/h3-cell.ts';
import { atLeastDim, FACET_DIMS, facetPieceOf } from '../inventory/cell-facets.ts';
import type { CellPyramid } from '../inventory/cell-pyramid.ts';
import { lowerBound } from '../inventory/lower-bound.ts';
import type { StayIndex } from '../inventory/stay-index.ts';
import type { FacetFilter } from './facet-filter.ts';
import { orderBy } from './order-by.ts';
import type { ClusterHit } from './search-result.ts';

/** One occupied cell of a viewport: its stays inside the view (and the filters), summarised. */
export interface ViewCell {
  /** The cell id at the clustering resolution, as halves (geo/h3-cell.ts). */
  hi: number;
  lo: number;
  count: number;
  /** idx of the best-ranked of its stays. */
  best: number;
  /** Box around its stays (may be a little larger: float32 rounded outwards). */
  south: number;
  west: number;
  north: number;
  east: number;
  /** Mean position of its stays. */
  lat: number;
  lng: number;
  /**
   * Its stays lie in these runs of the groups' source (see CellGroups.members), flat
   * [from, to, from, to, ...]: a cell can be several pieces of the pyramid.
   */
  runs: number[];
  /** Some stays of the runs lie outside the view or the filter: listing them tests each one. */
  partial: boolean;
}

export interface CellGroups {
  resolution: number;
  cells: ViewCell[];
  /** Stays in all the cells together. */
  total: number;
  /** idx of a cell's stays (in view, matching), in the order of the groups' source. */
  members(cell: ViewCell): number[];
}

type InView = (lat: number, lng: number) => boolean;
/** The static filters of a search as a predicate over idx; null when nothing filters. */
export type Keep = ((idx: number) => boolean) | null;

function inViewTest(view: BoundingBox): InView {
  const { south, north, west, east } = view;
  // Inclusive edges, as the kd-tree's box query: a stay counted flat is counted clustered.
  if (west <= east) return (y, x) => y >= south && y <= north && x >= west && x <= east;
  return (y, x) => y >= south && y <= north && (x >= west || x <= east);
}

/** Running summary of stays: what a ViewCell says about them. */
interface Tally {
  count: number;
  best: number;
  bestRank: number;
  south: number;
  west: number;
  north: number;
  east: number;
  sumLat: number;
  sumLng: number;
  /** Longitudes on 0..360, for a mean across the antimeridian. */
  sumWrapped: number;
}

const newTally = (): Tally => ({
  count: 0,
  best: -1,
  bestRank: Infinity,
  south: Infinity,
  west: Infinity,
  north: -Infinity,
  east: -Infinity,
  sumLat: 0,
  sumLng: 0,
  sumWrapped: 0,
});

/** Adds stays [from, to) of a cell order (those in view and kept, when given) to the tally. */
function scanInto(
  t: Tally,
  index: StayIndex,
  idxAt: (p: number) => number,
  from: number,
  to: number,
  inView: InView | null,
  keep: Keep = null,
  facets: FacetFilter | null = null,
): void {
  const { lat, lng, rank } = index;
  // One attribute's filter tests its column by a table, not through the whole predicate.
  const column = facets?.column ?? null,
    values = facets?.values ?? null;
  // The hot loop of filtered views: the tally in locals, written back once.
  let { count, best, bestRank, south, west, north, east, sumLat, sumLng, sumWrapped } = t;
  for (let p = from; p < to; p++) {
    const idx = idxAt(p);
    if (column !== null) {
      if (values![column[idx]] === 0) continue;
    } else if (keep !== null && !keep(idx)) continue;
    const y = lat[idx],
      x = lng[idx];
    if (inView !== null && !inView(y, x)) continue;
    count++;
    if (rank[idx] < bestRank) {
      bestRank = rank[idx];
      best = idx;
    }
    if (y < south) south = y;
    if (y > north) north = y;
    if (x < west) west = x;
    if (x > east) east = x;
    sumLat += y;
    sumLng += x;
    sumWrapped += x < 0 ? x + 360 : x;
  }
  t.count = count;
  t.best = best;
  t.bestRank = bestRank;
  t.south = south;
  t.west = west;
  t.north = north;
  t.east = east;
  t.sumLat = sumLat;
  t.sumLng = sumLng;
  t.sumWrapped = sumWrapped;
}

/** Adds a tally to another. */
function addTally(into: Tally, t: Tally): void {
  into.count += t.count;
  if (t.bestRank < into.bestRank) {
    into.bestRank = t.bestRank;
    into.best = t.best;
  }
  if (t.south < into.south) into.south = t.south;
  if (t.west < into.west) into.west = t.west;
  if (t.north > into.north) into.north = t.north;
  if (t.east > into.east) into.east = t.east;
  into.sumLat += t.sumLat;
  into.sumLng += t.sumLng;
  into.sumWrapped += t.sumWrapped;
}

/** Adds a stay to a tally. */
function addStay(t: Tally, index: StayIndex, idx: number): void {
  const y = index.lat[idx],
    x = index.lng[idx];
  t.count++;
  if (index.rank[idx] < t.bestRank) {
    t.bestRank = index.rank[idx];
    t.best = idx;
  }
  if (y < t.south) t.south = y;
  if (y > t.north) t.north = y;
  if (x < t.west) t.west = x;
  if (x > t.east) t.east = x;
  t.sumLat += y;
  t.sumLng += x;
  t.sumWrapped += x < 0 ? x + 360 : x;
}

/**
 * One cell being gathered: the ViewCell it becomes, with its running tally and the stays of its
 * runs. One object from the first stay to the answer: a walk over a Western-Europe viewport meets
 * ~250 pieces, and an object each for the tally, the gathering and the cell was a fifth of it.
 */
interface Gathered extends ViewCell, Tally {
  /** Stays in the runs, in view or not. */
  inRuns: number;
}

/**
 * Cells being gathered by a key unique within a resolution: the cell's number in its pyramid
 * level when it has one, else its cellKey. Level numbers (below 2^31) are found in an
 * open-addressed table of typed arrays: a Map's inserts were a tenth of a viewport's walk.
 */
export class Gathering {
  private readonly byKey: Map<number, Gathered> | null;
  /** Level numbers: slot -> key + 1 (0 empty), and slot -> its cell's place in `list`; 2^(32 - shift) slots. */
  private slotKey: Int32Array;
  private slotAt: Int32Array;
  private shift = 32 - 9;
  private readonly list: Gathered[] = [];
  /** The keys as they came, in `list`'s order, and whether all are below 2^32. */
  private readonly keys: number[] = [];
  private small = true;

  /** `levelNumbers`: every key is a cell's number in a pyramid level, else cellKeys. */
  constructor(levelNumbers: boolean) {
    this.byKey = levelNumbers ? null : new Map();
    const slots = levelNumbers ? 1 << (32 - this.shift) : 0;
    this.slotKey = new Int32Array(slots);
    this.slotAt = new Int32Array(slots);
  }

  /** The cell of a key, if gathered. */
  private find(key: number): Gathered | undefined {
    if (this.byKey !== null) return this.byKey.get(key);
    const mask = this.slotKey.length - 1;
    for (let slot = this.home(key); ; slot = (slot + 1) & mask) {
      const k = this.slotKey[slot];
      if (k === key + 1) return this.list[this.slotAt[slot]];
      if (k === 0) return undefined;
    }
  }

  at(key: number, hi: number, lo: number): Gathered {
    const found = this.find(key);
    if (found !== undefined) return found;
    const g: Gathered = {
      hi,
      lo,
      count: 0,
      best: -1,
      bestRank: Infinity,
      south: Infinity,
      west: Infinity,
      north: -Infinity,
      east: -Infinity,
      sumLat: 0,
      sumLng: 0,
      sumWrapped: 0,
      lat: 0,
      lng: 0,
      runs: [],
      inRuns: 0,
      partial: false,
    };
    if (this.byKey !== null) this.byKey.set(key, g);
    else {
      if (2 * (this.list.length + 1) > this.slotKey.length) this.grow();
      const mask = this.slotKey.length - 1;
      let slot = this.home(key);
      while (this.slotKey[slot] !== 0) slot = (slot + 1) & mask;
      this.slotKey[slot] = key + 1;
      this.slotAt[slot] = this.list.length;
    }
    this.list.push(g);
    this.keys.push(key);
    if (key >= 2 ** 32) this.small = false;
    return g;
  }

  /**
   * A key's first slot: the top bits of its product with 2^32 / golden ratio (Fibonacci
   * hashing). A level's numbers come in runs, and the top bits scatter a run where the low ones
   * would keep keys a table's size apart on one slot.
   */
  private home(key: number): number {
    return Math.imul(key, 0x9e3779b1) >>> this.shift;
  }

  /** Twice the table, for a load under a half once this cell is in. */
  private grow(): void {
    const oldKey = this.slotKey,
      oldAt = this.slotAt;
    this.shift--;
    this.slotKey = new Int32Array(2 * oldKey.length);
    this.slotAt = new Int32Array(2 * oldKey.length);
    const mask = this.slotKey.length - 1;
    for (let i = 0; i < oldKey.length; i++) {
      if (oldKey[i] === 0) continue;
      let slot = this.home(oldKey[i] - 1);
      while (this.slotKey[slot] !== 0) slot = (slot + 1) & mask;
      this.slotKey[slot] = oldKey[i];
      this.slotAt[slot] = oldAt[i];
    }
  }

  /** Adds a run [from, to) of the source, extending the last one when it ends where this one starts. */
  static run(g: Gathered, from: number, to: number): void {
    const n = g.runs.length;
    if (n > 0 && g.runs[n - 1] === from) g.runs[n - 1] = to;
    else g.runs.push(from, to);
    g.inRuns += to - from;
  }

  /**
   * The cells with stays, in id order. Either key runs in id order within a resolution (a level's
   * cells are numbered so; cellKey drops only the bits a resolution fixes), so a numeric sort of
   * the keys orders them: a comparator over the cells took a fifth of a clustered search.
   */
  cells(): ViewCell[] {
    // A Uint32Array sorts three times faster than a Float64Array: a level's cell numbers fit one.
    const keys = (this.small ? new Uint32Array(this.keys) : new Float64Array(this.keys)).sort();
    const out: ViewCell[] = [];
    for (let i = 0; i < keys.length; i++) {
      const g = this.find(keys[i])!;
      if (g.count === 0) continue;
      g.lat = g.sumLat / g.count;
      g.lng = centroidLng(g.sumLng, g.sumWrapped, g.count, g.west, g.east);
      g.partial = g.count < g.inRuns;
      out.push(g);
    }
    return out;
  }
}

/** Mean longitude; across the antimeridian (stays spanning more than 180 degrees) taken on 0..360. */
function centroidLng(sum: number, sumWrapped: number, count: number, west: number, east: number): number {
  if (east - west <= 180) return sum / count;
  const x = sumWrapped / count;
  return x > 180 ? x - 360 : x;
}

/**
 * Every stay of the view by cell at `resolution`, from the pyramid. The walk starts at the r0
 * pieces and goes down only through pieces whose stays are cut by the view's edges: a piece wholly
 * inside gives its descendants at the resolution straight from the pyramid (count, best, box,
 * centroid precomputed), a piece wholly outside is dropped, and a cut piece at the resolution is
 * summed from its finer pieces (see `gather`), each into its cell as the walk goes. Finer
 * than the pyramid's deepest level, each stay's cell is computed (inventory/cell-pyramid.ts
 * cellOf: its res-15 cell's parent where that is sure, h3-js otherwise), which top mode's small
 * viewports can afford.
 *
 * With `keep` (attribute filters) the precomputed figures no longer hold: the walk then only
 * finds the runs of stays in view, and scans them through the filter. That costs the stays in
 * view, but in pyramid order, already grouped, with no list to build or sort.
 */
export function pyramidCells(
  index: StayIndex,
  pyramid: CellPyramid,
  view: BoundingBox,
  resolution: number,
  keep: Keep = null,
  facets: FacetFilter | null = null,
): CellGroups {
  const walk = walkView(index, pyramid, view, resolution, keep, facets);
  while (walk.step(Infinity));
  for (const work of walk.deferred) {
    walk.run(work, work.from, work.to);
    walk.finish(work);
  }
  return walk.groups();
}

/**
 * pyramidCells through a filter of one attribute whose codes the pyramid's facet entries hold
 * (facet-filter.ts), no finer than the pyramid: the walk down the pyramid is done at once (it
 * walks what an unfiltered view walks, less), and what it leaves, the stays of small pieces and
 * of pieces cut by the view's edges, is counted, for the caller to scan at once (`now`) when they
 * are few, or in slices.
 */
export function facetWalk(index: StayIndex, pyramid: CellPyramid, view: BoundingBox, resolution: number, facets: FacetFilter) {
  // The filter as the column's table: what static-filter.ts keeps, to the byte (facet-filter.ts).
  const keep = (idx: number) => facets.values[facets.column[idx]] === 1;
  const walk = walkView(index, pyramid, view, resolution, keep, facets);
  while (walk.step(Infinity));
  let stays = 0;
  for (const work of walk.deferred) stays += work.to - work.from;
  return {
    /** Stays left to scan. */
    stays,
    now(): CellGroups {
      for (const work of walk.deferred) {
        walk.run(work, work.from, work.to);
        walk.finish(work);
      }
      return walk.groups();
    },
    sliced: (pause: () => Promise<void> | undefined): Promise<CellGroups> => scanSliced(walk, pause),
  };
}

/** Pieces walked, or stays scanned, between two offers to pause. */
const STEP = 256;

/**
 * pyramidCells with its work done in steps, offering `pause` between steps (it returns a promise
 * when the caller's time slice is spent): the walk down the pyramid 256 pieces at a time (a
 * filtered whole-world view walks every piece of the deepest level: 8,500 at r4 on the default
 * world, ~30 ms at once), then the stay-by-stay work (attribute filters, resolutions finer than
 * the pyramid) 256 stays at a time. A big view never holds the event loop for long.
 */
export async function pyramidCellsSliced(
  index: StayIndex,
  pyramid: CellPyramid,
  view: BoundingBox,
  resolution: number,
  keep: Keep,
  pause: () => Promise<void> | undefined,
  facets: FacetFilter | null = null,
): Promise<CellGroups> {
  const walk = walkView(index, pyramid, view, resolution, keep, facets);
  while (walk.step(STEP)) await pause();
  return scanSliced(walk, pause);
}

/** A walk's deferred stays, STEP at a time, offering to pause between steps; then its groups. */
async function scanSliced(walk: ReturnType<typeof walkView>, pause: () => Promise<void> | undefined): Promise<CellGroups> {
  for (const work of walk.deferred) {
    for (let from = work.from; from < work.to; from += STEP) {
      walk.run(work, from, Math.min(work.to, from + STEP));
      await pause();
    }
    walk.finish(work);
  }
  return walk.groups();
}

/**
 * Stay-by-stay work over positions [from, to) of the pyramid, run in any steps, then finished
 * once: stays of deepest-level piece `piece` through the filter into `tally` (then added to its
 * cell, with the piece's run of stays unless the walk already gave it), or, with no piece (-1),
 * each stay placed in its cell finer than the pyramid. Plain data rather than closures: a
 * filtered world view defers thousands of them.
 */
interface DeferredWork {
  from: number;
  to: number;
  piece: number;
  test: InView | null;
  tally: Tally | null;
  withRun: boolean;
}

/**
 * The walk down the pyramid for one view, `step` by `step` until it returns false. What costs a
 * step per stay (scanning pieces through the filter, placing stays in cells finer than the
 * pyramid) is not done during the walk but listed as `deferred`, for the caller to `run` at once
 * or in slices, in order, and `finish`; then `groups()`.
 *
 * Long (~260 lines) on purpose: its inner functions share the walk's state (the frontier, the cells
 * met, the deferred work) and are hot; splitting it belongs with issue 22's clustering rework,
 * which measures each step.
 */
function walkView(index: StayIndex, pyramid: CellPyramid, view: BoundingBox, resolution: number, keep: Keep, facets: FacetFilter | null) {
  const inView = inViewTest(view);
  const { south, north, west, east } = view;
  const crosses = west > east;
  const deepest = Math.min(resolution, pyramid.maxResolution);
  const { levels } = pyramid;
  // Pieces are gathered by their level's cell numbers; stays finer than the pyramid by cellKey.
  const gathering = new Gathering(resolution <= pyramid.maxResolution);
  const cell = new Uint32Array(2);
  /** Whole pieces through the filter from their facet entries (cell-facets.ts), else by their stays. */
  const byFacets = keep !== null && facets !== null;
  /** A minimum (rating, stars) keeps a code and every higher one: its lowest kept entry holds them all. */
  const atLeast = facets !== null && atLeastDim(facets.dim);
  /** That minimum's code (the lowest kept). */
  const lowestKept = atLeast ? facets.codes.indexOf(1) : -1;

  /** Adds a piece of the deepest walked level, or part of it, to its cell (with its run of stays, once). */
  const add = (c: number, t: Tally, withRun = true) => {
    const g = cellOfPiece(c);
    addTally(g, t);
    if (withRun) Gathering.run(g, levels[deepest].start[c], levels[deepest].start[c + 1]);
  };
  /** The cell being gathered that piece c of the deepest walked level lies in. */
  const cellOfPiece = (c: number): Gathered => {
    const level = levels[deepest];
    const k = level.cell[c];
    return gathering.at(k, level.cellHi[k], level.cellLo[k]);
  };

  const deferred: DeferredWork[] = [];
  /** Stays [from, to) to place in their cells at `resolution` one by one (see splitStay). */
  const split = (from: number, to: number, test: InView | null) => {
    if (from < to) deferred.push({ from, to, piece: -1, test, tally: null, withRun: false });
  };
  /** Piece c's stays [from, to) through the filter (and the view, when tested), then added to its cell. */
  const scanPiece = (c: number, from: number, to: number, test: InView | null, withRun = true) => {
    deferred.push({ from, to, piece: c, test, tally: newTally(), withRun });
  };
  /** Positions [a, b) of a deferred work. */
  const run = (work: DeferredWork, a: number, b: number) => {
    if (work.tally !== null) scanInto(work.tally, index, pyramid.idxAt, a, b, work.test, keep, facets);
    else for (let p = a; p < b; p++) splitStay(p, work.test);
  };
  const finish = (work: DeferredWork) => {
    if (work.tally !== null) add(work.piece, work.tally, work.withRun);
  };
  /** Places the stay at position p in its cell at `resolution`, when in view (if tested) and kept. */
  const splitStay = (p: number, test: InView | null) => {
    const idx = pyramid.idxAt(p);
    if (test !== null && !test(index.lat[idx], index.lng[idx])) return;
    if (keep !== null && !keep(idx)) return;
    pyramid.cellOf(idx, resolution, cell);
    const g = gathering.at(cellKey(cell[0], cell[1]), cell[0], cell[1]);
    addStay(g, index, idx);
    Gathering.run(g, p, p + 1);
  };

  /** A piece of the deepest walked level whose stays are all in view. */
  const whole = (c: number) => {
    const level = levels[deepest];
    const from = level.start[c],
      to = level.start[c + 1];
    if (resolution > deepest) return split(from, to, null);
    if (keep !== null && !byFacets) return scanPiece(c, from, to, null);
    // Into the cell's own tally: no tally of the piece's to add up (most pieces of a view are whole).
    const g = cellOfPiece(c);
    if (keep !== null) keptUnder(g, deepest, c, c);
    else inside(g, deepest, c);
    Gathering.run(g, from, to);
  };

  const DISJOINT = 0,
    CUT = 1,
    INSIDE = 2;
  /** Where a piece's stays lie against the view (their box is rounded outwards: never a false INSIDE). */
  const relation = (r: number, c: number): number => {
    const box = levels[r].box;
    const b = 4 * c;
    const s = box[b],
      w = box[b + 1],
      n = box[b + 2],
      e = box[b + 3];
    if (n < south || s > north) return DISJOINT;
    if (crosses ? w > east && e < west : e < west || w > east) return DISJOINT;
    return s >= south && n <= north && (crosses ? w >= west || e <= east : w >= west && e <= east) ? INSIDE : CUT;
  };

  /**
   * The first of the children of piece c of level r, as a piece of level r + 1 (its children run
   * up to the first of piece c + 1's): two numbers, not a pair to allocate, on the walk's path.
   */
  const firstChild = (r: number, c: number): number => lowerBound(levels[r + 1].start, levels[r].start[c]);

  /** Adds precomputed figures (a piece's, or a facet entry's: number e of the arrays) to the tally. */
  const figures = (t: Tally, count: number, best: number, box: Float32Array, centroid: Float32Array, e: number): void => {
    const b = 4 * e;
    if (index.rank[best] < t.bestRank) {
      t.bestRank = index.rank[best];
      t.best = best;
    }
    t.count += count;
    if (box[b] < t.south) t.south = box[b];
    if (box[b + 1] < t.west) t.west = box[b + 1];
    if (box[b + 2] > t.north) t.north = box[b + 2];
    if (box[b + 3] > t.east) t.east = box[b + 3];
    const y = centroid[2 * e],
      x = centroid[2 * e + 1];
    t.sumLat += y * count;
    t.sumLng += x * count;
    t.sumWrapped += (x < 0 ? x + 360 : x) * count;
  };

  /** Adds the precomputed figures of piece c of level r (all its stays) to the tally. */
  const inside = (t: Tally, r: number, c: number): void => {
    const level = levels[r];
    figures(t, level.start[c + 1] - level.start[c], level.best[c], level.box, level.centroid, c);
  };

  /**
   * Adds the stays of piece c of level r (all in view) that the filter keeps: a big piece's facet
   * entries of the kept codes, a small piece's stays scanned (deferred, into deepest-level piece
   * `top`'s cell; the caller gives its run).
   */
  const keptUnder = (t: Tally, r: number, c: number, top: number): void => {
    const level = levels[r];
    const i = facetPieceOf(level, c);
    if (i < 0) return scanPiece(top, level.start[c], level.start[c + 1], null, false);
    const { dim, codes } = facets!;
    const { facetStart, facetCode, facetCount, facetBest, facetBox, facetCentroid } = level;
    const end = facetStart[i * FACET_DIMS + dim + 1];
    if (atLeast) {
      // A piece's entries run in code order: the first at or above the minimum, found by halving
      // (a rating's piece has an entry for each tenth it holds: stepping to 8.0 read ~50). Written
      // out rather than lowerBound, which takes the pyramid's Uint32Arrays on the walk's hottest
      // lines: codes are bytes, and sharing it would make those calls polymorphic (as exact-cells.ts
      // keeps firstAtLeast apart for float64 keys).
      let e = facetStart[i * FACET_DIMS + dim],
        hi = end;
      while (e < hi) {
        const m = (e + hi) >>> 1;
        if (facetCode[m] < lowestKept) e = m + 1;
        else hi = m;
      }
      if (e < end && codes[facetCode[e]] === 1) figures(t, facetCount[e], facetBest[e], facetBox, facetCentroid, e);
      return;
    }
    for (let e = facetStart[i * FACET_DIMS + dim]; e < end; e++) {
      if (codes[facetCode[e]] === 1) figures(t, facetCount[e], facetBest[e], facetBox, facetCentroid, e);
    }
  };

  /** gather through the filter: kept stays under piece c of level r, in view, for deepest-level piece `top`. */
  const gatherKept = (t: Tally, r: number, c: number, top: number): void => {
    const rel = relation(r, c);
    if (rel === DISJOINT) return;
    const level = levels[r];
    if (rel === INSIDE) return keptUnder(t, r, c, top);
    // A cut piece too small for entries: its stays, each tested against the view.
    if (r === pyramid.maxResolution || facetPieceOf(level, c) < 0) return scanPiece(top, level.start[c], level.start[c + 1], inView, false);
    const end = firstChild(r, c + 1);
    for (let d = firstChild(r, c); d < end; d++) gatherKept(t, r + 1, d, top);
  };

  /**
   * Adds the stays in view under piece c of level r: a finer piece wholly inside from the pyramid,
   * one cut by the edges at the pyramid's finest level stay by stay. So a view's edge across a
   * city costs the stays of the finest pieces it crosses, not those of the whole coarse cell.
   */
  const gather = (t: Tally, r: number, c: number): void => {
    const rel = relation(r, c);
    if (rel === DISJOINT) return;
    const level = levels[r];
    if (rel === INSIDE) return inside(t, r, c);
    if (r === pyramid.maxResolution) return scanInto(t, index, pyramid.idxAt, level.start[c], level.start[c + 1], inView);
    const end = firstChild(r, c + 1);
    for (let d = firstChild(r, c); d < end; d++) gather(t, r + 1, d);
  };

  /** A piece of the deepest walked level cut by the view's edges. */
  const cut = (c: number) => {
    const level = levels[deepest];
    const from = level.start[c],
      to = level.start[c + 1];
    if (resolution > deepest) return split(from, to, inView);
    if (keep !== null && (!byFacets || deepest === pyramid.maxResolution)) return scanPiece(c, from, to, inView);
    const g = cellOfPiece(c);
    if (keep !== null) {
      const end = firstChild(deepest, c + 1);
      for (let d = firstChild(deepest, c); d < end; d++) gatherKept(g, deepest + 1, d, c);
    } else if (deepest === pyramid.maxResolution) scanInto(g, index, pyramid.idxAt, from, to, inView);
    else {
      const end = firstChild(deepest, c + 1);
      for (let d = firstChild(deepest, c); d < end; d++) gather(g, deepest + 1, d);
    }
    Gathering.run(g, from, to);
  };

  // Depth-first from r0; the stack holds (level, piece) pairs.
  const stack: number[] = [];
  for (let c = levels[0].size - 1; c >= 0; c--) stack.push(0, c);
  /** Pieces [wholeFrom, wholeTo) of the deepest level, all inside the view, still to take. */
  let wholeFrom = 0;
  let wholeTo = 0;
  /** Walks at most `budget` pieces; false once the walk is over. */
  const step = (budget: number): boolean => {
    for (; budget > 0; budget--) {
      if (wholeFrom < wholeTo) {
        whole(wholeFrom++);
        continue;
      }
      if (stack.length === 0) return false;
      const c = stack.pop()!;
      const r = stack.pop()!;
      const rel = relation(r, c);
      if (rel === DISJOINT) continue;
      if (r === deepest) {
        if (rel === INSIDE) whole(c);
        else cut(c);
        continue;
      }
      if (rel === INSIDE) {
        // Every descendant is inside too: take them from the deepest level, before anything else.
        const starts = levels[deepest].start;
        wholeFrom = lowerBound(starts, levels[r].start[c]);
        wholeTo = lowerBound(starts, levels[r].start[c + 1]);
        continue;
      }
      const first = firstChild(r, c);
      for (let d = firstChild(r, c + 1) - 1; d >= first; d--) stack.push(r + 1, d);
    }
    return wholeFrom < wholeTo || stack.length > 0;
  };

  /** Whether the filter keeps a stay: by the column's table for one attribute. */
  const kept = facets !== null ? (idx: number) => facets.values[facets.column[idx]] === 1 : keep === null ? () => true : keep;

  /** idx of the stays at positions [from, to) in view (when tested) and kept, in position order. */
  const collectRun = (out: number[], from: number, to: number, test: InView | null): void => {
    for (let p = from; p < to; p++) {
      const idx = pyramid.idxAt(p);
      if ((test === null || test(index.lat[idx], index.lng[idx])) && kept(idx)) out.push(idx);
    }
  };
  /** The same for the stays under piece c of level r: pieces outside the view skipped, inside ones untested. */
  const collect = (out: number[], r: number, c: number): void => {
    const rel = relation(r, c);
    if (rel === DISJOINT) return;
    const level = levels[r];
    if (rel === INSIDE || r === pyramid.maxResolution)
      return collectRun(out, level.start[c], level.start[c + 1], rel === INSIDE ? null : inView);
    const end = firstChild(r, c + 1);
    for (let d = firstChild(r, c); d < end; d++) collect(out, r + 1, d);
  };

  const groups = (): CellGroups => {
    const cells = gathering.cells();
    let total = 0;
    for (const c of cells) total += c.count;
    return {
      resolution,
      cells,
      total,
      members(cell) {
        const out: number[] = [];
        const { runs } = cell;
        for (let i = 0; i < runs.length; i += 2) {
          const from = runs[i],
            to = runs[i + 1];
          if (!cell.partial) {
            for (let p = from; p < to; p++) out.push(pyramid.idxAt(p));
            continue;
          }
          // A cell the view's edge cuts can hold thousands of stays outside it (a city across the
          // edge) for the few in it, and the sparse results list such cells: a run that is one
          // piece is walked down its finer pieces, those outside the view left whole.
          const c = deepest < pyramid.maxResolution ? lowerBound(levels[deepest].start, from) : -1;
          if (c >= 0 && levels[deepest].start[c] === from && levels[deepest].start[c + 1] === to) collect(out, deepest, c);
          else collectRun(out, from, to, inView);
        }
        return out;
      },
    };
  };
  return { step, deferred, run, finish, groups };
}

/** Candidates (already in the view and matching every filter) grouped by their cell at `resolution`. */
export function groupCells(index: StayIndex, pyramid: CellPyramid, candidates: readonly number[], resolution: number): CellGroups {
  // In pyramid order, so that the cells and their members come out the same whatever the candidates' order.
  const positions = new Uint32Array(candidates.length);
  for (let i = 0; i < candidates.length; i++) positions[i] = pyramid.positionOf(candidates[i]);
  positions.sort();
  const source: number[] = [];
  for (const p of positions) source.push(pyramid.idxAt(p));
  const gathering = new Gathering(false);
  const cell = new Uint32Array(2);
  for (let i = 0; i < source.length; i++) {
    pyramid.cellOf(source[i], resolution, cell);
    const g = gathering.at(cellKey(cell[0], cell[1]), cell[0], cell[1]);
    addStay(g, index, source[i]);
    Gathering.run(g, i, i + 1);
  }
  return {
    resolution,
    cells: gathering.cells(),
    total: candidates.length,
    members(cell) {
      const out: number[] = [];
      const { runs } = cell;
      for (let i = 0; i < runs.length; i += 2) for (let j = runs[i]; j < runs[i + 1]; j++) out.push(source[j]);
      return out;
    },
  };
}

/** Rounded outwards to 6 decimals (about 0.1 m), so the box still holds every stay. */
function floor6(x: number): number {
  const y = Math.floor(x * 1e6) / 1e6;
  return y > x ? y - 1e-6 : y;
}
function ceil6(x: number): number {
  const y = Math.ceil(x * 1e6) / 1e6;
  return y < x ? y + 1e-6 : y;
}
const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** A dense cell as the cluster a map shows: at the centroid of its stays, bounded by their box. */
export function clusterHit(cell: ViewCell): ClusterHit {
  const south = floor6(cell.south),
    west = floor6(cell.west),
    north = ceil6(cell.north),
    east = ceil6(cell.east);
  return {
    id: cellString(cell.hi, cell.lo),
    lat: Math.min(north, Math.max(south, round6(cell.lat))),
    lng: Math.min(east, Math.max(west, round6(cell.lng))),
    bounds: { ne: { lat: north, lng: east }, sw: { lat: south, lng: west } },
    count: cell.count,
  };
}

/** A built hit, with the figures of the cell it was built from. */
interface KeptHit {
  hit: ClusterHit;
  count: number;
  south: number;
  west: number;
  north: number;
  east: number;
  lat: number;
  lng: number;
}

/** Hits kept per pyramid (one per content version), by cellKey: cleared past this many. */
const KEPT_HITS = 20_000;
const keptHits = new WeakMap<CellPyramid, Map<number, KeptHit>>();

/**
 * The dense cells as clusters, biggest first (see biggestFirst). A hit is a pure function of its
 * cell's figures, and a map asks for the same cells pan after pan (a cell wholly in view has the
 * same figures in every view): building 170 hits was a quarter of a clustered Western Europe, so
 * a hit built once is kept for its pyramid and handed out again, frozen, while the figures match.
 */
export function clusterHits(pyramid: CellPyramid, dense: readonly ViewCell[]): ClusterHit[] {
  let kept = keptHits.get(pyramid);
  if (kept === undefined) keptHits.set(pyramid, (kept = new Map()));
  const cells = biggestFirst(dense);
  const out = new Array<ClusterHit>(cells.length);
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i];
    const key = cellKey(cell.hi, cell.lo);
    const k = kept.get(key);
    if (
      k !== undefined &&
      k.count === cell.count &&
      k.south === cell.south &&
      k.west === cell.west &&
      k.north === cell.north &&
      k.east === cell.east &&
      k.lat === cell.lat &&
      k.lng === cell.lng
    ) {
      out[i] = k.hit;
      continue;
    }
    const hit = clusterHit(cell);
    Object.freeze(hit.bounds.ne);
    Object.freeze(hit.bounds.sw);
    Object.freeze(hit.bounds);
    out[i] = Object.freeze(hit);
    if (kept.size >= KEPT_HITS) kept.clear();
    kept.set(key, {
      hit,
      count: cell.count,
      south: cell.south,
      west: cell.west,
      north: cell.north,
      east: cell.east,
      lat: cell.lat,
      lng: cell.lng,
    });
  }
  return out;
}

/** items[order[0]], items[order[1]], ...: a loop, where Array.from with a map over a typed array iterates generically. */
function pick<T>(items: readonly T[], order: ArrayLike<number>): T[] {
  const out = new Array<T>(order.length);
  for (let i = 0; i < order.length; i++) out[i] = items[order[i]];
  return out;
}

/** Cells in id order (as CellGroups lists them) biggest first, then by id, so that the order is stable. */
function biggestFirst(cells: readonly ViewCell[]): ViewCell[] {
  return pick(
    cells,
    orderBy(cells.length, (i) => -cells[i].count),
  );
}

/**
 * The order `cluster=top` pages through cells, spread over the whole view: the view is cut into
 * a g x g grid, g = floor(sqrt(pageSize)), and the cells are dealt round-robin from the squares,
 * best representative first within each round. The first page then holds the best cell of up to
 * pageSize different squares instead of the best cells of the densest city, and paging on walks
 * every square down. A cell sits in the square of its representative (a stay, so in view).
 */
export function spreadOrder(cells: readonly ViewCell[], view: BoundingBox, pageSize: number, index: StayIndex): ViewCell[] {
  const { rank, lat, lng } = index;
  const g = Math.max(1, Math.floor(Math.sqrt(pageSize)));
  const width = view.west <= view.east ? view.east - view.west : view.east + 360 - view.west;
  const height = view.north - view.south;
  const byRank = pick(
    cells,
    orderBy(cells.length, (i) => rank[cells[i].best]),
  );
  const dealt = new Uint32Array(g * g);
  const round = new Uint32Array(byRank.length);
  byRank.forEach((cell, i) => {
    let dx = lng[cell.best] - view.west;
    if (dx < 0) dx += 360;
    const col = width > 0 ? Math.min(g - 1, Math.floor((dx / width) * g)) : 0;
    const row = height > 0 ? Math.min(g - 1, Math.floor(((lat[cell.best] - view.south) / height) * g)) : 0;
    round[i] = dealt[row * g + col]++;
  });
  // Within a round, best representative first.
  return pick(
    byRank,
    orderBy(byRank.length, (i) => round[i]),
  );
}
