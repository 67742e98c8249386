// The cell of a point at a resolution exactly as h3-js latLngToCell answers it, mostly without
// calling into h3-js: from the point's res-15 cell when that decides it.
//
// H3 cells do not nest. A cell's res-15 descendants (the cells whose id digits start with its
// own, cellToParent) cover a ragged region that only roughly follows its hexagon, so near an
// edge the parent of a point's res-15 cell is a neighbour of the cell that holds the point: about
// 6% of the stays of the benchmark world at each resolution r0..r8. Partners draw cells with
// cellToBoundary and compute them with latLngToCell, so the gateway must go by the hexagon.
//
// Why the res-15 cell mostly decides it: latLngToCell projects the point onto its nearest
// icosahedron face and rounds its position there to the nearest cell centre of the resolution's
// lattice; a res-15 id's digits walk the same face's lattices up, each resolution's lattice being
// the next finer one scaled by sqrt 7 and turned by ~19.1 degrees (H3's _downAp7/_downAp7r), and
// a base cell's rotation turns every digit alike by a multiple of 60 degrees, which no hexagon
// notices. So the centre of a res-15 cell relative to the centre of its parent at resolution r is
// a sum of fixed vectors, one per digit r+1..15. When that centre, widened by the res-15 cell's
// own radius, is nearer the parent's centre than any of its six neighbours' (inside the parent's
// hexagon, with a margin), so is the point, and latLngToCell is the parent. Otherwise (the point
// lies within a res-15 cell of the hexagon's edge, or beyond it) h3-js decides. Pentagon base
// cells turn their digits one by one: there h3-js always decides.

import { latLngToCell } from 'h3-js';
import { H3_MAX_RESOLUTION, parentHi, parentLo } from './h3-cell.ts';

const SQRT3_2 = Math.sqrt(3) / 2;
/** Radius of a res-15 cell in res-15 lattice units (centres 1 apart), plus room for rounding. */
const MARGIN = 1 / Math.sqrt(3) + 0.05;
/** H3's unit vectors of the digits 0..6 (centre, K, J, JK, I, IK, IJ) as ijk. */
const UNIT_IJK = [
  [0, 0, 0],
  [0, 0, 1],
  [0, 1, 0],
  [0, 1, 1],
  [1, 0, 0],
  [1, 0, 1],
  [1, 1, 0],
];
/** Base cells of the 12 pentagons. */
const PENTAGONS = new Set([4, 14, 24, 38, 49, 58, 63, 72, 83, 97, 107, 117]);

/**
 * STEP_X/STEP_Y[16 * d + q]: the vector of digit d at resolution q (a child's centre from its
 * parent's), in the res-15 lattice's plane: the unit vector taken down to res 15 as H3 does,
 * _downAp7 into the odd (class III) resolutions and _downAp7r into the even ones.
 */
const STEP_X = new Float64Array(16 * 7);
const STEP_Y = new Float64Array(16 * 7);
for (let d = 0; d < 7; d++) {
  for (let q = 0; q <= H3_MAX_RESOLUTION; q++) {
    let [i, j, k] = UNIT_IJK[d];
    for (let r = q + 1; r <= H3_MAX_RESOLUTION; r++) {
      [i, j, k] = r % 2 === 1 ? [3 * i + j, 3 * j + k, i + 3 * k] : [3 * i + k, i + 3 * j, j + 3 * k];
      const m = Math.min(i, j, k);
      i -= m;
      j -= m;
      k -= m;
    }
    const a = i - k,
      b = j - k; // ijk to hex2d, as H3's _ijkToHex2d
    STEP_X[16 * d + q] = a - 0.5 * b;
    STEP_Y[16 * d + q] = b * SQRT3_2;
  }
}
/**
 * Per resolution r, the unit normals of the three pairs of hexagon edges (towards the K, J and
 * JK neighbours; the I, IK and IJ ones are their opposites) and the distance from the centre up
 * to which a res-15 cell's centre leaves the whole res-15 cell inside (half the centre spacing,
 * less MARGIN), all in res-15 lattice units.
 */
const NORMAL_X = new Float64Array(16 * 3);
const NORMAL_Y = new Float64Array(16 * 3);
const INSIDE = new Float64Array(16);
for (let r = 0; r <= H3_MAX_RESOLUTION; r++) {
  for (let n = 0; n < 3; n++) {
    const x = STEP_X[16 * (n + 1) + r],
      y = STEP_Y[16 * (n + 1) + r];
    const length = Math.hypot(x, y);
    NORMAL_X[3 * r + n] = x / length;
    NORMAL_Y[3 * r + n] = y / length;
    if (n === 0) INSIDE[r] = length / 2 - MARGIN;
  }
}

/** Digit q (1..15) of a cell id given as halves. */
function digit(hi: number, lo: number, q: number): number {
  const shift = 3 * (H3_MAX_RESOLUTION - q);
  if (shift >= 32) return (hi >>> (shift - 32)) & 7;
  if (shift === 30) return ((lo >>> 30) | (hi << 2)) & 7;
  return (lo >>> shift) & 7;
}

/**
 * Bit r (0..maxResolution) set when every point of the res-15 cell (hi, lo) lies inside the
 * hexagon of its parent at r, so that latLngToCell of the point at r is that parent. A bit not set
 * says nothing: ask h3-js.
 */
export function parentHoldsMask(hi: number, lo: number, maxResolution: number): number {
  if (PENTAGONS.has((hi >>> 13) & 0x7f)) return 0;
  let mask = 0;
  let x = 0,
    y = 0;
  for (let r = H3_MAX_RESOLUTION - 1; r >= 0; r--) {
    const d = digit(hi, lo, r + 1);
    x += STEP_X[16 * d + r + 1];
    y += STEP_Y[16 * d + r + 1];
    if (r > maxResolution) continue;
    const limit = INSIDE[r];
    if (
      Math.abs(x * NORMAL_X[3 * r] + y * NORMAL_Y[3 * r]) < limit &&
      Math.abs(x * NORMAL_X[3 * r + 1] + y * NORMAL_Y[3 * r + 1]) < limit &&
      Math.abs(x * NORMAL_X[3 * r + 2] + y * NORMAL_Y[3 * r + 2]) < limit
    )
      mask |= 1 << r;
  }
  return mask;
}

/**
 * Writes into out[0], out[1] the halves of latLngToCell(lat, lng, res), for a point whose res-15
 * cell (latLngToCell(lat, lng, 15)) is (hi, lo): its parent when that is sure, h3-js's answer
 * otherwise. At res 15 it is the res-15 cell itself.
 */
export function exactCell(lat: number, lng: number, hi: number, lo: number, res: number, out: Uint32Array): void {
  if (res === H3_MAX_RESOLUTION) {
    out[0] = hi;
    out[1] = lo;
  } else if (res < H3_MAX_RESOLUTION - 3 && (parentHoldsMask(hi, lo, res) >>> res) & 1) {
    // Finer than r11 a res-15 cell is too large against the hexagon for the test to pay.
    out[0] = parentHi(hi, res);
    out[1] = parentLo(lo, res);
  } else {
    // A cell id (mode 1) is always 15 hex digits: cut without cellHalves's
    // check and object (0.6M calls a 1M-stay pyramid build).
    const cell = latLngToCell(lat, lng, res);
    out[0] = parseInt(cell.slice(0, -8), 16);
    out[1] = parseInt(cell.slice(-8), 16);
  }
}
