// One content refresh: every asked supplier's feed pulled concurrently (I/O, on this thread, each
// page handed to the content worker as it arrives), then the worker merges, builds and publishes
// the new version (build-content-version.ts). Used by the gateway's schedule and by
// `staygate content refresh`.
import { jsonSafeUrl } from '../json-safe-url.ts';
import type { Supplier } from '../suppliers/supplier.ts';
import type { SupplierId } from '../types.ts';
import type { ContentBuildResult } from './build-content-version.ts';
import type { ContentWorker, FeedReport } from './content-worker-client.ts';

export interface RefreshOptions {
  suppliers: readonly Supplier[];
  worker: ContentWorker;
  /** A feed shrinking by more than this share is held back (defaults.feedShrinkLimit). */
  shrinkLimit: number;
  /** Pull only these; the others keep what they have (a retry of failed suppliers). Absent: all. */
  only?: readonly SupplierId[];
  log?: (message: string) => void;
  pageSize?: number;
  signal?: AbortSignal;
}

export interface RefreshOutcome {
  /** What each pulled supplier's feed gave. */
  feeds: Partial<Record<SupplierId, FeedReport & { listings: number; ms: number }>>;
  /** The published version; null when nothing was published (every pulled supplier failed: nothing new to apply). */
  result: ContentBuildResult | null;
}

async function pull(supplier: Supplier, job: number, options: RefreshOptions): Promise<FeedReport & { listings: number; ms: number }> {
  const started = performance.now();
  const seen = new Set<string>();
  let skipped = 0;
  let listings = 0;
  try {
    for await (const page of supplier.contentPages({ pageSize: options.pageSize, signal: options.signal, onSkipped: () => { skipped++; } })) {
      const fresh = [];
      for (const listing of page) {
        // A repeated id keeps its first record: a feed paging bug, not a second property.
        if (seen.has(listing.supplierStayId)) {
          skipped++;
          continue;
        }
        seen.add(listing.supplierStayId);
        // Media URLs are written into responses unscanned (http/json-schema.ts): made safe here, once.
        fresh.push({ ...listing, media: { thumbnail: jsonSafeUrl(listing.media.thumbnail), logoSquare: jsonSafeUrl(listing.media.logoSquare) } });
      }
      listings += fresh.length;
      options.worker.page(job, supplier.id, fresh);
    }
    return { ok: true, skipped, listings, ms: Math.round(performance.now() - started) };
  } catch (error) {
    return { ok: false, error: (error as Error).message ?? String(error), listings, ms: Math.round(performance.now() - started) };
  }
}

export async function refreshContent(options: RefreshOptions): Promise<RefreshOutcome> {
  const log = options.log ?? (() => {});
  const asked = options.suppliers.filter((s) => options.only === undefined || options.only.includes(s.id));
  const job = options.worker.begin();
  const pulled = await Promise.all(asked.map(async (supplier) => [supplier.id, await pull(supplier, job, options)] as const));
  const feeds = Object.fromEntries(pulled) as RefreshOutcome['feeds'];
  for (const [id, feed] of pulled) {
    log(feed.ok
      ? `${id}: ${feed.listings} listings in ${feed.ms} ms${feed.skipped > 0 ? ` (${feed.skipped} malformed or repeated records skipped)` : ''}`
      : `${id}: feed failed after ${feed.ms} ms: ${feed.error}`);
  }
  options.signal?.throwIfAborted();
  if (!pulled.some(([, feed]) => feed.ok)) return { feeds, result: null };
  const result = await options.worker.build(job, Object.fromEntries(pulled.map(([id, f]) => [id, f.ok ? { ok: true, skipped: f.skipped } : { ok: false, error: f.error }])), options.shrinkLimit);
  log(`content version ${result.no} published: ${result.stays} stays (${result.added} added, ${result.removed} removed, ${result.changed} changed) in ${result.ms} ms`);
  return { feeds, result };
}
