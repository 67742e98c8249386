// One content refresh, run in the content worker's thread (content-worker.ts): every asked
// supplier's feed pulled concurrently, then merged, given ids, built and published as a new version
// (build-content-version.ts). The pull runs there too, not only the build: parsing, decoding and
// copying 200k listings' pages is seconds of CPU and hundreds of MB of short-lived objects, which on
// the gateway's own thread held its event loop for up to ~250 ms at a time (docs/decisions.md 67).
// Used by the gateway's schedule and by `staygate content refresh`, both through content-worker-client.ts.
import { jsonSafeUrl } from '../text/json-safe-url.ts';
import type { Store } from '../store/store.ts';
import { observeCalls } from '../suppliers/call-observer.ts';
import { SupplierError } from '../suppliers/supplier-error.ts';
import type { Supplier } from '../suppliers/supplier.ts';
import type { Listing, SupplierId } from '../types.ts';
import { buildContentVersion, type BuildContentOptions, type ContentBuildResult, type FeedOutcome } from './build-content-version.ts';
import { createListingParts } from './share-listing-parts.ts';

export interface RefreshOptions {
  suppliers: readonly Supplier[];
  store: Store;
  /** A feed shrinking by more than this share is held back (Settings.feedShrinkLimit). */
  shrinkLimit: number;
  /** The merge's gates and the ranking prior (build-content-version.ts). */
  settings: BuildContentOptions['settings'];
  /** Pull only these; the others keep what they have (a retry of failed suppliers). Absent: all. */
  only?: readonly SupplierId[];
  pageSize?: number;
  signal?: AbortSignal;
}

/** What one supplier's feed gave: how many listings (malformed or repeated records skipped and counted), or why it failed. */
export type FeedReport = ({ ok: true; skipped: number } | { ok: false; error: string }) & {
  listings: number;
  ms: number;
  /**
   * Whether the supplier accepted the credentials: `ok` once a page came, `failed` when it refused
   * them (401/403; `error` is then `auth: <the supplier's message>`), `unknown` when the pull failed
   * before any page for another reason.
   */
  auth: 'ok' | 'failed' | 'unknown';
  /** 429s the pull waited out (each a wait, then the page asked again: not a failure). */
  rateLimitWaits: number;
};

export interface RefreshOutcome {
  /** What each pulled supplier's feed gave. */
  feeds: Partial<Record<SupplierId, FeedReport>>;
  /** The published version; null when nothing was published (every pulled supplier failed: nothing new to apply). */
  result: ContentBuildResult | null;
  /** Nothing was pulled: another process holds the content lease and is refreshing. */
  elsewhere?: boolean;
}

async function pull(
  supplier: Supplier,
  options: RefreshOptions,
  share: (listing: Listing) => Listing,
): Promise<{ outcome: FeedOutcome; report: FeedReport }> {
  const started = performance.now();
  const seen = new Set<string>();
  const listings: Listing[] = [];
  let skipped = 0;
  let pages = 0;
  let rateLimitWaits = 0;
  const counting = { rateLimitWait: () => void rateLimitWaits++ };
  try {
    // The pages are read in this call's async context, where fetch-json tells of each 429 it waits out.
    await observeCalls(counting, async () => {
      for await (const page of supplier.contentPages({
        pageSize: options.pageSize,
        signal: options.signal,
        onSkipped: () => {
          skipped++;
        },
      })) {
        pages++;
        for (const listing of page) {
          // A repeated id keeps its first record: a feed paging bug, not a second property.
          if (seen.has(listing.supplierStayId)) {
            skipped++;
            continue;
          }
          seen.add(listing.supplierStayId);
          // Media URLs are written into responses unscanned (http/json-schema.ts): made safe here, once.
          listings.push(
            share({
              ...listing,
              media: { thumbnail: jsonSafeUrl(listing.media.thumbnail), logoSquare: jsonSafeUrl(listing.media.logoSquare) },
            }),
          );
        }
      }
    });
    const ms = Math.round(performance.now() - started);
    return {
      outcome: { ok: true, listings, skipped },
      report: { ok: true, skipped, listings: listings.length, ms, auth: 'ok', rateLimitWaits },
    };
  } catch (error) {
    // A refused credential is its own state in /health, worded without the supplier in front (its entry names it).
    const refused = error instanceof SupplierError && error.kind === 'auth';
    const message = refused ? error.detail : ((error as Error).message ?? String(error));
    const auth = refused ? 'failed' : pages > 0 ? 'ok' : 'unknown';
    return {
      outcome: { ok: false, error: message },
      report: { ok: false, error: message, listings: listings.length, ms: Math.round(performance.now() - started), auth, rateLimitWaits },
    };
  }
}

/** Every asked feed, concurrently, their listings' equal parts shared (the table goes with this call). */
async function pullAll(asked: readonly Supplier[], options: RefreshOptions) {
  const share = createListingParts();
  return Promise.all(asked.map(async (supplier) => [supplier.id, await pull(supplier, options, share)] as const));
}

export async function refreshContent(options: RefreshOptions): Promise<RefreshOutcome> {
  const asked = options.suppliers.filter((s) => options.only === undefined || options.only.includes(s.id));
  const pulled = await pullAll(asked, options);
  const feeds = Object.fromEntries(pulled.map(([id, p]) => [id, p.report])) as RefreshOutcome['feeds'];
  options.signal?.throwIfAborted();
  if (!pulled.some(([, p]) => p.outcome.ok)) return { feeds, result: null };
  const result = await buildContentVersion({
    store: options.store,
    feeds: Object.fromEntries(pulled.map(([id, p]) => [id, p.outcome])),
    shrinkLimit: options.shrinkLimit,
    settings: options.settings,
  });
  return { feeds, result };
}

/** The log lines of a refresh: one per pulled supplier, and the version published. */
export function describeRefresh(outcome: RefreshOutcome): string[] {
  const lines = Object.entries(outcome.feeds).map(([id, feed]) => {
    const notes = [
      ...(feed.ok && feed.skipped > 0 ? [`${feed.skipped} malformed or repeated records skipped`] : []),
      ...(feed.rateLimitWaits > 0 ? [`${feed.rateLimitWaits} rate-limit waits`] : []),
    ];
    const noted = notes.length > 0 ? ` (${notes.join('; ')})` : '';
    return feed.ok
      ? `${id}: ${feed.listings} listings in ${feed.ms} ms${noted}`
      : `${id}: feed failed after ${feed.ms} ms${noted}: ${feed.error}`;
  });
  const r = outcome.result;
  if (r?.unchanged) lines.push(`content unchanged: version ${r.no} (${r.stays} stays) still served, nothing written, in ${r.ms} ms`);
  else if (r !== null)
    lines.push(
      `content version ${r.no} published: ${r.stays} stays (${r.added} added, ${r.removed} removed, ${r.changed} changed) in ${r.ms} ms`,
    );
  return lines;
}
