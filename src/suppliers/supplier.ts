import type { Listing, SupplierId } from '../types.ts';

/** Where an upstream supplier lives. The registry of suppliers is configuration (src/config.ts). */
export interface SupplierConfig {
  id: SupplierId;
  /** Base URL of the supplier's API, e.g. http://127.0.0.1:41234 */
  baseUrl: string;
}

/**
 * One upstream supplier, reached over HTTP through its adapter (suppliers/supplier-a.ts ...).
 * The adapter owns the supplier's wire format; everything above sees normalised Listings.
 * Live quotes are added by the live-prices work.
 */
export interface Supplier {
  readonly id: SupplierId;
  /** The supplier's whole content feed, page by page, normalised. Throws on HTTP or format errors. */
  contentPages(options?: { pageSize?: number; signal?: AbortSignal }): AsyncIterable<Listing[]>;
}
