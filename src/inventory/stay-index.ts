import KDBush from 'kdbush';
import { countInBox } from './count-in-box.ts';
import { indexChunkColumns } from '../store/index-chunk.ts';
import type { IndexChunk } from '../store/store.ts';
import { STAY_TYPES, SUPPLIER_IDS, type StayType, type SupplierId } from '../types.ts';
import { growTypedArray } from './grow-typed-array.ts';

/** Sentinel in the `stars` column for a stay without a star class. */
export const NO_STARS = 255;
/** Sentinel in the `rating` and `listingRating` columns for no guest rating (docs/decisions.md 137). */
export const NO_RATING = 255;

const TYPE_CODE = new Map<StayType, number>(STAY_TYPES.map((t, i) => [t, i]));
const SUPPLIER_BIT = new Map<SupplierId, number>(SUPPLIER_IDS.map((s, i) => [s, 1 << i]));
const SUPPLIER_SLOT = new Map<SupplierId, number>(SUPPLIER_IDS.map((s, i) => [s, i]));
/** Suppliers per stay in the per-listing columns. */
const SLOTS = SUPPLIER_IDS.length;

/** Slot of a supplier in the per-listing columns (`listingRating`, `listingStars`). */
export function supplierSlot(supplier: SupplierId): number {
  return SUPPLIER_SLOT.get(supplier)!;
}

/** Bit mask of the given suppliers, in the layout of the `suppliers` column. */
export function supplierMask(suppliers: readonly SupplierId[]): number {
  let mask = 0;
  for (const s of suppliers) mask |= SUPPLIER_BIT.get(s) ?? 0;
  return mask;
}

/**
 * Suppliers none of whose listings the index holds (content `unavailable`: down since the first
 * start). One pass over a byte a stay: ~0.2 ms on the default world, done once per version served.
 */
export function suppliersWithoutStays(index: StayIndex): SupplierId[] {
  let held = 0;
  for (let i = 0; i < index.size; i++) held |= index.suppliers[i];
  return SUPPLIER_IDS.filter((s) => (held & SUPPLIER_BIT.get(s)!) === 0);
}

/** Code of a stay type in the `type` column. */
export function typeCode(type: StayType): number {
  return TYPE_CODE.get(type)!;
}

/**
 * Every stay held in memory as columns of typed arrays, addressed by the stay's `idx`, plus a
 * kd-tree over (lng, lat). Display text stays in the store: a page of results fetches its ten
 * stays by idx, so the index costs tens of bytes per stay, not kilobytes.
 */
export interface StayIndex {
  readonly size: number;
  readonly lat: Float64Array;
  readonly lng: Float64Array;
  /** Resolution-15 H3 cell split into its high and low 32 bits. */
  readonly h3Hi: Uint32Array;
  readonly h3Lo: Uint32Array;
  /** Position of the stay's type in STAY_TYPES. */
  readonly type: Uint8Array;
  /** Bit i set when SUPPLIER_IDS[i] sells the stay. */
  readonly suppliers: Uint8Array;
  /** Star class in half stars (0-10), NO_STARS when none. */
  readonly stars: Uint8Array;
  /** Guest rating in tenths (0-100), NO_RATING when no listing has one. */
  readonly rating: Uint8Array;
  readonly reviewCount: Uint32Array;
  /**
   * Per stay, per supplier (slot = position in SUPPLIER_IDS): that supplier's listing rating in
   * tenths (NO_RATING when none; 0 when it does not sell the stay) and star class in half stars (NO_STARS when none),
   * at `idx * SUPPLIER_IDS.length + slot`. For filters on one supplier's own data (v1); 8 bytes a stay.
   */
  readonly listingRating: Uint8Array;
  readonly listingStars: Uint8Array;
  /** Global rank, 0 = best (ranking is decided at ingest). */
  readonly rank: Uint32Array;
  /** Inverse of `rank`: the idx of the stay at each rank, so sorting ranks sorts stays. */
  readonly byRank: Uint32Array;
  /** idx of every stay inside the box; a west edge east of the east edge crosses the antimeridian. */
  inBox(south: number, west: number, north: number, east: number): number[];
  /** How many stays lie inside the box, without listing them (see count-in-box.ts). */
  countInBox(south: number, west: number, north: number, east: number): number;
  /**
   * The best-ranked stays inside the box, skipping `offset`, by walking the global ranking. It
   * checks about (offset + count) * size / (stays in box) stays: cheap for busy viewports, which
   * is when listing every stay of the box would be dear.
   */
  bestInBox(south: number, west: number, north: number, east: number, offset: number, count: number): number[];
  /** Whether the stay's folded name contains every one of the folded tokens. */
  nameHasAll(idx: number, tokens: readonly string[]): boolean;
}

const INITIAL_CAPACITY = 1 << 16;

/** Builds the index from a version's chunks (in idx order): a store's, or `indexChunksOfRows` of rows. */
export async function buildStayIndex(chunks: AsyncIterable<IndexChunk>): Promise<StayIndex> {
  return stayIndexFromColumns(await buildStayIndexColumns(chunks));
}

/**
 * The index's columns from a version's chunks: what a worker builds and hands over. A chunk is
 * columns already (store/index-chunk.ts), so most are copied whole; no object per stay is made
 * (at 10M stays those were most of a warm start's garbage).
 */
export async function buildStayIndexColumns(chunks: AsyncIterable<IndexChunk>): Promise<StayIndexColumns> {
  let capacity = INITIAL_CAPACITY;
  let lat = new Float64Array(capacity);
  let lng = new Float64Array(capacity);
  let h3Hi = new Uint32Array(capacity);
  let h3Lo = new Uint32Array(capacity);
  let type = new Uint8Array(capacity);
  let suppliers = new Uint8Array(capacity);
  let stars = new Uint8Array(capacity);
  let rating = new Uint8Array(capacity);
  let reviewCount = new Uint32Array(capacity);
  let listingRating = new Uint8Array(capacity * SLOTS);
  let listingStars = new Uint8Array(capacity * SLOTS);
  let rank = new Uint32Array(capacity);
  const names: string[] = [];
  let nameOffsets = new Uint32Array(capacity + 1);
  let nameLength = 0;
  let n = 0;

  for await (const chunk of chunks) {
    const rows = chunk.rowCount;
    if (chunk.firstIdx !== n) throw new Error(`index rows out of order: expected idx ${n}, got ${chunk.firstIdx}`);
    if (n + rows > capacity) {
      while (n + rows > capacity) capacity *= 2;
      lat = growTypedArray(lat, capacity);
      lng = growTypedArray(lng, capacity);
      h3Hi = growTypedArray(h3Hi, capacity);
      h3Lo = growTypedArray(h3Lo, capacity);
      type = growTypedArray(type, capacity);
      suppliers = growTypedArray(suppliers, capacity);
      stars = growTypedArray(stars, capacity);
      rating = growTypedArray(rating, capacity);
      reviewCount = growTypedArray(reviewCount, capacity);
      rank = growTypedArray(rank, capacity);
      listingRating = growTypedArray(listingRating, capacity * SLOTS);
      listingStars = growTypedArray(listingStars, capacity * SLOTS);
      nameOffsets = growTypedArray(nameOffsets, capacity + 1);
    }
    const c = indexChunkColumns(chunk);
    lat.set(c.lat, n);
    lng.set(c.lng, n);
    type.set(c.type, n);
    suppliers.set(c.suppliers, n);
    reviewCount.set(c.reviewCount, n);
    rank.set(c.rank, n);
    listingRating.set(c.listingRating, n * SLOTS);
    listingStars.set(c.listingStars, n * SLOTS);
    for (let i = 0; i < rows; i++) {
      const star = c.stars[i],
        average = c.rating[i];
      stars[n + i] = Number.isNaN(star) ? NO_STARS : Math.round(star * 2);
      rating[n + i] = Number.isNaN(average) ? NO_RATING : Math.round(average * 10);
      // A chunk leaves a supplier that does not sell the stay at 0; the column says no star class.
      for (let s = 0; s < SLOTS; s++) if ((c.suppliers[i] & (1 << s)) === 0) listingStars[(n + i) * SLOTS + s] = NO_STARS;
    }
    parseCells(chunk, h3Hi, h3Lo, n);
    // Names stay one string: each chunk's text as it is, its rows' offsets found by its newlines.
    let at = 0;
    for (let i = 0; i < rows; i++) {
      const end = chunk.names.indexOf('\n', at);
      if (end < 0 !== (i === rows - 1)) throw new Error(`index chunk at idx ${chunk.firstIdx}: names do not hold ${rows} rows`);
      nameOffsets[n + i] = nameLength + at;
      at = end + 1;
    }
    if (rows > 0) {
      names.push(chunk.names);
      nameLength += chunk.names.length + 1;
    }
    n += rows;
  }
  nameOffsets[n] = nameLength;
  const nameText = names.join('\n') + '\n';
  names.length = 0;

  const tree = new KDBush(Math.max(n, 1));
  for (let i = 0; i < n; i++) tree.add(lng[i], lat[i]);
  if (n === 0) tree.add(0, 0); // KDBush needs one point; idx 0 of an empty index is never returned below
  tree.finish();

  const byRank = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    if (rank[i] >= n) throw new Error(`rank ${rank[i]} of idx ${i} is outside 0..${n - 1}`);
    byRank[rank[i]] = i;
  }

  const trim = <T extends Float64Array | Uint32Array | Uint8Array>(a: T): T => a.slice(0, n) as T;
  return {
    size: n,
    lat: trim(lat),
    lng: trim(lng),
    h3Hi: trim(h3Hi),
    h3Lo: trim(h3Lo),
    type: trim(type),
    suppliers: trim(suppliers),
    stars: trim(stars),
    rating: trim(rating),
    reviewCount: trim(reviewCount),
    rank: trim(rank),
    byRank,
    listingRating: listingRating.slice(0, n * SLOTS),
    listingStars: listingStars.slice(0, n * SLOTS),
    nameText,
    nameOffsets: nameOffsets.slice(0, n + 1),
    tree: tree.data as ArrayBuffer,
  };
}

/**
 * What an index is made of: typed arrays, one string and the kd-tree's buffer, so a worker can
 * build it and hand it over (inventory/content-worker.ts) while the main thread keeps answering.
 */
export interface StayIndexColumns {
  size: number;
  lat: Float64Array;
  lng: Float64Array;
  h3Hi: Uint32Array;
  h3Lo: Uint32Array;
  type: Uint8Array;
  suppliers: Uint8Array;
  stars: Uint8Array;
  rating: Uint8Array;
  reviewCount: Uint32Array;
  rank: Uint32Array;
  byRank: Uint32Array;
  listingRating: Uint8Array;
  listingStars: Uint8Array;
  nameText: string;
  nameOffsets: Uint32Array;
  /** KDBush's data buffer (KDBush.from reads it back without a copy). */
  tree: ArrayBuffer;
}

/** The index over its columns (built here or in a worker). */
export function stayIndexFromColumns(columns: StayIndexColumns): StayIndex {
  const { size: n, byRank, nameText, nameOffsets } = columns;
  const tree = KDBush.from(columns.tree);
  const index = {
    size: n,
    lat: columns.lat,
    lng: columns.lng,
    h3Hi: columns.h3Hi,
    h3Lo: columns.h3Lo,
    type: columns.type,
    suppliers: columns.suppliers,
    stars: columns.stars,
    rating: columns.rating,
    reviewCount: columns.reviewCount,
    rank: columns.rank,
    byRank,
    listingRating: columns.listingRating,
    listingStars: columns.listingStars,
    inBox(south: number, west: number, north: number, east: number): number[] {
      if (n === 0) return [];
      if (west <= east) return tree.range(west, south, east, north);
      return tree.range(west, south, 180, north).concat(tree.range(-180, south, east, north));
    },
    countInBox(south: number, west: number, north: number, east: number): number {
      if (west <= east) return countInBox(tree, west, south, east, north);
      return countInBox(tree, west, south, 180, north) + countInBox(tree, -180, south, east, north);
    },
    bestInBox(south: number, west: number, north: number, east: number, offset: number, count: number): number[] {
      const out: number[] = [];
      const crosses = west > east;
      let skip = offset;
      for (let r = 0; r < n && out.length < count; r++) {
        const idx = byRank[r];
        const y = index.lat[idx],
          x = index.lng[idx];
        if (y < south || y > north) continue;
        if (crosses ? x < west && x > east : x < west || x > east) continue;
        if (skip > 0) skip--;
        else out.push(idx);
      }
      return out;
    },
    nameHasAll(idx: number, tokens: readonly string[]): boolean {
      // A slice of a flat string is a cheap view in V8; searching nameText itself from `start`
      // would scan past this name through every later one when a token is absent.
      const name = nameText.slice(nameOffsets[idx], nameOffsets[idx + 1] - 1);
      for (const token of tokens) if (!name.includes(token)) return false;
      return true;
    },
  };
  return index;
}

/** Writes the halves of a chunk's res-15 cells (15 hex digits a line) at h3Hi/h3Lo[from..]: no string per cell. */
function parseCells(chunk: IndexChunk, h3Hi: Uint32Array, h3Lo: Uint32Array, from: number): void {
  const text = chunk.h3;
  const rows = chunk.rowCount;
  if (rows === 0) return;
  if (text.length !== rows * 16 - 1) throw new Error(`index chunk at idx ${chunk.firstIdx}: cells do not hold ${rows} rows of 15 digits`);
  for (let i = 0; i < rows; i++) {
    const at = i * 16;
    let hi = 0,
      lo = 0;
    for (let k = 0; k < 7; k++) hi = hi * 16 + hexDigit(text, at + k);
    for (let k = 7; k < 15; k++) lo = lo * 16 + hexDigit(text, at + k);
    h3Hi[from + i] = hi;
    h3Lo[from + i] = lo;
  }
}

function hexDigit(text: string, at: number): number {
  const c = text.charCodeAt(at);
  if (c >= 48 && c <= 57) return c - 48;
  const lower = c | 32;
  if (lower >= 97 && lower <= 102) return lower - 87;
  throw new Error(`index chunk: ${JSON.stringify(text.slice(at - (at % 16), at - (at % 16) + 15))} is not a res-15 cell`);
}
