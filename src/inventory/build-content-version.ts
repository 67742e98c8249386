// One content refresh's CPU-heavy half, run in the content worker (content-worker.ts): what each
// supplier's feed brought, or what it had when its feed failed or shrank, merged, given stable ids,
// built and published as a new content version beside the served one.
import { hash } from 'node:crypto';
import type { RankedStay, StayIdEntry, Store } from '../store/store.ts';
import { SUPPLIER_IDS, type Listing, type Settings, type Stay, type SupplierId } from '../types.ts';
import { assignStayIds } from './assign-stay-ids.ts';
import { buildStays } from './build-stays.ts';
import { encodeChunkCells } from './exact-cells.ts';
import { mergeListings, type MergeSettings } from './merge-listings.ts';
import type { RankSettings } from './rank-stays.ts';

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
  /** The merge's gates and the ranking prior. */
  settings: MergeSettings & RankSettings & Pick<Settings, 'clusterMaxResolution'>;
  now?: () => Date;
}

/** A digest of what a stay shows, to tell a changed stay from an unchanged one without keeping 160k documents. */
const digestOf = (stay: Stay): string => hash('sha1', JSON.stringify({ ...stay, idx: 0, rank: undefined }), 'base64');

/** What the served version holds, as far as a build needs it. */
interface ServedListings {
  /** Each stay's digest, by stay id. */
  digests: Map<string, string>;
  /** Each supplier's listing count. */
  counts: Record<SupplierId, number>;
  /** The listings of the suppliers that keep theirs (feed failed, not pulled or held back); empty for the others. */
  kept: Record<SupplierId, Listing[]>;
}

const perSupplier = <T>(make: () => T): Record<SupplierId, T> =>
  Object.fromEntries(SUPPLIER_IDS.map((s) => [s, make()])) as Record<SupplierId, T>;

/**
 * Reads the served version: each stay's digest, each supplier's listing count, and the listings
 * themselves only of suppliers that keep them: holding every old listing beside the new feeds
 * doubled the worker's heap during a refresh. Whether a feed shrank past the limit is known only
 * after the counts, so a held-back supplier's listings are read in a second pass (rare: a broken feed).
 */
async function readServed(
  store: Store,
  no: number | null,
  feeds: BuildContentOptions['feeds'],
  shrinkLimit: number,
): Promise<ServedListings & { heldBack: Set<SupplierId> }> {
  const served: ServedListings = { digests: new Map(), counts: perSupplier(() => 0), kept: perSupplier(() => [] as Listing[]) };
  const pass = async (wanted: ReadonlySet<SupplierId>, tally: boolean): Promise<void> => {
    if (no === null) return;
    for await (const batch of store.version(no).allStays()) {
      for (const stay of batch) {
        if (tally) served.digests.set(stay.id, digestOf(stay));
        for (const listing of stay.listings) {
          if (tally) served.counts[listing.supplier]++;
          if (wanted.has(listing.supplier)) served.kept[listing.supplier].push(listing);
        }
      }
    }
  };
  await pass(new Set(SUPPLIER_IDS.filter((s) => feeds[s]?.ok !== true)), true);
  const shrank = (supplier: SupplierId) => {
    const feed = feeds[supplier];
    const count = served.counts[supplier];
    return feed?.ok === true && count > 0 && feed.listings.length < count * (1 - shrinkLimit);
  };
  const heldBack = new Set(SUPPLIER_IDS.filter(shrank));
  if (heldBack.size > 0) await pass(heldBack, false);
  return { ...served, heldBack };
}

/** Each supplier's verdict and state, and the listings the new version is built from: applied feeds and kept listings. */
function chooseListings(
  options: BuildContentOptions,
  served: ServedListings & { heldBack: Set<SupplierId> },
  previousInfo: ContentInfo['suppliers'],
  now: string,
): { listings: Listing[]; suppliers: ContentBuildResult['suppliers'] } {
  const suppliers = {} as ContentBuildResult['suppliers'];
  const listings: Listing[] = [];
  for (const supplier of SUPPLIER_IDS) {
    const feed = options.feeds[supplier];
    const previous = served.counts[supplier];
    const before = previousInfo[supplier];
    const keep = (verdict: FeedVerdict, error: string | null, skipped = 0) => {
      for (const l of served.kept[supplier]) listings.push(l);
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
    else if (served.heldBack.has(supplier)) {
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
  return { listings, suppliers };
}

/** Stays added, removed and changed against the served version, and the listings whose stay id the map lacks. */
function diffStays(
  stays: readonly RankedStay[],
  digests: ReadonlyMap<string, string>,
  known: ReadonlyMap<string, string>,
): { added: number; removed: number; changed: number; entries: StayIdEntry[] } {
  let added = 0,
    changed = 0;
  const seen = new Set<string>();
  const entries: StayIdEntry[] = [];
  for (const stay of stays) {
    seen.add(stay.id);
    const before = digests.get(stay.id);
    if (before === undefined) added++;
    else if (before !== digestOf(stay)) changed++;
    for (const l of stay.listings) {
      if (known.get(`${l.supplier}:${l.supplierStayId}`) !== stay.id)
        entries.push({ supplier: l.supplier, supplierStayId: l.supplierStayId, stayId: stay.id });
    }
  }
  let removed = 0;
  for (const id of digests.keys()) if (!seen.has(id)) removed++;
  return { added, removed, changed, entries };
}

export async function buildContentVersion(options: BuildContentOptions): Promise<ContentBuildResult> {
  const started = performance.now();
  const { store } = options;
  const now = (options.now ?? (() => new Date()))().toISOString();
  const current = await store.currentContent();
  const served = await readServed(store, current?.no ?? null, options.feeds, options.shrinkLimit);
  const { listings, suppliers } = chooseListings(options, served, ((current?.info ?? {}) as ContentInfo).suppliers ?? {}, now);
  if (listings.length === 0) throw new Error('no supplier has any listing yet: nothing to publish');

  // Entity resolution over everything (a new listing on a second supplier joins its stay), then
  // the ids the map gives, so a stay keeps its id while any of its listings remains.
  const groups = mergeListings(listings, options.settings);
  const known = await store.stayIds();
  const stays = buildStays(groups, options.settings, assignStayIds(groups, known));
  const { added, removed, changed, entries } = diffStays(stays, served.digests, known);

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
  // ones publish nothing, and the served version's number comes back. Each chunk keeps its
  // stays' exact cells, which every start's index build reads instead of computing (decision 215).
  const { clusterMaxResolution } = options.settings;
  const no = await store.publishContent(stays, label, info, entries, (chunk) => encodeChunkCells(chunk, clusterMaxResolution));
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
