import { exactCell, parentHoldsMask } from '../geo/exact-cell.ts';
import { cellKey, keyHi, keyLo, parentHi, parentLo } from '../geo/h3-cell.ts';
import type { StayIndex } from './stay-index.ts';

/** Every stay's cell at each resolution 0..maxResolution: latLngToCell of its coordinates. */
export interface ExactCells {
  /** cell[r][idx]: the stay's cell at r, as a number into cellHi[r]/cellLo[r]. */
  readonly cell: Uint32Array[];
  /** The occupied cells of resolution r, in id order, as halves. */
  readonly cellHi: Uint32Array[];
  readonly cellLo: Uint32Array[];
}

/**
 * Computes them at boot: the parent of the stay's res-15 cell where that is sure, h3-js
 * latLngToCell elsewhere (geo/exact-cell.ts; on the benchmark world ~7% of stays per resolution,
 * about 0.7 million calls for 1M stays over r0..r8).
 *
 * Ingestion numbers stays in res-15 cell order, and a parent's id keeps its children's order, so
 * the parents alone are already sorted: only the corrected cells (h3-js's answers) are sorted and
 * searched, and the rest numbered in one walk. An index in another order sorts every key.
 */
export function exactCells(index: StayIndex, maxResolution: number): ExactCells {
  const n = index.size;
  const { lat, lng, h3Hi, h3Lo } = index;
  const holds = new Uint16Array(n);
  for (let idx = 0; idx < n; idx++) holds[idx] = parentHoldsMask(h3Hi[idx], h3Lo[idx], maxResolution);
  const cell: Uint32Array[] = [];
  const cellHi: Uint32Array[] = [];
  const cellLo: Uint32Array[] = [];
  const keys = new Float64Array(n);
  const out = new Uint32Array(2);
  for (let r = 0; r <= maxResolution; r++) {
    let corrected = 0;
    let parentsSorted = true;
    let last = -1;
    for (let idx = 0; idx < n; idx++) {
      if ((holds[idx] >>> r) & 1) {
        const key = cellKey(parentHi(h3Hi[idx], r), parentLo(h3Lo[idx], r));
        if (key < last) parentsSorted = false;
        keys[idx] = last = key;
      } else {
        exactCell(lat[idx], lng[idx], h3Hi[idx], h3Lo[idx], r, out);
        keys[idx] = cellKey(out[0], out[1]);
        corrected++;
      }
    }
    const distinct = parentsSorted ? mergedDistinct(keys, holds, r, corrected) : sortedDistinct(keys);
    const number = new Uint32Array(n);
    for (let idx = 0, at = 0; idx < n; idx++) {
      const key = keys[idx];
      if (parentsSorted && (holds[idx] >>> r) & 1) {
        while (distinct[at] < key) at++;
        number[idx] = at;
      } else number[idx] = firstAtLeast(distinct, key);
    }
    cell.push(number);
    cellHi.push(Uint32Array.from(distinct, (key) => keyHi(key, r)));
    cellLo.push(Uint32Array.from(distinct, keyLo));
  }
  return { cell, cellHi, cellLo };
}

/** The distinct keys in order, when the parents' keys (bit r of holds) already are: the corrected ones sorted and merged in. */
function mergedDistinct(keys: Float64Array, holds: Uint16Array, r: number, corrected: number): Float64Array {
  const n = keys.length;
  const extra = new Float64Array(corrected);
  for (let idx = 0, e = 0; idx < n; idx++) if (!((holds[idx] >>> r) & 1)) extra[e++] = keys[idx];
  extra.sort();
  const distinct = new Float64Array(n);
  let cells = 0;
  const push = (key: number) => {
    if (cells === 0 || distinct[cells - 1] !== key) distinct[cells++] = key;
  };
  let e = 0;
  for (let idx = 0; idx < n; idx++) {
    if (!((holds[idx] >>> r) & 1)) continue;
    const key = keys[idx];
    while (e < corrected && extra[e] <= key) push(extra[e++]);
    push(key);
  }
  while (e < corrected) push(extra[e++]);
  return distinct.slice(0, cells);
}

/** The distinct keys in order, from keys in any order. */
function sortedDistinct(keys: Float64Array): Float64Array {
  const sorted = keys.slice().sort();
  let cells = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[cells++] = sorted[i];
  return sorted.slice(0, cells);
}

/** The first i with a[i] >= key (a ascending); lower-bound.ts's over float64 keys, kept apart so that one stays monomorphic on the hot path. */
function firstAtLeast(a: Float64Array, key: number): number {
  let lo = 0,
    hi = a.length;
  while (lo < hi) {
    const m = (lo + hi) >>> 1;
    if (a[m] < key) lo = m + 1;
    else hi = m;
  }
  return lo;
}
