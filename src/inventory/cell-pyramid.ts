import { exactCell } from '../geo/exact-cell.ts';
import { compareHalves, resolutionOf } from '../geo/h3-cell.ts';
import { levelFacets, type BuiltFacets, type LevelFacets } from './cell-facets.ts';
import { exactCells, type StoredCells } from './exact-cells.ts';
import type { StayIndex } from './stay-index.ts';

/**
 * One resolution of the pyramid. Stays are ordered so that the stays sharing their cells at this
 * resolution and every coarser one lie in one run of positions: a piece. H3 cells do not nest, so
 * a cell can be cut by the edges of coarser cells into several pieces (1.1-1.4 per cell on the
 * benchmark world); pieces do nest, so the pyramid walks them as a tree.
 */
export interface PyramidLevel extends LevelFacets {
  readonly resolution: number;
  /** Number of pieces. */
  readonly size: number;
  /** Position of each piece's first stay; `start[size]` is the number of stays. */
  readonly start: Uint32Array;
  /** idx of each piece's best-ranked stay. */
  readonly best: Uint32Array;
  /**
   * Bounding box of each piece's stays, 4 per piece (south, west, north, east), rounded outwards
   * to float32 so that it always contains them. A piece across the antimeridian spans -180..180.
   */
  readonly box: Float32Array;
  /** Mean position of each piece's stays, 2 per piece (lat, lng). */
  readonly centroid: Float32Array;
  /** Each piece's cell, as a number into cellHi/cellLo. */
  readonly cell: Uint32Array;
  /** The occupied cells of the resolution in id order, as halves. */
  readonly cellHi: Uint32Array;
  readonly cellLo: Uint32Array;
  /**
   * The pieces ordered by their cell (then position): those of cell k are found by a binary
   * search on cell[byCell[i]], not listed by a per-cell start (4 bytes a cell the facets use).
   */
  readonly byCell: Uint32Array;
}

/**
 * Per resolution 0..maxResolution: the pieces of every occupied cell with their count, best
 * stay, the box of their stays and their centroid. A viewport then costs the pieces it covers
 * (walked down from r0, see search/cluster-viewport.ts), not the stays inside it. A stay's cell
 * is latLngToCell of its coordinates at every resolution (exact-cells.ts), never the parent of
 * its res-15 cell. 40 bytes per piece (start, best, cell and byCell 4 each, box 16, centroid 8),
 * 8 per cell (its id), 8 per stay for the order and its inverse, and the big pieces' facets
 * (cell-facets.ts); bench/clustering.ts prints the total per stay. The deepest level is r8, the deepest
 * cluster=auto/true uses; finer top-mode cells are computed stay by stay.
 */
export interface CellPyramid {
  readonly maxResolution: number;
  /** levels[r] is resolution r. */
  readonly levels: readonly PyramidLevel[];
  /** Stays in the index. */
  readonly size: number;
  /** The fewest stays of a piece with facet entries: smaller ones have none. */
  readonly facetMinStays: number;
  /** idx of the stay at a position of the pyramid's order. */
  idxAt(position: number): number;
  /** Position of the stay with this idx. */
  positionOf(idx: number): number;
  /**
   * Writes into out[0], out[1] the halves of the stay's cell at resolution `res` (0..15):
   * latLngToCell of its coordinates, from the pyramid up to maxResolution, computed finer.
   */
  cellOf(idx: number, res: number, out: Uint32Array): void;
  /**
   * The stays of a cell of resolution at most maxResolution, given as id halves: runs of
   * positions, flat [from, to, from, to, ...]; none when no stay lies in it.
   */
  cellRuns(hi: number, lo: number): number[];
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
 * Builds the pyramid over an index: every stay's cell at each resolution (exact-cells.ts), then
 * the stays ordered by their cells at r0, r1, .. maxResolution and their res-15 cell, so that
 * pieces nest, by one counting sort per resolution.
 */
export function buildCellPyramid(index: StayIndex, options: PyramidOptions): CellPyramid {
  return assembleCellPyramid(index, cellPyramidParts(index, options));
}

export interface PyramidOptions {
  maxResolution: number;
  /** The fewest stays a piece has facet entries for (cell-facets.ts); 1,024 unless given (tests give fewer). */
  facetMinStays?: number;
  /** The stays' exact cells as the version's chunks kept them (exact-cells.ts), or null to compute them. */
  stored?: StoredCells | null;
}

/** Pieces of fewer stays are scanned through a filter rather than given facet entries... */
export const FACET_MIN_STAYS = 1024;
/** ...but for those of this resolution and coarser, which all have them. */
export const FACET_EVERY_PIECE_TO = 0;

/**
 * What a pyramid is made of: typed arrays only, so a worker can build it and hand it over
 * (inventory/content-worker.ts) while the main thread keeps answering.
 */
export interface CellPyramidParts {
  maxResolution: number;
  facetMinStays: number;
  order: Uint32Array;
  positions: Uint32Array;
  levels: PyramidLevel[];
}

// Long (~150 lines) on purpose: one pass per level over the stays in cell order, its steps sharing
// the level's typed arrays; it is the build the index-build benchmark times, kept in one place.
export function cellPyramidParts(index: StayIndex, options: PyramidOptions): CellPyramidParts {
  const { maxResolution, facetMinStays = FACET_MIN_STAYS } = options;
  const n = index.size;
  const { h3Hi, h3Lo, lat, lng, rank } = index;
  const exact = exactCells(index, maxResolution, options.stored ?? null);

  // Res-15 order first (ingestion numbers stays so: usually nothing to sort), then a stable
  // counting sort by the cell of each resolution, finest first.
  let order = new Uint32Array(n);
  let inOrder = true;
  for (let i = 1; i < n && inOrder; i++) if (compareHalves(h3Hi[i - 1], h3Lo[i - 1], h3Hi[i], h3Lo[i]) > 0) inOrder = false;
  if (inOrder) for (let i = 0; i < n; i++) order[i] = i;
  else
    order = Uint32Array.from(
      Array.from({ length: n }, (_, i) => i).sort((a, b) => compareHalves(h3Hi[a], h3Lo[a], h3Hi[b], h3Lo[b]) || a - b),
    );
  let next = new Uint32Array(n);
  for (let r = maxResolution; r >= 0; r--) {
    const cellOfIdx = exact.cell[r];
    const counts = new Uint32Array(exact.cellHi[r].length + 1);
    for (let p = 0; p < n; p++) counts[cellOfIdx[order[p]] + 1]++;
    for (let k = 1; k < counts.length; k++) counts[k] += counts[k - 1];
    for (let p = 0; p < n; p++) next[counts[cellOfIdx[order[p]]]++] = order[p];
    [order, next] = [next, order];
  }
  const positions = new Uint32Array(n);
  for (let p = 0; p < n; p++) positions[order[p]] = p;
  const idxAt = (p: number) => order[p];
  // A new piece of resolution r starts at p when the stay's cell at r or a coarser one differs
  // from the previous stay's: split[p] is the coarsest such resolution (maxResolution + 1: none).
  const split = new Uint8Array(n);
  for (let p = 1; p < n; p++) {
    const a = order[p - 1],
      b = order[p];
    let r = 0;
    while (r <= maxResolution && exact.cell[r][a] === exact.cell[r][b]) r++;
    split[p] = r;
  }

  const levels: PyramidLevel[] = new Array(maxResolution + 1);
  /** The facet entries of the level built last (the finer one), which the next builds on. */
  let facets: BuiltFacets | null = null;

  // Finest level from the stays themselves.
  let cells = 0;
  for (let p = 0; p < n; p++) if (p === 0 || split[p] <= maxResolution) cells++;
  let start = new Uint32Array(cells + 1);
  let best = new Uint32Array(cells);
  let box = new Float32Array(cells * 4);
  // Sums in float64 while building; longitudes also wrapped to 0..360 for pieces across 180.
  let sumLat = new Float64Array(cells),
    sumLng = new Float64Array(cells),
    sumWrapped = new Float64Array(cells);
  {
    let c = -1;
    let s = 0,
      w = 0,
      no = 0,
      e = 0;
    const close = () => {
      if (c < 0) return;
      box[4 * c] = down32(s);
      box[4 * c + 1] = down32(w);
      box[4 * c + 2] = up32(no);
      box[4 * c + 3] = up32(e);
    };
    for (let p = 0; p < n; p++) {
      const idx = idxAt(p);
      const y = lat[idx],
        x = lng[idx];
      if (p === 0 || split[p] <= maxResolution) {
        close();
        c++;
        start[c] = p;
        best[c] = idx;
        s = no = y;
        w = e = x;
      } else {
        if (rank[idx] < rank[best[c]]) best[c] = idx;
        if (y < s) s = y;
        else if (y > no) no = y;
        if (x < w) w = x;
        else if (x > e) e = x;
      }
      sumLat[c] += y;
      sumLng[c] += x;
      sumWrapped[c] += x < 0 ? x + 360 : x;
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
    // Every piece of r0 (at most 122 cells, whatever the world's size): a whole-world view is
    // then added up from entries alone.
    facets = levelFacets(index, start, size, order, r <= FACET_EVERY_PIECE_TO ? 1 : facetMinStays, facets);
    levels[r] = {
      resolution: r,
      size,
      start,
      best,
      box,
      centroid,
      ...piecesByCell(start, size, exact.cell[r], exact.cellHi[r], exact.cellLo[r], idxAt),
      ...facets.facets,
    };
    if (r === 0) break;

    // The next coarser level: runs of pieces that share their cells at r - 1 and coarser.
    const child = { start, best, box, sumLat, sumLng, sumWrapped };
    const opens = (c: number) => c === 0 || split[child.start[c]] <= r - 1;
    let parents = 0;
    for (let c = 0; c < size; c++) if (opens(c)) parents++;
    start = new Uint32Array(parents + 1);
    best = new Uint32Array(parents);
    box = new Float32Array(parents * 4);
    sumLat = new Float64Array(parents);
    sumLng = new Float64Array(parents);
    sumWrapped = new Float64Array(parents);
    let q = -1;
    for (let c = 0; c < size; c++) {
      if (opens(c)) {
        q++;
        start[q] = child.start[c];
        best[q] = child.best[c];
        for (let k = 0; k < 4; k++) box[4 * q + k] = child.box[4 * c + k];
      } else {
        if (rank[child.best[c]] < rank[best[q]]) best[q] = child.best[c];
        if (child.box[4 * c] < box[4 * q]) box[4 * q] = child.box[4 * c];
        if (child.box[4 * c + 1] < box[4 * q + 1]) box[4 * q + 1] = child.box[4 * c + 1];
        if (child.box[4 * c + 2] > box[4 * q + 2]) box[4 * q + 2] = child.box[4 * c + 2];
        if (child.box[4 * c + 3] > box[4 * q + 3]) box[4 * q + 3] = child.box[4 * c + 3];
      }
      sumLat[q] += child.sumLat[c];
      sumLng[q] += child.sumLng[c];
      sumWrapped[q] += child.sumWrapped[c];
    }
    start[parents] = n;
  }

  return { maxResolution, facetMinStays, order, positions, levels };
}

/** The pyramid over an index from its parts (built here or in a worker). */
export function assembleCellPyramid(index: StayIndex, parts: CellPyramidParts): CellPyramid {
  const { maxResolution, facetMinStays, order, positions, levels } = parts;
  const n = index.size;
  const { h3Hi, h3Lo, lat, lng } = index;
  const idxAt = (p: number) => order[p];
  let bytes = order.byteLength + positions.byteLength;
  for (const level of levels) {
    for (const a of [
      level.start,
      level.best,
      level.box,
      level.centroid,
      level.cell,
      level.cellHi,
      level.cellLo,
      level.byCell,
      level.facetPieces,
      level.facetStart,
      level.facetCode,
      level.facetCount,
      level.facetBest,
      level.facetBox,
      level.facetCentroid,
    ])
      bytes += a.byteLength;
  }

  /** Index of the piece of a level holding a position. */
  const pieceAt = (level: PyramidLevel, p: number): number => {
    let a = 0,
      b = level.size - 1;
    while (a < b) {
      const m = (a + b + 1) >>> 1;
      if (level.start[m] <= p) a = m;
      else b = m - 1;
    }
    return a;
  };

  return {
    maxResolution,
    facetMinStays,
    levels,
    size: n,
    idxAt,
    positionOf: (idx) => positions[idx],
    cellOf(idx, res, out) {
      if (res > maxResolution) return exactCell(lat[idx], lng[idx], h3Hi[idx], h3Lo[idx], res, out);
      const level = levels[res];
      const k = level.cell[pieceAt(level, positions[idx])];
      out[0] = level.cellHi[k];
      out[1] = level.cellLo[k];
    },
    cellRuns(hi, lo) {
      const res = resolutionOf(hi);
      if (res > maxResolution) throw new Error(`cellRuns: r${res} is finer than the pyramid (r${maxResolution})`);
      const level = levels[res];
      let a = 0,
        b = level.cellHi.length;
      while (a < b) {
        const m = (a + b) >>> 1;
        if (compareHalves(level.cellHi[m], level.cellLo[m], hi, lo) < 0) a = m + 1;
        else b = m;
      }
      const runs: number[] = [];
      if (a === level.cellHi.length || level.cellHi[a] !== hi || level.cellLo[a] !== lo) return runs;
      // byCell is ordered by cell: its pieces of cell a follow the first.
      const { byCell, cell } = level;
      let i = 0,
        j = byCell.length;
      while (i < j) {
        const m = (i + j) >>> 1;
        if (cell[byCell[m]] < a) i = m + 1;
        else j = m;
      }
      for (; i < byCell.length && cell[byCell[i]] === a; i++) runs.push(level.start[byCell[i]], level.start[byCell[i] + 1]);
      return runs;
    },
    bytes,
  };
}

/** A level's pieces listed by cell (a counting sort), with each piece's cell. */
function piecesByCell(
  start: Uint32Array,
  size: number,
  cellOfIdx: Uint32Array,
  cellHi: Uint32Array,
  cellLo: Uint32Array,
  idxAt: (p: number) => number,
) {
  const cell = new Uint32Array(size);
  const fill = new Uint32Array(cellHi.length + 1);
  for (let c = 0; c < size; c++) {
    cell[c] = cellOfIdx[idxAt(start[c])];
    fill[cell[c] + 1]++;
  }
  for (let k = 1; k < fill.length; k++) fill[k] += fill[k - 1];
  const byCell = new Uint32Array(size);
  for (let c = 0; c < size; c++) byCell[fill[cell[c]]++] = c;
  return { cell, cellHi, cellLo, byCell };
}
