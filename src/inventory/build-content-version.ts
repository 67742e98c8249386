// One content refresh's CPU-heavy half, run in the content worker (content-worker.ts): what each
// supplier's feed brought, or what it had when its feed failed or shrank, merged, given stable ids,
// built and published as a new content version beside the served one.
import { hash } from 'node:crypto';
import type { StayIdMap } from '../store/stay-id-map.ts';
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

/**
 * What a stay shows, as 8 bytes of a SHA-1 in `out[at]` and `out[at + 1]`: tells a changed stay
 * from an unchanged one without keeping its document (a chance of 2^-64 a stay to miss a change
 * in the report's count; the store compares whole versions by its own digest).
 */
function digestInto(stay: Stay, out: Uint32Array, at: number): void {
  const digest = hash('sha1', JSON.stringify({ ...stay, idx: 0, rank: undefined }), 'buffer');
  out[at] = digest.readUInt32LE(0);
  out[at + 1] = digest.readUInt32LE(4);
}

/**
 * The served stays' digests, two words each by the number of the stay's id in the id map (a
 * served id is one of the map's: its listings were recorded with it), and which numbers are
 * served. At 10M stays a Map of id and base64 strings was ~1.1 GB; these are ~80 MB. A served id
 * the map lacks (a version published without its ids: tests, a store written by hand) is kept
 * by id in `unmapped`: numbering it would count it as given, and its stay would lose it.
 */
interface ServedDigests {
  words: Uint32Array;
  served: Uint8Array;
  unmapped: Map<string, Uint32Array>;
}

/** What the served version holds, as far as a build needs it. */
interface ServedListings {
  digests: ServedDigests;
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
  known: StayIdMap,
): Promise<ServedListings & { heldBack: Set<SupplierId> }> {
  const digests: ServedDigests = {
    words: new Uint32Array(2 * known.stayCount),
    served: new Uint8Array(known.stayCount),
    unmapped: new Map(),
  };
  const served: ServedListings = { digests, counts: perSupplier(() => 0), kept: perSupplier(() => [] as Listing[]) };
  const pass = async (wanted: ReadonlySet<SupplierId>, tally: boolean): Promise<void> => {
    if (no === null) return;
    for await (const batch of store.version(no).allStays()) {
      for (const stay of batch) {
        if (tally) {
          const n = known.stayNumber(stay.id);
          if (n >= 0) {
            digests.served[n] = 1;
            digestInto(stay, digests.words, 2 * n);
          } else {
            const digest = new Uint32Array(2);
            digestInto(stay, digest, 0);
            digests.unmapped.set(stay.id, digest);
          }
        }
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
  digests: ServedDigests,
  known: StayIdMap,
): { added: number; removed: number; changed: number; entries: StayIdEntry[] } {
  let added = 0,
    changed = 0,
    removed = 0;
  const seen = new Uint8Array(digests.served.length);
  const digest = new Uint32Array(2);
  const entries: StayIdEntry[] = [];
  // What is left of `unmapped` once the new stays are seen was removed.
  const unmapped = new Map(digests.unmapped);
  for (const stay of stays) {
    const n = known.stayNumber(stay.id);
    const servedAs =
      n >= 0 && n < seen.length && digests.served[n] === 1 ? digests.words.subarray(2 * n, 2 * n + 2) : unmapped.get(stay.id);
    if (servedAs === undefined) added++;
    else {
      if (n >= 0 && n < seen.length) seen[n] = 1;
      unmapped.delete(stay.id);
      digestInto(stay, digest, 0);
      if (digest[0] !== servedAs[0] || digest[1] !== servedAs[1]) changed++;
    }
    for (const l of stay.listings) {
      if (known.get(`${l.supplier}:${l.supplierStayId}`) !== stay.id)
        entries.push({ supplier: l.supplier, supplierStayId: l.supplierStayId, stayId: stay.id });
    }
  }
  for (let n = 0; n < seen.length; n++) if (digests.served[n] === 1 && seen[n] === 0) removed++;
  removed += unmapped.size;
  return { added, removed, changed, entries };
}

/**
 * The new version's stays and what changed against the served one. Its own function so that what
 * only it needs (the id map, the served digests, the merge's groups: gigabytes at 10M stays) is
 * gone before the publish, which holds the stays' documents too.
 */
async function buildNewStays(options: BuildContentOptions, current: { no: number; info: unknown } | null, now: string) {
  const { store } = options;
  // The id map first: the served stays' digests are kept by their ids' numbers in it.
  const known = await store.stayIds();
  const served = await readServed(store, current?.no ?? null, options.feeds, options.shrinkLimit, known);
  const { listings, suppliers } = chooseListings(options, served, ((current?.info ?? {}) as ContentInfo).suppliers ?? {}, now);
  if (listings.length === 0) throw new Error('no supplier has any listing yet: nothing to publish');

  // Entity resolution over everything (a new listing on a second supplier joins its stay), then
  // the ids the map gives, so a stay keeps its id while any of its listings remains.
  const groups = mergeListings(listings, options.settings);
  const stays = buildStays(groups, options.settings, assignStayIds(groups, known));
  return { stays, listings: listings.length, suppliers, ...diffStays(stays, served.digests, known) };
}

export async function buildContentVersion(options: BuildContentOptions): Promise<ContentBuildResult> {
  const started = performance.now();
  const { store } = options;
  const now = (options.now ?? (() => new Date()))().toISOString();
  const current = await store.currentContent();
  const { stays, listings, suppliers, added, removed, changed, entries } = await buildNewStays(options, current, now);

  const label = `${now}/${stays.length}s/${listings}l`;
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
    listings,
    added,
    removed,
    changed,
    suppliers,
    ms: Math.round(performance.now() - started),
  };
}
