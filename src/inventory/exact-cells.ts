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
    for (let idx = 0; idx < n; idx++) {
      if ((holds[idx] >>> r) & 1) keys[idx] = cellKey(parentHi(h3Hi[idx], r), parentLo(h3Lo[idx], r));
      else {
        exactCell(lat[idx], lng[idx], h3Hi[idx], h3Lo[idx], r, out);
        keys[idx] = cellKey(out[0], out[1]);
      }
    }
    const sorted = keys.slice().sort();
    let cells = 0;
    for (let i = 0; i < n; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[cells++] = sorted[i];
    const distinct = sorted.subarray(0, cells);
    const number = new Uint32Array(n);
    for (let idx = 0; idx < n; idx++) {
      let a = 0,
        b = cells - 1;
      const key = keys[idx];
      while (a < b) {
        const m = (a + b) >>> 1;
        if (distinct[m] < key) a = m + 1;
        else b = m;
      }
      number[idx] = a;
    }
    cell.push(number);
    cellHi.push(Uint32Array.from(distinct, (key) => keyHi(key, r)));
    cellLo.push(Uint32Array.from(distinct, keyLo));
  }
  return { cell, cellHi, cellLo };
}
