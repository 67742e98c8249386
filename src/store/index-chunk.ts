// The index rows of consecutive stays packed into one binary record, so that a store hands a
// million rows to the boot-time index build in tens of reads instead of a million. Shared by the
// store implementations (SQLite BLOB, PostgreSQL bytea).
import { endianness } from 'node:os';
import { foldText } from '../text/fold-text.ts';
import { STAY_TYPES, SUPPLIER_IDS, type StayType, type SupplierId } from '../types.ts';
import type { ChunkCellsOf, IndexChunk, IndexRow, ListingRating, RankedStay } from './store.ts';

/** Rows per chunk: ~700 KB of numbers, small enough to decode between two event-loop turns. */
export const INDEX_CHUNK_ROWS = 16_384;

/**
 * Bytes per row in `numbers`: lat, lng, stars, rating as float64; rank, review count as uint32;
 * type, suppliers as uint8; then per supplier (SUPPLIER_IDS order) its listing's rating in tenths
 * and star class in half stars as uint8 (ratings are tenths and stars halves at every supplier).
 * No star class is stars NaN and NO_STARS; no guest rating is rating NaN and NO_RATING
 * (docs/decisions.md 137): values no chunk held before, so a stored chunk of before reads as it
 * always did, and the schema version (sqlite-store.ts, migrations/) stays.
 */
const BYTES_PER_ROW = 4 * 8 + 2 * 4 + 2 + 2 * SUPPLIER_IDS.length;
const S = SUPPLIER_IDS.length;
/** Star byte of a listing without a star class. */
const NO_STARS = 255;
/** Rating byte of a listing without a guest rating (ratings run 0-100 tenths). */
const NO_RATING = 255;

// Typed arrays use the machine's byte order and the chunks are written and read on one machine
// (the store file is not an exchange format); a big-endian host would need DataView instead.
if (endianness() !== 'LE') throw new Error('index chunks assume a little-endian host');

const TYPE_CODE = new Map<string, number>(STAY_TYPES.map((type, i) => [type, i]));
const SUPPLIER_SLOT = new Map<string, number>(SUPPLIER_IDS.map((id, i) => [id, i]));

/** The 16 possible supplier sets, built once and frozen: a million rows share them instead of allocating. */
const SUPPLIER_SETS: SupplierId[][] = Array.from(
  { length: 1 << SUPPLIER_IDS.length },
  (_, mask) => Object.freeze(SUPPLIER_IDS.filter((_, i) => (mask & (1 << i)) !== 0)) as SupplierId[],
);

/** The numeric columns of `n` rows laid one after another in `buffer`: the one place that says where each lies. */
function columnsOf(buffer: ArrayBuffer, n: number) {
  return {
    lat: new Float64Array(buffer, 0, n),
    lng: new Float64Array(buffer, 8 * n, n),
    stars: new Float64Array(buffer, 16 * n, n),
    rating: new Float64Array(buffer, 24 * n, n),
    rank: new Uint32Array(buffer, 32 * n, n),
    reviewCount: new Uint32Array(buffer, 36 * n, n),
    type: new Uint8Array(buffer, 40 * n, n),
    suppliers: new Uint8Array(buffer, 41 * n, n),
    listingRating: new Uint8Array(buffer, 42 * n, S * n),
    listingStars: new Uint8Array(buffer, (42 + S) * n, S * n),
  };
}

/**
 * What the in-memory index holds of a stay (stay-index.ts), the one definition of it: the chunks
 * store these rows, and every index is built from chunks. The name is folded here, once a stay:
 * nothing encodes a stay twice (a cache by stay held an entry for each of 10M stays while they lived).
 */
export function indexRowOf(stay: RankedStay): IndexRow {
  const listingRatings: ListingRating[] = [];
  const suppliers: SupplierId[] = [];
  for (const listing of stay.listings) {
    if (!SUPPLIER_SLOT.has(listing.supplier)) continue;
    suppliers.push(listing.supplier);
    listingRatings.push({ supplier: listing.supplier, value: listing.rating.value, hotelStars: listing.rating.hotelStars });
  }
  return {
    idx: stay.idx,
    rank: stay.rank,
    lat: stay.lat,
    lng: stay.lng,
    h3: stay.h3,
    type: stay.type,
    suppliers,
    stars: stay.averageRating.hotelStars,
    rating: stay.averageRating.value,
    reviewCount: stay.averageRating.count,
    listingRatings,
    searchName: foldText(stay.name),
  };
}

/** Packs stays whose idx run firstIdx, firstIdx + 1, ... (the caller orders them), with what `cellsOf` makes of them. */
export function encodeIndexChunk(stays: readonly RankedStay[], cellsOf?: ChunkCellsOf): IndexChunk {
  return { ...encodeIndexRows(stays.map(indexRowOf)), cells: cellsOf?.(stays) ?? null };
}

/** Packs index rows whose idx run firstIdx, firstIdx + 1, ...: a version's chunk, or an index built from rows (tests, benchmarks). */
export function encodeIndexRows(rows: readonly IndexRow[]): IndexChunk {
  const n = rows.length;
  const buffer = new ArrayBuffer(n * BYTES_PER_ROW);
  const { lat, lng, stars, rating, rank, reviewCount, type, suppliers, listingRating, listingStars } = columnsOf(buffer, n);
  const h3: string[] = new Array(n);
  const names: string[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const row = rows[i];
    if (row.idx !== rows[0].idx + i) throw new Error(`index chunk: idx ${row.idx} out of sequence`);
    const code = TYPE_CODE.get(row.type);
    if (code === undefined) throw new Error(`index chunk: unknown stay type ${row.type} (idx ${row.idx})`);
    lat[i] = row.lat;
    lng[i] = row.lng;
    stars[i] = row.stars ?? Number.NaN;
    rating[i] = row.rating ?? Number.NaN;
    rank[i] = row.rank;
    reviewCount[i] = row.reviewCount;
    type[i] = code;
    let mask = 0;
    for (const listing of row.listingRatings) {
      const s = SUPPLIER_SLOT.get(listing.supplier)!;
      mask |= 1 << s;
      listingRating[i * S + s] = listing.value === null ? NO_RATING : Math.round(listing.value * 10);
      listingStars[i * S + s] = listing.hotelStars === null ? NO_STARS : Math.round(listing.hotelStars * 2);
    }
    suppliers[i] = mask;
    h3[i] = row.h3;
    names[i] = row.searchName;
  }
  return {
    firstIdx: n === 0 ? 0 : rows[0].idx,
    rowCount: n,
    numbers: new Uint8Array(buffer),
    h3: h3.join('\n'),
    names: names.join('\n'),
  };
}

/** A chunk's numeric columns, as the index build copies them (inventory/stay-index.ts). */
type IndexChunkColumns = ReturnType<typeof columnsOf>;

/** The numeric columns of a chunk: views over an aligned copy of its numbers. */
export function indexChunkColumns(chunk: IndexChunk): IndexChunkColumns {
  const n = chunk.rowCount;
  if (chunk.numbers.byteLength !== n * BYTES_PER_ROW) {
    throw new Error(`index chunk at idx ${chunk.firstIdx}: ${chunk.numbers.byteLength} bytes for ${n} rows`);
  }
  // A copy (new Uint8Array(view) copies; Buffer#slice would not): typed-array views need an
  // aligned offset, and a driver's Buffer may sit anywhere in a shared pool.
  return columnsOf(new Uint8Array(chunk.numbers).buffer, n);
}

/** The rows of a chunk, in idx order, passed one by one to `emit`: the chunk read back as it was written (tests, benchmarks). */
export function decodeIndexChunk(chunk: IndexChunk, emit: (row: IndexRow) => void): void {
  const n = chunk.rowCount;
  const { lat, lng, stars, rating, rank, reviewCount, type, suppliers, listingRating, listingStars } = indexChunkColumns(chunk);
  const h3 = n === 0 ? [] : chunk.h3.split('\n');
  const names = n === 0 ? [] : chunk.names.split('\n');
  if (h3.length !== n || names.length !== n) throw new Error(`index chunk at idx ${chunk.firstIdx}: text columns do not hold ${n} rows`);
  for (let i = 0; i < n; i++) {
    const star = stars[i];
    const average = rating[i];
    const listingRatings: ListingRating[] = [];
    for (let s = 0; s < S; s++) {
      if ((suppliers[i] & (1 << s)) === 0) continue;
      const half = listingStars[i * S + s];
      const tenths = listingRating[i * S + s];
      listingRatings.push({
        supplier: SUPPLIER_IDS[s],
        value: tenths === NO_RATING ? null : tenths / 10,
        hotelStars: half === NO_STARS ? null : half / 2,
      });
    }
    emit({
      idx: chunk.firstIdx + i,
      rank: rank[i],
      lat: lat[i],
      lng: lng[i],
      h3: h3[i],
      type: STAY_TYPES[type[i]] as StayType,
      suppliers: SUPPLIER_SETS[suppliers[i]],
      stars: Number.isNaN(star) ? null : star,
      rating: Number.isNaN(average) ? null : average,
      reviewCount: reviewCount[i],
      listingRatings,
      searchName: names[i],
    });
  }
}

/** Every row of the chunks, in order (tests, benchmarks: the index build reads the columns). */
export async function indexRowsOf(chunks: AsyncIterable<IndexChunk>): Promise<IndexRow[]> {
  const rows: IndexRow[] = [];
  for await (const chunk of chunks) decodeIndexChunk(chunk, (row) => rows.push(row));
  return rows;
}

/** Chunks of rows given in batches (in idx order): an index built from rows rather than a store (tests, benchmarks). */
export async function* indexChunksOfRows(
  batches: AsyncIterable<readonly IndexRow[]> | Iterable<readonly IndexRow[]>,
): AsyncGenerator<IndexChunk> {
  for await (const rows of batches) yield encodeIndexRows(rows);
}

/** A stored chunk's columns as both engines read them back. */
export interface StoredIndexChunk {
  first_idx: number;
  row_count: number;
  numbers: Uint8Array;
  h3: string;
  names: string;
  /** Absent from a version's table made before chunks kept cells (read with SELECT *). */
  cells?: Uint8Array | null;
}

/**
 * A version's chunks in idx order, from its stored chunks read one at a time (`chunkFrom(idx)`:
 * the first chunk at or after idx, or undefined past the last), so no cursor is held across
 * yields and other calls may run meanwhile. Both stores' `indexChunks`.
 */
export async function* indexChunksFrom(
  chunkFrom: (idx: number) => Promise<StoredIndexChunk | undefined> | StoredIndexChunk | undefined,
): AsyncGenerator<IndexChunk> {
  for (let from = 0; ;) {
    const chunk = await chunkFrom(from);
    if (chunk === undefined) return;
    yield {
      firstIdx: chunk.first_idx,
      rowCount: chunk.row_count,
      numbers: chunk.numbers,
      h3: chunk.h3,
      names: chunk.names,
      cells: chunk.cells ?? null,
    };
    from = chunk.first_idx + chunk.row_count;
  }
}
