import { NO_RATING, NO_STARS, type StayIndex } from './stay-index.ts';
import { lowerBound } from './lower-bound.ts';
import { SUPPLIER_IDS } from '../types.ts';

/**
 * Per-attribute figures of the cell pyramid's big pieces, so that a viewport filtered by one
 * attribute (a type, a supplier, a guest rating or a star class) adds up whole pieces
 * instead of scanning their stays (issue 22). A facet is a dimension (one index column) and a
 * code (a value of that column: a rating's tenth, a star class's half star); a big piece holds,
 * for each dimension, the count, best stay, box and centroid of its stays of each code that
 * occurs in it (of a rating or star class: that code or higher, see atLeastDim). Every filter of
 * one attribute is then a sum of a piece's entries; two attributes scan the stays. Codes by whole
 * point left `minguestrating=8.5` scanning every stay in view (2.3 ms on the 1M viewport); a code
 * a tenth costs ~2 bytes a stay more.
 *
 * Only pieces of at least `minStays` stays have entries (1,024 by default: 904 pieces of the 1M
 * world, 103,000 entries, ~3.4 bytes per stay): a smaller piece costs little to scan, and paying
 * 33 bytes an entry for every small piece would double the pyramid.
 */
export interface LevelFacets {
  /** The pieces with entries, ascending. */
  readonly facetPieces: Uint32Array;
  /** Entries of dimension d of facetPieces[i]: facetStart[i * FACET_DIMS + d] .. facetStart[i * FACET_DIMS + d + 1] - 1. */
  readonly facetStart: Uint32Array;
  /** Each entry's code (< FACET_CODES); of an atLeastDim, the entry holds that code and every higher one but NO_CODE. */
  readonly facetCode: Uint8Array;
  readonly facetCount: Uint32Array;
  /** idx of the best-ranked stay of the entry. */
  readonly facetBest: Uint32Array;
  /** Box of the entry's stays, 4 an entry, rounded outwards to float32 as the pieces' boxes. */
  readonly facetBox: Float32Array;
  /** Mean position of the entry's stays, 2 an entry. */
  readonly facetCentroid: Float32Array;
}

/** The dimensions, in the order of the entries. */
export const FACET_TYPE = 0;
export const FACET_SUPPLIERS = 1;
export const FACET_RATING = 2;
export const FACET_STARS = 3;
export const FACET_DIMS = 4;
/** Codes per dimension: the 25 stay types, 15 supplier sets (and 4 suppliers), 101 ratings in tenths and 11 star classes in half stars, and none. */
export const FACET_CODES = 128;
/**
 * Of FACET_SUPPLIERS, the code of the entry of one supplier's stays, whatever else sells them:
 * this + its slot (its bit in the `suppliers` column). One supplier, the filter asked most, adds
 * one entry a piece, not the eight of the sets that hold it (provider=supplier_b made the whole
 * world 1.23-1.29x the unfiltered; type=hotel 1.16).
 */
export const SUPPLIER_CODE = 1 << SUPPLIER_IDS.length;
/** Suppliers: their entries are SUPPLIER_CODE + slot, the sets below (a bit a supplier) 1 .. SUPPLIER_CODE - 1. */
const SUPPLIER_SLOTS = SUPPLIER_IDS.length;
/** The code of a stay without a guest rating or star class. */
export const NO_CODE = FACET_CODES - 1;

/**
 * Whether a dimension's entries hold their code's stays and every higher code's (NO_CODE's: its
 * own only): ratings and star classes, which filters ask as a minimum. Such a filter then adds
 * one entry a piece, not one per tenth above it (up to 21 for `minguestrating=8`, which made the
 * filtered whole world 1.4x the unfiltered).
 */
export function atLeastDim(dim: number): boolean {
  return dim === FACET_RATING || dim === FACET_STARS;
}

/** Whether an entry of `code` in dimension `dim` holds a stay whose column value is `value`. */
export function entryHolds(dim: number, code: number, value: number): boolean {
  const own = facetCode(dim, value);
  if (atLeastDim(dim)) return code === NO_CODE ? own === NO_CODE : own >= code && own !== NO_CODE;
  if (dim === FACET_SUPPLIERS && code >= SUPPLIER_CODE) return (value & (1 << (code - SUPPLIER_CODE))) !== 0;
  return own === code;
}

/** The index column of a dimension. */
export function facetColumn(index: StayIndex, dim: number): Uint8Array {
  return [index.type, index.suppliers, index.rating, index.stars][dim];
}

/**
 * The code of a column value: the value itself (a type's code, a supplier set, a guest rating in
 * tenths, a star class in half stars); none (NO_RATING, NO_STARS) is NO_CODE. A value no stay
 * can have (a rating of 18.0) has none: FACET_CODES.
 */
export function facetCode(dim: number, value: number): number {
  if (dim === FACET_RATING) return value === NO_RATING ? NO_CODE : value <= 100 ? value : FACET_CODES;
  if (dim === FACET_STARS) return value === NO_STARS ? NO_CODE : value <= 10 ? value : FACET_CODES;
  // A supplier set is a bit a supplier: the codes above are the suppliers' own entries, no value's.
  if (dim === FACET_SUPPLIERS) return value < SUPPLIER_CODE ? value : FACET_CODES;
  return value < NO_CODE ? value : FACET_CODES;
}

const TINY = 2 ** -126;
const EPS32 = 2 ** -23;
const down32 = (x: number) => Math.fround(x - Math.abs(x) * EPS32 - TINY);
const up32 = (x: number) => Math.fround(x + Math.abs(x) * EPS32 + TINY);

/** Each dimension's code of every byte value (a value no stay can have: NO_CODE). */
const CODE_OF = Array.from({ length: FACET_DIMS }, (_, d) =>
  Uint8Array.from({ length: 256 }, (_, v) => Math.min(NO_CODE, facetCode(d, v))),
);

/** Per entry in `raw`: its code's own stays' box (4), sums of lat, lng, wrapped lng (3), count and best. */
const RAW = 9;

/** A level's entries with their own code's figures, unrounded (RAW an entry), for the next coarser level. */
export interface BuiltFacets {
  facets: LevelFacets;
  /** The level's piece starts. */
  start: Uint32Array;
  raw: Float64Array;
}

/**
 * The entries of one level: for each piece of at least `minStays` stays (positions
 * start[c] .. start[c + 1] - 1 of `order`), its stays by code in each dimension. Built from the
 * finer level's (`finer`, built just before: pieces nest) where a child piece has entries, from
 * the stays of the others, so each stay is tallied about once, not once a level.
 */
export function levelFacets(
  index: StayIndex,
  start: Uint32Array,
  size: number,
  order: Uint32Array,
  minStays: number,
  finer: BuiltFacets | null,
): BuiltFacets {
  const { lat, lng, rank } = index;
  const pieces: number[] = [];
  for (let c = 0; c < size; c++) if (start[c + 1] - start[c] >= minStays) pieces.push(c);
  const slots = FACET_DIMS * FACET_CODES;
  // Running figures of one piece, slot d * FACET_CODES + code.
  const count = new Uint32Array(slots),
    best = new Uint32Array(slots),
    s = new Float64Array(slots),
    w = new Float64Array(slots),
    n = new Float64Array(slots),
    e = new Float64Array(slots),
    sumLat = new Float64Array(slots),
    sumLng = new Float64Array(slots),
    sumWrapped = new Float64Array(slots);
  const facetStart = new Uint32Array(pieces.length * FACET_DIMS + 1);
  const codes: number[] = [],
    counts: number[] = [],
    bests: number[] = [],
    boxes: number[] = [],
    centroids: number[] = [],
    raw: number[] = [];
  /** Adds figures (a stay's, or a finer entry's) to slot k. */
  const merge = (
    k: number,
    cnt: number,
    b: number,
    y0: number,
    x0: number,
    y1: number,
    x1: number,
    sy: number,
    sx: number,
    sxw: number,
  ) => {
    if (count[k] === 0) {
      best[k] = b;
      s[k] = y0;
      w[k] = x0;
      n[k] = y1;
      e[k] = x1;
      sumLat[k] = sy;
      sumLng[k] = sx;
      sumWrapped[k] = sxw;
    } else {
      if (rank[b] < rank[best[k]]) best[k] = b;
      if (y0 < s[k]) s[k] = y0;
      if (y1 > n[k]) n[k] = y1;
      if (x0 < w[k]) w[k] = x0;
      if (x1 > e[k]) e[k] = x1;
      sumLat[k] += sy;
      sumLng[k] += sx;
      sumWrapped[k] += sxw;
    }
    count[k] += cnt;
  };
  const { type, suppliers, rating, stars } = index;
  const typeCode = CODE_OF[FACET_TYPE],
    suppliersCode = CODE_OF[FACET_SUPPLIERS],
    ratingCode = CODE_OF[FACET_RATING],
    starsCode = CODE_OF[FACET_STARS];
  const scan = (from: number, to: number) => {
    for (let p = from; p < to; p++) {
      const idx = order[p];
      const y = lat[idx],
        x = lng[idx];
      const xw = x < 0 ? x + 360 : x;
      merge(FACET_TYPE * FACET_CODES + typeCode[type[idx]], 1, idx, y, x, y, x, y, x, xw);
      merge(FACET_SUPPLIERS * FACET_CODES + suppliersCode[suppliers[idx]], 1, idx, y, x, y, x, y, x, xw);
      merge(FACET_RATING * FACET_CODES + ratingCode[rating[idx]], 1, idx, y, x, y, x, y, x, xw);
      merge(FACET_STARS * FACET_CODES + starsCode[stars[idx]], 1, idx, y, x, y, x, y, x, xw);
    }
  };
  for (let i = 0; i < pieces.length; i++) {
    const c = pieces[i];
    count.fill(0);
    if (finer === null) scan(start[c], start[c + 1]);
    else {
      const f = finer.facets,
        fs = finer.start,
        fr = finer.raw;
      // The children: the finer pieces starting within this one.
      let d = lowerBound(fs, start[c], 0, fs.length - 1);
      for (; d < fs.length - 1 && fs[d] < start[c + 1]; d++) {
        const j = facetPieceOf(f, d);
        if (j < 0) {
          scan(fs[d], fs[d + 1]);
          continue;
        }
        for (let dim = 0; dim < FACET_DIMS; dim++) {
          for (let q = f.facetStart[j * FACET_DIMS + dim]; q < f.facetStart[j * FACET_DIMS + dim + 1]; q++) {
            // A supplier's entry is its sets' again: derived below, not added twice.
            if (dim === FACET_SUPPLIERS && f.facetCode[q] >= SUPPLIER_CODE) continue;
            const r = RAW * q;
            merge(
              dim * FACET_CODES + f.facetCode[q],
              fr[r + 7],
              fr[r + 8],
              fr[r],
              fr[r + 1],
              fr[r + 2],
              fr[r + 3],
              fr[r + 4],
              fr[r + 5],
              fr[r + 6],
            );
          }
        }
      }
    }
    // Each supplier's entry from the sets it is in.
    for (let slot = 0; slot < SUPPLIER_SLOTS; slot++) {
      const to = FACET_SUPPLIERS * FACET_CODES + SUPPLIER_CODE + slot;
      for (let set = 1; set < SUPPLIER_CODE; set++) {
        const k = FACET_SUPPLIERS * FACET_CODES + set;
        if ((set & (1 << slot)) !== 0 && count[k] > 0)
          merge(to, count[k], best[k], s[k], w[k], n[k], e[k], sumLat[k], sumLng[k], sumWrapped[k]);
      }
    }
    for (let d = 0; d < FACET_DIMS; d++) {
      facetStart[i * FACET_DIMS + d] = codes.length;
      const first = codes.length;
      for (let code = 0; code < FACET_CODES; code++) {
        const k = d * FACET_CODES + code;
        if (count[k] === 0) continue;
        codes.push(code);
        raw.push(s[k], w[k], n[k], e[k], sumLat[k], sumLng[k], sumWrapped[k], count[k], best[k]);
      }
      // The entries from their codes' own figures, top down: of an atLeastDim, each code's entry
      // also takes the higher codes' stays (NO_CODE, the last, only its own).
      const cumulative = atLeastDim(d);
      let cnt = 0,
        b = -1,
        y0 = Infinity,
        x0 = Infinity,
        y1 = -Infinity,
        x1 = -Infinity,
        sy = 0,
        sx = 0,
        sxw = 0;
      for (let q = codes.length - 1; q >= first; q--) {
        const r = RAW * q;
        if (!cumulative || codes[q] === NO_CODE || cnt === 0) {
          cnt = 0;
          b = raw[r + 8];
          y0 = x0 = Infinity;
          y1 = x1 = -Infinity;
          sy = sx = sxw = 0;
        } else if (rank[raw[r + 8]] < rank[b]) b = raw[r + 8];
        cnt += raw[r + 7];
        y0 = Math.min(y0, raw[r]);
        x0 = Math.min(x0, raw[r + 1]);
        y1 = Math.max(y1, raw[r + 2]);
        x1 = Math.max(x1, raw[r + 3]);
        sy += raw[r + 4];
        sx += raw[r + 5];
        sxw += raw[r + 6];
        counts[q] = cnt;
        bests[q] = b;
        boxes[4 * q] = down32(y0);
        boxes[4 * q + 1] = down32(x0);
        boxes[4 * q + 2] = up32(y1);
        boxes[4 * q + 3] = up32(x1);
        let x = sx / cnt;
        // Stays across the antimeridian: their mean on 0..360, as the pieces' centroids.
        if (Math.fround(up32(x1)) - Math.fround(down32(x0)) > 180) {
          x = sxw / cnt;
          if (x > 180) x -= 360;
        }
        centroids[2 * q] = sy / cnt;
        centroids[2 * q + 1] = x;
        // NO_CODE's stays are no higher code's: the next one down starts afresh.
        if (codes[q] === NO_CODE) cnt = 0;
      }
    }
  }
  facetStart[pieces.length * FACET_DIMS] = codes.length;
  return {
    facets: {
      facetPieces: Uint32Array.from(pieces),
      facetStart,
      facetCode: Uint8Array.from(codes),
      facetCount: Uint32Array.from(counts),
      facetBest: Uint32Array.from(bests),
      facetBox: Float32Array.from(boxes),
      facetCentroid: Float32Array.from(centroids),
    },
    start,
    raw: Float64Array.from(raw),
  };
}

/** Which of piece c's entries a level holds: its number among facetPieces, or -1 (a small piece). */
export function facetPieceOf(facets: LevelFacets, c: number): number {
  const pieces = facets.facetPieces;
  const i = lowerBound(pieces, c);
  return i < pieces.length && pieces[i] === c ? i : -1;
}
