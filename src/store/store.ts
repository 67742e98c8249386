import type { HotelIdRef, Settings, Stay, StayType, SupplierId } from '../types.ts';
import type { StayIdMap } from './stay-id-map.ts';

/** The figures a content store runs by (`config.settings`, or in tests `defaults`). */
export type ContentStoreSettings = Pick<Settings, 'contentReaderTtlMs' | 'contentReaderHeartbeatMs' | 'contentVersionsKept'>;

/** What the in-memory index needs of one stay: the filter columns, no display text. */
export interface ListingRating {
  supplier: SupplierId;
  /** Null: the listing has no guest rating. */
  value: number | null;
  hotelStars: number | null;
}

export interface IndexRow {
  idx: number;
  /** Position in the global ranking (0 = best), computed at ingest: see inventory/rank-stays.ts. */
  rank: number;
  lat: number;
  lng: number;
  /** Resolution-15 H3 cell, hex string. */
  h3: string;
  type: StayType;
  suppliers: SupplierId[];
  /** averageRating.hotelStars */
  stars: number | null;
  /** averageRating.value (0-10), null when no listing has a guest rating */
  rating: number | null;
  /** averageRating.count */
  reviewCount: number;
  /** Each listing's own rating value (0-10 or null) and star class, for filters on one supplier's data (v1). */
  listingRatings: readonly ListingRating[];
  /** Name folded for search: foldText(name) (fold-text.ts): lower case, accents and punctuation removed. */
  searchName: string;
}

/** The index rows of consecutive stays packed as columns (store/index-chunk.ts): what a store keeps and the index build copies. */
export interface IndexChunk {
  /** idx of the first row; the chunk holds firstIdx .. firstIdx + rowCount - 1. */
  firstIdx: number;
  rowCount: number;
  /** Columns one after another (index-chunk.ts's BYTES_PER_ROW); stars NaN = no star class, rating NaN = no guest rating. */
  numbers: Uint8Array;
  /** H3 cells, '\n'-separated. */
  h3: string;
  /** Folded names, '\n'-separated (foldText never leaves a newline). */
  names: string;
  /**
   * What the publish's `cellsOf` made of the chunk's stays (inventory/exact-cells.ts: their cells at
   * each clustering resolution), kept as it is; null when the version was published without.
   */
  cells?: Uint8Array | null;
}

/**
 * A stay with its global rank, as ingestion hands it to the store. The rank travels beside the
 * Stay rather than in it: it is an index column (IndexRow.rank), not something a result shows.
 */
export interface RankedStay extends Stay {
  /** Position in the global ranking (0 = best), dense 0..n-1: see inventory/rank-stays.ts. */
  rank: number;
}

/** One listing's stay id, for the persistent map (supplier listing -> stay id). */
export interface StayIdEntry {
  supplier: SupplierId;
  supplierStayId: string;
  stayId: string;
}

/**
 * Bytes to keep with each index chunk, made from its stays (INDEX_CHUNK_ROWS at most, in idx
 * order) and read back as the chunk's `cells`: derived data the index build would otherwise
 * compute at every start. The store keeps them and knows nothing of what they say.
 */
export type ChunkCellsOf = (stays: readonly RankedStay[]) => Uint8Array;

/** The reads of one published content version; its content never changes. */
export interface VersionReader {
  readonly no: number;
  /** The version's index chunks in idx order (store/index-chunk.ts): the columns the index build copies. */
  indexChunks(): AsyncIterable<IndexChunk>;
  getStays(idxs: readonly number[]): Promise<Stay[]>;
  resolveHotelIds(refs: readonly HotelIdRef[]): Promise<number[][]>;
  /** Every stay in idx order, a batch at a time (the content worker reads the served version's whole inventory). */
  allStays(batch?: number): AsyncIterable<Stay[]>;
}

/**
 * Where the gateway keeps what it ingested. SQLite is the embedded default; PostgreSQL joins it
 * for scale-out, so every method is async even where SQLite would not need it. Each
 * implementation runs the same contract suite (test-support/contracts/store-contract.ts).
 */
export interface Store {
  /** The served content version: its number, label and what the refresh recorded of it; null before the first. */
  currentContent(): Promise<{ no: number; label: string; info: unknown } | null>;
  /**
   * Writes a new content version beside the served one and publishes it in one step, with the
   * listings' stay ids; returns its number. Older versions are dropped unless they are among the
   * newest two or a live reader holds them (holdVersions; docs/decisions.md 69).
   * Stays identical to the served version's (same stays, order and ranks: store/content-digest.ts)
   * publish nothing (docs/decisions.md 80): no version is written or dropped, the served version
   * keeps its number and label, only its info is replaced and the ids recorded; returns the
   * served version's number.
   */
  publishContent(
    stays: readonly RankedStay[],
    label: string,
    info: unknown,
    ids?: readonly StayIdEntry[],
    cellsOf?: ChunkCellsOf,
  ): Promise<number>;
  /** The reads of a published version: readable while it is among the newest two or a live reader holds it. */
  version(no: number): VersionReader;
  /**
   * Records that this handle reads these versions and no others (docs/decisions.md 69): no store
   * handle on the same database drops a version a live reader holds. The record is renewed by the
   * handle itself (a heartbeat) until close() or holdVersions([]); a reader silent for
   * settings.contentReaderTtlMs is dead (a killed process). Returns those of `nos` still readable:
   * one pruned before the hold was recorded is missing, and must not be read.
   */
  holdVersions(nos: readonly number[]): Promise<number[]>;
  /**
   * The persistent stay id map: `${supplier}:${supplierStayId}` -> stay id, for every listing ever
   * seen, held compactly (stay-id-map.ts: at 10M listings a Map of strings was 2 GB).
   */
  stayIds(): Promise<StayIdMap>;
  /** Of the served version: its index chunks, in idx order (so 1M rows never sit in memory twice). */
  indexChunks(): AsyncIterable<IndexChunk>;
  /** Full stays for the given idx values, in the order asked; unknown idx are skipped. */
  getStays(idxs: readonly number[]): Promise<Stay[]>;
  /**
   * Resolves `hotelids` entries: for each ref, the idx of every stay it names. A bare id matches
   * a service id or any supplier's id (id spaces overlap, so several stays may match); a
   * prefixed id matches that supplier's listing only.
   */
  resolveHotelIds(refs: readonly HotelIdRef[]): Promise<number[][]>;
  /**
   * Bytes on disk of the database this store is in (`inventory.storeBytes` of /health): on SQLite
   * the file and its WAL (keys, clicks and transactions share it); on PostgreSQL the tables of the
   * store's schema with their indexes and TOAST.
   */
  diskBytes(): Promise<number>;
  close(): Promise<void>;
}
