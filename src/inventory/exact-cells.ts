import { exactCell, parentHoldsMask } from '../geo/exact-cell.ts';
import { cellHalves, cellKey, keyHi, keyLo, parentHi, parentLo } from '../geo/h3-cell.ts';
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
 * The exact cells a publish computed (encodeChunkCells), read back from a version's chunks: bit r
 * of holds[idx] set when the stay's cell at r is its res-15 cell's parent, and the others' cells
 * at r as keys in idx order, for r up to maxResolution.
 */
export interface StoredCells {
  maxResolution: number;
  holds: Uint16Array;
  keys: Float64Array[];
}

/**
 * Computes them at boot: the parent of the stay's res-15 cell where that is sure, h3-js
 * latLngToCell elsewhere (geo/exact-cell.ts; 13-17% of stays per resolution on a 2M store, 2.5
 * million calls over r0..r8, most of a warm start), or what a publish stored of them (`stored`, to
 * its resolution; docs/decisions.md 215).
 *
 * Ingestion numbers stays in res-15 cell order, and a parent's id keeps its children's order, so
 * the parents alone are already sorted: only the corrected cells (h3-js's answers) are sorted and
 * searched, and the rest numbered in one walk. An index in another order sorts every key.
 */
export function exactCells(index: StayIndex, maxResolution: number, stored: StoredCells | null = null): ExactCells {
  const n = index.size;
  const { lat, lng, h3Hi, h3Lo } = index;
  const covered = stored === null ? -1 : Math.min(stored.maxResolution, maxResolution);
  const holds = holdsOf(index, maxResolution, stored);
  const cell: Uint32Array[] = [];
  const cellHi: Uint32Array[] = [];
  const cellLo: Uint32Array[] = [];
  const keys = new Float64Array(n);
  const out = new Uint32Array(2);
  for (let r = 0; r <= maxResolution; r++) {
    let corrected = 0;
    let parentsSorted = true;
    let last = -1;
    const storedKeys = r <= covered ? stored!.keys[r] : null;
    for (let idx = 0; idx < n; idx++) {
      if ((holds[idx] >>> r) & 1) {
        const key = cellKey(parentHi(h3Hi[idx], r), parentLo(h3Lo[idx], r));
        if (key < last) parentsSorted = false;
        keys[idx] = last = key;
      } else if (storedKeys !== null) {
        keys[idx] = storedKeys[corrected++];
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

/**
 * Bit r of a stay's entry set when its cell at r is its res-15 cell's parent: as stored to the
 * stored resolution, as geo/exact-cell.ts proves it past that (every resolution when nothing is
 * stored). The stored bits are copied, not changed.
 */
export function holdsOf(index: StayIndex, maxResolution: number, stored: StoredCells | null): Uint16Array {
  const covered = stored === null ? -1 : Math.min(stored.maxResolution, maxResolution);
  const holds = covered < 0 ? new Uint16Array(index.size) : stored!.holds.slice();
  if (covered < maxResolution) {
    const computed = -1 << (covered + 1); // the bits of r > covered
    for (let idx = 0; idx < index.size; idx++) holds[idx] |= parentHoldsMask(index.h3Hi[idx], index.h3Lo[idx], maxResolution) & computed;
  }
  return holds;
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

/** Layout of encodeChunkCells's bytes; a chunk of another (or none) is computed at the start instead. */
const CELLS_FORMAT = 1;

/**
 * A chunk's stays' exact cells at r0..maxResolution, packed for the store to keep beside the
 * chunk (its `cells`), so that every later start reads what the publish computed instead of
 * asking h3-js again (docs/decisions.md 215). Uint32 words: the format, maxResolution, the stays;
 * then for each r a bitset of the stays whose cell at r is their res-15 cell's parent, the count
 * of the others, and their cells (hi, lo) in order.
 */
export function encodeChunkCells(stays: readonly { lat: number; lng: number; h3: string }[], maxResolution: number): Uint8Array {
  const n = stays.length;
  const bitsetWords = Math.ceil(n / 32);
  const hi = new Uint32Array(n);
  const lo = new Uint32Array(n);
  const holds = new Uint16Array(n);
  for (let i = 0; i < n; i++) {
    const halves = cellHalves(stays[i].h3);
    if (halves === null) throw new Error(`exact cells: ${JSON.stringify(stays[i].h3)} is not a cell`);
    hi[i] = halves.hi;
    lo[i] = halves.lo;
    holds[i] = parentHoldsMask(hi[i], lo[i], maxResolution);
  }
  const words: number[] = [CELLS_FORMAT, maxResolution, n];
  const out = new Uint32Array(2);
  for (let r = 0; r <= maxResolution; r++) {
    const bitset = words.length;
    for (let w = 0; w < bitsetWords; w++) words.push(0);
    const count = words.length;
    words.push(0);
    for (let i = 0; i < n; i++) {
      const pHi = parentHi(hi[i], r),
        pLo = parentLo(lo[i], r);
      if (!((holds[i] >>> r) & 1)) {
        exactCell(stays[i].lat, stays[i].lng, hi[i], lo[i], r, out);
        if (out[0] !== pHi || out[1] !== pLo) {
          words.push(out[0], out[1]);
          words[count]++;
          continue;
        }
      }
      words[bitset + (i >>> 5)] |= 1 << (i & 31);
    }
  }
  return new Uint8Array(Uint32Array.from(words).buffer);
}

/**
 * The stored cells of a version's chunks (each chunk's `cells` and rows, in idx order), or null
 * when a chunk has none or another format (a version published before them, or by another layout):
 * the start then computes them.
 */
export function storedCells(chunks: readonly { cells: Uint8Array | null; rows: number }[], n: number): StoredCells | null {
  if (chunks.length === 0 || chunks.reduce((sum, c) => sum + c.rows, 0) !== n) return null;
  if (chunks.some((c) => c.cells === null || c.cells.byteLength % 4 !== 0)) return null;
  // Copies: typed-array views need an aligned offset, and a driver's Buffer may sit anywhere.
  const words = chunks.map((c) => new Uint32Array(new Uint8Array(c.cells!).buffer));
  if (words.some((w, i) => w.length < 3 || w[0] !== CELLS_FORMAT || w[2] !== chunks[i].rows)) return null;
  const maxResolution = Math.min(...words.map((w) => w[1]));
  const holds = new Uint16Array(n);
  const keys: Float64Array[] = [];
  const at = words.map(() => 3);
  for (let r = 0; r <= maxResolution; r++) {
    const corrected: number[] = [];
    for (let c = 0, first = 0; c < chunks.length; first += chunks[c].rows, c++) {
      const w = words[c];
      const rows = chunks[c].rows;
      const bitset = at[c];
      const cells = bitset + Math.ceil(rows / 32) + 1;
      const count = w[cells - 1];
      if (cells + 2 * count > w.length) return null;
      let parents = 0;
      for (let i = 0; i < rows; i++) {
        if ((w[bitset + (i >>> 5)] >>> (i & 31)) & 1) {
          holds[first + i] |= 1 << r;
          parents++;
        }
      }
      if (parents + count !== rows) return null;
      for (let k = 0; k < count; k++) corrected.push(cellKey(w[cells + 2 * k], w[cells + 2 * k + 1]));
      at[c] = cells + 2 * count;
    }
    keys.push(Float64Array.from(corrected));
  }
  return { maxResolution, holds, keys };
}
