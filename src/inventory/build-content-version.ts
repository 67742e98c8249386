// One content refresh's CPU-heavy half, run in the content worker (content-worker.ts): what each
// supplier's feed brought, or what it had when its feed failed or shrank, merged, given stable ids,
// built and published as a new content version beside the served one.
import { hash } from 'node:crypto';
import type { StayIdEntry, Store } from '../store/store.ts';
import { SUPPLIER_IDS, type Listing, type Stay, type SupplierId } from '../types.ts';
import { assignStayIds } from './assign-stay-ids.ts';
import { buildStays } from './build-stays.ts';
import { mergeListings } from './merge-listings.ts';

/** What pulling one supplier's feed gave: its listings (malformed records skipped and counted), or an error. */
export type FeedOutcome = { ok: true; listings: Listing[]; skipped: number } | { ok: false; error: string };

/** A supplier's content as a version records it (health reads it back, README "Health"). */
export interface SupplierContent {
  /** ok: its last feed applied; stale: listings held, but its last pull failed or was held back; unavailable: none held. */
  state: 'ok' | 'stale' | 'unavailable';
  listings: number;
  /** ISO time its feed was last applied. */
  lastRefresh: string | null;
  lastError: string | null;
}

export interface ContentInfo {
  suppliers: Partial<Record<SupplierId, SupplierContent>>;
}

/** What a refresh did with one supplier's feed. */
export type FeedVerdict = 'applied' | 'failed' | 'held back' | 'not pulled';

export interface ContentBuildResult {
  /** The version now served: the new one, or the one served before when nothing changed. */
  no: number;
  label: string;
  /**
   * The stays came out the same as the served version's: no version was written, the served one
   * keeps its number and label and records this refresh's supplier states (docs/decisions.md 80).
   */
  unchanged: boolean;
  stays: number;
  listings: number;
  added: number;
  removed: number;
  changed: number;
  suppliers: Record<SupplierId, SupplierContent & { verdict: FeedVerdict; skipped: number; previous: number }>;
  ms: number;
}

export interface BuildContentOptions {
  store: Store;
  /** Suppliers pulled this time; the others keep what they had. */
  feeds: Partial<Record<SupplierId, FeedOutcome>>;
  /** A feed with fewer than (1 - shrinkLimit) of the supplier's previous listings is held back. */
  shrinkLimit: number;
  now?: () => Date;
}

/** A digest of what a stay shows, to tell a changed stay from an unchanged one without keeping 160k documents. */
const digestOf = (stay: Stay): string => hash('sha1', JSON.stringify({ ...stay, idx: 0, rank: undefined }), 'base64');

export async function buildContentVersion(options: BuildContentOptions): Promise<ContentBuildResult> {
  const started = performance.now();
  const { store } = options;
  const now = (options.now ?? (() => new Date()))().toISOString();
  const current = await store.currentContent();
  const previousInfo = ((current?.info ?? {}) as ContentInfo).suppliers ?? {};

  // What the served version holds: each stay's digest, each supplier's listing count, and the
  // listings themselves only of suppliers that keep them (feed failed or not pulled): holding every
  // old listing beside the new feeds doubled the worker's heap during a refresh.
  const previousDigest = new Map<string, string>();
  const count = Object.fromEntries(SUPPLIER_IDS.map((s) => [s, 0])) as Record<SupplierId, number>;
  /** The served version's listings of the wanted suppliers; the first read also takes digests and counts. */
  const readServed = async (wanted: ReadonlySet<SupplierId>, tally: boolean): Promise<Record<SupplierId, Listing[]>> => {
    const out = Object.fromEntries(SUPPLIER_IDS.map((s) => [s, [] as Listing[]])) as Record<SupplierId, Listing[]>;
    if (current === null) return out;
    for await (const batch of store.version(current.no).allStays()) {
      for (const stay of batch) {
        if (tally) previousDigest.set(stay.id, digestOf(stay));
        for (const listing of stay.listings) {
          if (tally) count[listing.supplier]++;
          if (wanted.has(listing.supplier)) out[listing.supplier].push(listing);
        }
      }
    }
    return out;
  };
  const kept = await readServed(new Set(SUPPLIER_IDS.filter((s) => options.feeds[s]?.ok !== true)), true);
  const shrank = (supplier: SupplierId) => {
    const feed = options.feeds[supplier];
    return feed?.ok === true && count[supplier] > 0 && feed.listings.length < count[supplier] * (1 - options.shrinkLimit);
  };
  // A feed held back keeps what the supplier had: read again for it alone (rare: a broken feed).
  const heldBack = new Set(SUPPLIER_IDS.filter(shrank));
  if (heldBack.size > 0) {
    const again = await readServed(heldBack, false);
    for (const s of heldBack) kept[s] = again[s];
  }

  const suppliers = {} as ContentBuildResult['suppliers'];
  const listings: Listing[] = [];
  for (const supplier of SUPPLIER_IDS) {
    const feed = options.feeds[supplier];
    const previous = count[supplier];
    const before = previousInfo[supplier];
    const keep = (verdict: FeedVerdict, error: string | null, skipped = 0) => {
      for (const l of kept[supplier]) listings.push(l);
      suppliers[supplier] = {
        verdict,
        skipped,
        previous,
        state: previous === 0 ? 'unavailable' : error === null ? (before?.state ?? 'ok') : 'stale',
        listings: previous,
        lastRefresh: before?.lastRefresh ?? null,
        lastError: error ?? before?.lastError ?? null,
      };
    };
    if (feed === undefined) keep('not pulled', null);
    else if (!feed.ok) keep('failed', feed.error);
    else if (heldBack.has(supplier)) {
      // A broken feed must not delete a supplier's inventory: held back, reported, retried.
      keep(
        'held back',
        `feed held back: ${feed.listings.length} listings where ${previous} were held (more than ${Math.round(options.shrinkLimit * 100)}% fewer)`,
        feed.skipped,
      );
    } else {
      for (const l of feed.listings) listings.push(l);
      suppliers[supplier] = {
        verdict: 'applied',
        skipped: feed.skipped,
        previous,
        state: 'ok',
        listings: feed.listings.length,
        lastRefresh: now,
        lastError: feed.skipped > 0 ? `${feed.skipped} malformed records skipped` : null,
      };
    }
  }
  if (listings.length === 0) throw new Error('no supplier has any listing yet: nothing to publish');

  // Entity resolution over everything (a new listing on a second supplier joins its stay), then
  // the ids the map gives, so a stay keeps its id while any of its listings remains.
  const groups = mergeListings(listings);
  const known = await store.stayIds();
  const ids = assignStayIds(groups, known);
  const stays = buildStays(groups, ids);

  let added = 0,
    changed = 0;
  const seen = new Set<string>();
  const entries: StayIdEntry[] = [];
  for (const stay of stays) {
    seen.add(stay.id);
    const before = previousDigest.get(stay.id);
    if (before === undefined) added++;
    else if (before !== digestOf(stay)) changed++;
    for (const l of stay.listings) {
      if (known.get(`${l.supplier}:${l.supplierStayId}`) !== stay.id)
        entries.push({ supplier: l.supplier, supplierStayId: l.supplierStayId, stayId: stay.id });
    }
  }
  let removed = 0;
  for (const id of previousDigest.keys()) if (!seen.has(id)) removed++;

  const label = `${now}/${stays.length}s/${listings.length}l`;
  const info: ContentInfo = {
    suppliers: Object.fromEntries(
      SUPPLIER_IDS.map((s) => {
        const { verdict: _v, skipped: _s, previous: _p, ...content } = suppliers[s];
        return [s, content];
      }),
    ),
  };
  // The store compares the stays with the served version's (store/content-digest.ts): the same
  // ones publish nothing, and the served version's number comes back.
  const no = await store.publishContent(stays, label, info, entries);
  const unchanged = current !== null && no === current.no;
  return {
    no,
    label: unchanged ? current.label : label,
    unchanged,
    stays: stays.length,
    listings: listings.length,
    added,
    removed,
    changed,
    suppliers,
    ms: Math.round(performance.now() - started),
  };
}
