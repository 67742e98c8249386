import { compareHalves, descendantRange, parentHi, parentLo } from '../geo/h3-cell.ts';
import type { StayIndex } from './stay-index.ts';

/**
 * The occupied H3 cells of one resolution, in id order. Stays sorted by their res-15 cell put the
 * stays of each cell in one run of positions, so a cell is described by where its run starts.
 */
export interface PyramidLevel {
  readonly resolution: number;
  /** Number of cells that hold at least one stay. */
  readonly size: number;
  /** Position of each cell's first stay in cell order; `start[size]` is the number of stays. */
  readonly start: Uint32Array;
  /** idx of each cell's best-ranked stay. */
  readonly best: Uint32Array;
  /**
   * Bounding box of each cell's stays, 4 per cell (south, west, north, east), rounded outwards
   * to float32 so that it always contains them. A cell across the antimeridian spans -180..180.
   */
  readonly box: Float32Array;
  /** Mean position of each cell's stays, 2 per cell (lat, lng). */
  readonly centroid: Float32Array;
}

/**
 * Per resolution 0..maxResolution: every occupied cell with its count, best stay, the box of its
 * stays and their centroid. A viewport then costs the cells it covers (walked down from r0, see
 * search/cluster-viewport.ts), not the stays inside it. 32 bytes per occupied cell per resolution
 * (start 4, best 4, box 16, centroid 8); the finest level dominates. A stay alone in its cell at
 * every level would cost 9 x 32 = 288 bytes, but stays share cells (cities): on the 1M-stay benchmark
 * world r8 has 0.26 cells per stay and the whole pyramid is ~15 bytes per stay
 * (bench/clustering.ts prints it). The deepest level is r8, the deepest cluster=auto/true uses;
 * finer top-mode cells are split from the stays of r8 cells, which lie in order of their cells.
 */
export interface CellPyramid {
  readonly maxResolution: number;
  /** levels[r] is resolution r. */
  readonly levels: readonly PyramidLevel[];
  /** Stays in the index. */
  readonly size: number;
  /** idx of the stay at a position of cell order. */
  idxAt(position: number): number;
  /** Position in cell order of the stay with this idx. */
  positionOf(idx: number): number;
  /** Positions [from, to) of the stays under a cell of any resolution, given as id halves. */
  cellRange(hi: number, lo: number): { from: number; to: number };
  /** Bytes held in typed arrays. */
  readonly bytes: number;
}

const TINY = 2 ** -126;
const EPS32 = 2 ** -23;

/** The largest float32 at most x. */
function down32(x: number): number {
  return Math.fround(x - Math.abs(x) * EPS32 - TINY);
}
/** The smallest float32 at least x. */
function up32(x: number): number {
  return Math.fround(x + Math.abs(x) * EPS32 + TINY);
}

/**
 * Builds the pyramid over an index. Ingestion numbers stays in res-15 cell order (inventory/
 * build-stays.ts), so cell order is usually idx order and costs nothing; an index in any other
 * order gets a permutation (8 bytes per stay) instead.
 */
export function buildCellPyramid(index: StayIndex, options: { maxResolution: number }): CellPyramid {
  const { maxResolution } = options;
  const n = index.size;
  const { h3Hi, h3Lo, lat, lng, rank } = index;

  let inOrder = true;
  for (let i = 1; i < n && inOrder; i++) if (compareHalves(h3Hi[i - 1], h3Lo[i - 1], h3Hi[i], h3Lo[i]) > 0) inOrder = false;
  let order: Uint32Array | null = null;
  let positions: Uint32Array | null = null;
  if (!inOrder) {
    const sorted = Array.from({ length: n }, (_, i) => i).sort((a, b) => compareHalves(h3Hi[a], h3Lo[a], h3Hi[b], h3Lo[b]) || a - b);
    order = Uint32Array.from(sorted);
    positions = new Uint32Array(n);
    for (let p = 0; p < n; p++) positions[order[p]] = p;
  }
  const idxAt = order === null ? (p: number) => p : (p: number) => order![p];

  const levels: PyramidLevel[] = new Array(maxResolution + 1);

  // Finest level from the stays themselves.
  let cells = 0;
  {
    let prevHi = -1, prevLo = -1;
    for (let p = 0; p < n; p++) {
      const idx = idxAt(p);
      const hi = parentHi(h3Hi[idx], maxResolution), lo = parentLo(h3Lo[idx], maxResolution);
      if (hi !== prevHi || lo !== prevLo) { cells++; prevHi = hi; prevLo = lo; }
    }
  }
  let start = new Uint32Array(cells + 1);
  let best = new Uint32Array(cells);
  let box = new Float32Array(cells * 4);
  // Sums in float64 while building; longitudes also wrapped to 0..360 for cells across 180.
  let sumLat = new Float64Array(cells), sumLng = new Float64Array(cells), sumWrapped = new Float64Array(cells);
  {
    let c = -1, prevHi = -1, prevLo = -1;
    let s = 0, w = 0, no = 0, e = 0;
    const close = () => {
      if (c < 0) return;
      box[4 * c] = down32(s); box[4 * c + 1] = down32(w); box[4 * c + 2] = up32(no); box[4 * c + 3] = up32(e);
    };
    for (let p = 0; p < n; p++) {
      const idx = idxAt(p);
      const hi = parentHi(h3Hi[idx], maxResolution), lo = parentLo(h3Lo[idx], maxResolution);
      const y = lat[idx], x = lng[idx];
      if (hi !== prevHi || lo !== prevLo) {
        close();
        c++; prevHi = hi; prevLo = lo;
        start[c] = p; best[c] = idx;
        s = no = y; w = e = x;
      } else {
        if (rank[idx] < rank[best[c]]) best[c] = idx;
        if (y < s) s = y; else if (y > no) no = y;
        if (x < w) w = x; else if (x > e) e = x;
      }
      sumLat[c] += y; sumLng[c] += x; sumWrapped[c] += x < 0 ? x + 360 : x;
    }
    close();
    start[cells] = n;
  }

  for (let r = maxResolution; ; r--) {
    const size = start.length - 1;
    const centroid = new Float32Array(size * 2);
    for (let c = 0; c < size; c++) {
      const count = start[c + 1] - start[c];
      centroid[2 * c] = sumLat[c] / count;
      let x = sumLng[c] / count;
      if (box[4 * c + 3] - box[4 * c + 1] > 180) {
        x = sumWrapped[c] / count;
        if (x > 180) x -= 360;
      }
      centroid[2 * c + 1] = x;
    }
    levels[r] = { resolution: r, size, start, best, box, centroid };
    if (r === 0) break;

    // The next coarser level: runs of children sharing a parent.
    const child = { start, best, box, sumLat, sumLng, sumWrapped };
    // A child's parent, from the res-15 cell of its first stay.
    const hiOf = (c: number) => parentHi(h3Hi[idxAt(child.start[c])], r - 1);
    const loOf = (c: number) => parentLo(h3Lo[idxAt(child.start[c])], r - 1);
    let parents = 0;
    {
      let prevHi = -1, prevLo = -1;
      for (let c = 0; c < size; c++) {
        const hi = hiOf(c), lo = loOf(c);
        if (hi !== prevHi || lo !== prevLo) { parents++; prevHi = hi; prevLo = lo; }
      }
    }
    start = new Uint32Array(parents + 1);
    best = new Uint32Array(parents);
    box = new Float32Array(parents * 4);
    sumLat = new Float64Array(parents); sumLng = new Float64Array(parents); sumWrapped = new Float64Array(parents);
    let q = -1, prevHi = -1, prevLo = -1;
    for (let c = 0; c < size; c++) {
      const hi = hiOf(c), lo = loOf(c);
      if (hi !== prevHi || lo !== prevLo) {
        q++; prevHi = hi; prevLo = lo;
        start[q] = child.start[c]; best[q] = child.best[c];
        for (let k = 0; k < 4; k++) box[4 * q + k] = child.box[4 * c + k];
      } else {
        if (rank[child.best[c]] < rank[best[q]]) best[q] = child.best[c];
        if (child.box[4 * c] < box[4 * q]) box[4 * q] = child.box[4 * c];
        if (child.box[4 * c + 1] < box[4 * q + 1]) box[4 * q + 1] = child.box[4 * c + 1];
        if (child.box[4 * c + 2] > box[4 * q + 2]) box[4 * q + 2] = child.box[4 * c + 2];
        if (child.box[4 * c + 3] > box[4 * q + 3]) box[4 * q + 3] = child.box[4 * c + 3];
      }
      sumLat[q] += child.sumLat[c]; sumLng[q] += child.sumLng[c]; sumWrapped[q] += child.sumWrapped[c];
    }
    start[parents] = n;
  }

  let bytes = (order?.byteLength ?? 0) + (positions?.byteLength ?? 0);
  for (const level of levels) bytes += level.start.byteLength + level.best.byteLength + level.box.byteLength + level.centroid.byteLength;

  /** First position whose res-15 id is at least (hi, lo). */
  const lowerBound = (hi: number, lo: number): number => {
    let a = 0, b = n;
    while (a < b) {
      const m = (a + b) >>> 1;
      const idx = idxAt(m);
      if (compareHalves(h3Hi[idx], h3Lo[idx], hi, lo) < 0) a = m + 1;
      else b = m;
    }
    return a;
  };

  return {
    maxResolution,
    levels,
    size: n,
    idxAt,
    positionOf: positions === null ? (idx) => idx : (idx) => positions![idx],
    cellRange(hi, lo) {
      const range = descendantRange(hi, lo);
      const from = lowerBound(range.firstHi, range.firstLo);
      // The last descendant id has every lower digit at 7, which no real res-15 cell has: the
      // first position past it is the first position at or after its successor.
      const to = range.lastLo === 0xffffffff ? lowerBound(range.lastHi + 1, 0) : lowerBound(range.lastHi, range.lastLo + 1);
      return { from, to: Math.max(from, to) };
    },
    bytes,
  };
}
