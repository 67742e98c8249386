import type { Store } from '../store/store.ts';
import { jsonSafeUrl } from '../text/json-safe-url.ts';
import type { Supplier } from '../suppliers/supplier.ts';
import { SUPPLIER_IDS, type Listing } from '../types.ts';
import { buildStays } from './build-stays.ts';
import { mergeListings } from './merge-listings.ts';

export interface IngestOptions {
  suppliers: readonly Supplier[];
  store: Store;
  log?: (message: string) => void;
  /** Records per feed page; each adapter's default when absent. */
  pageSize?: number;
  /** Cancels the pulls (shutdown during boot). */
  signal?: AbortSignal;
}

export interface IngestResult {
  stays: number;
  listings: number;
  version: string;
  ms: number;
}

/** Pulls one supplier's whole feed; a repeated id keeps its first record (a feed paging bug, not a second property). */
async function pullFeed(
  supplier: Supplier,
  pageSize: number | undefined,
  signal: AbortSignal,
  log: (m: string) => void,
): Promise<Listing[]> {
  const started = performance.now();
  const seen = new Set<string>();
  const listings: Listing[] = [];
  let duplicates = 0;
  for await (const page of supplier.contentPages({ pageSize, signal })) {
    for (const listing of page) {
      if (seen.has(listing.supplierStayId)) {
        duplicates++;
        continue;
      }
      seen.add(listing.supplierStayId);
      // Media URLs are written into responses unscanned (http/json-schema.ts): made safe here, once.
      listings.push({
        ...listing,
        media: { thumbnail: jsonSafeUrl(listing.media.thumbnail), logoSquare: jsonSafeUrl(listing.media.logoSquare) },
      });
    }
  }
  log(
    `${supplier.id}: ${listings.length} listings in ${Math.round(performance.now() - started)} ms` +
      (duplicates > 0 ? ` (${duplicates} repeated ids skipped)` : ''),
  );
  return listings;
}

/**
 * Label of an inventory: when it was ingested and how big it is. Cheap on purpose (hashing 160k
 * stays would cost more than storing them); it changes on every ingest, which is when caches and
 * ETags built on it must change anyway.
 */
function versionLabel(stays: number, listings: number): string {
  return `${new Date().toISOString()}/${stays}s/${listings}l`;
}

/**
 * Pulls every supplier's content feed concurrently, merges cross-listed properties, builds and
 * ranks the stays and replaces the store's inventory with them in one transaction. A supplier that
 * fails fails the ingest (and cancels the other pulls): half an inventory stored as if whole would
 * be reused by every later start.
 */
export async function ingestInventory(options: IngestOptions): Promise<IngestResult> {
  const { store } = options;
  const log = options.log ?? (() => {});
  const started = performance.now();
  const controller = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;

  // Feeds are concatenated in SUPPLIER_IDS order, not arrival order: same feeds, same stays.
  const suppliers = [...options.suppliers].sort((a, b) => SUPPLIER_IDS.indexOf(a.id) - SUPPLIER_IDS.indexOf(b.id));
  let feeds: Listing[][];
  try {
    feeds = await Promise.all(
      suppliers.map((supplier) =>
        pullFeed(supplier, options.pageSize, signal, log).catch((error: unknown) => {
          controller.abort(error);
          throw error;
        }),
      ),
    );
  } finally {
    controller.abort();
  }
  const listings = feeds.flat();
  const pulledAt = performance.now();

  const groups = mergeListings(listings);
  const mergedAt = performance.now();
  const stays = buildStays(groups);
  const builtAt = performance.now();
  const version = versionLabel(stays.length, listings.length);
  await store.replaceInventory(stays, version);
  const ms = Math.round(performance.now() - started);
  log(
    `ingested ${listings.length} listings as ${stays.length} stays in ${ms} ms ` +
      `(pull ${Math.round(pulledAt - started)}, merge ${Math.round(mergedAt - pulledAt)}, ` +
      `build ${Math.round(builtAt - mergedAt)}, store ${Math.round(performance.now() - builtAt)})`,
  );
  return { stays: stays.length, listings: listings.length, version, ms };
}

export type EnsureResult = ({ ingested: true } & IngestResult) | { ingested: false; version: string };

/**
 * Ingests only when the store holds no inventory yet: the first start pays for ingestion, later
 * starts reuse what the store kept (re-ingesting is an explicit ingestInventory call).
 */
export async function ensureInventory(options: IngestOptions): Promise<EnsureResult> {
  const version = await options.store.inventoryVersion();
  if (version !== null) {
    options.log?.(`inventory ${version} already in the store; not ingesting`);
    return { ingested: false, version };
  }
  return { ingested: true, ...(await ingestInventory(options)) };
}
