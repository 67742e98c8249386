// The demo partner of the embedded default (README, "Reporting"): on the first start with the
// simulated suppliers, partner `demo` gets a key (written to <data dir>/demo-key.txt) and about a
// year of transactions made the way every transaction is made: backdated clicks through the real
// `/go` routes, landings on the suppliers' booking pages, the suppliers' bookings and commission
// reports, and a sync; for a slot whose API has no commission report (the sync skips it), the
// import of the simulator's CSV export of its transactions, as an operator would import the
// affiliate network's. Nothing is written into the transactions table directly.
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import pLimit from 'p-limit';
import { createKeyAdmin } from '../auth/key-admin.ts';
import type { KeyStore } from '../auth/key-store.ts';
import type { Settings, SupplierId } from '../types.ts';
import type { ImportTransactionsResult } from './import-transactions.ts';
import type { SupplierSyncResult } from './sync-transactions.ts';

/** What the seeding needs of the HTTP layer (http/partner/replay-clicks.ts). */
export interface DemoClicks {
  links(query: string): Promise<string[]>;
  click(link: string, at: Date, userAgent: string): Promise<string>;
}

export type DemoSettings = Pick<Settings, 'demoAid' | 'demoThirdParty' | 'demoClicks' | 'demoDays' | 'reportFirstSyncDays'>;

export interface SeedDemoOptions {
  dataDir: string;
  keys: KeyStore;
  clicks: DemoClicks;
  sync: () => Promise<SupplierSyncResult[]>;
  /**
   * Imports a CSV export of a slot's transactions (import-transactions.ts' importTransactionsCsv):
   * for the slots the sync skipped (no commission report API), the simulator's export.
   */
  importCsv?: (supplier: SupplierId, file: string, csv: Uint8Array) => Promise<ImportTransactionsResult>;
  /** The simulator's control server, which serves those exports (`GET /exports/transactions.csv`). */
  simControlUrl?: string | null;
  now?: () => Date;
  /**
   * `config.settings`: the demo partner's aid (its partner id too) and third party, its backdated
   * clicks (`demoClicks` over the last `demoDays`), and the period a first report pull reads.
   */
  settings: DemoSettings;
  log?: (message: string) => void;
  /** Hears that a previous seeding was interrupted (default: `log`). */
  warn?: (message: string) => void;
  /** Awaited once the key exists, before the clicks: startDemoSeeding waits there for every supplier's content. */
  clicksWait?: () => Promise<void>;
  /** Stops the seeding between batches (the gateway shutting down); what landed is kept for the next attempt. */
  signal?: AbortSignal;
}

export interface SeedDemoResult {
  keyFile: string;
  clicks: number;
  /** Transactions the sync brought in. */
  transactions: number;
  ms: number;
  /** Clicks an interrupted seeding had made, which this one did not make again (0 for a first seeding). */
  resumedAfter: number;
}

/**
 * Simulator only (@staygate/sim's SIM_CLICK_TIME_PARAM; seed-demo.test.ts checks they agree): the booking pages of the simulated
 * suppliers take the landing's time from this parameter, so a year of clicks lands in seconds.
 */
export const SIM_CLICK_TIME_PARAM = 'simClickTime';

/** Where the demo travellers look: tourist cities of the simulated world (lat, lng). */
const DESTINATIONS: readonly (readonly [number, number])[] = [
  [48.8566, 2.3522],
  [51.5074, -0.1278],
  [41.9028, 12.4964],
  [41.3874, 2.1686],
  [40.7128, -74.006],
  [35.6762, 139.6503],
  [52.3676, 4.9041],
  [38.7223, -9.1393],
  [50.0755, 14.4378],
  [13.7563, 100.5018],
  [25.2048, 55.2708],
  [-33.8688, 151.2093],
];

const CAMPAIGNS: readonly (readonly [string | null, number])[] = [
  ['newsletter-spring', 14],
  ['newsletter-summer', 14],
  ['blog-city-guides', 22],
  ['sidebar-banner', 18],
  ['social-instagram-story', 12],
  [null, 20],
];

/** A browser of each device class (clicks/device-class.ts), by share of clicks. */
const BROWSERS: readonly (readonly [string, number])[] = [
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 30],
  ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15', 14],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    26,
  ],
  ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36', 16],
  ['Mozilla/5.0 (iPad; CPU OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1', 10],
  ['', 4],
];

const DAY_MS = 86_400_000;

/** mulberry32: the demo is the same on every first start. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(rng: () => number, entries: readonly (readonly [T, number])[]): T {
  let x = rng() * entries.reduce((a, [, w]) => a + w, 0);
  for (const [value, weight] of entries) if ((x -= weight) < 0) return value;
  return entries[entries.length - 1][0];
}

function writeKeyFile(file: string, key: string): void {
  const fd = openSync(file, 'w', 0o600);
  try {
    writeSync(fd, `${key}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * The origins of the demo partner's map token (docs/decisions.md 92): the map opened on the
 * gateway itself (the README's /map demo) and any local page framing it (the README's iframe
 * embed, served from any port of this machine).
 */
export const DEMO_MAP_ORIGINS = ['self', 'http://localhost:*', 'http://127.0.0.1:*'] as const;

/**
 * Gives the demo partner a map token when it has an active key and no working token, and writes
 * it to `<data dir>/demo-map-token.txt` (README: `/map?token=$(cat data/demo-map-token.txt)`).
 */
export async function ensureDemoMapToken(keys: KeyStore, dataDir: string, now: Date, demoAid: string): Promise<string | null> {
  let token = (await keys.mapTokens()).find((t) => t.aid === demoAid && t.status === 'active')?.token;
  if (token === undefined) {
    const key = (await keys.list()).find((k) => k.aid === demoAid && k.status === 'active');
    if (key === undefined) return null;
    token = (await createKeyAdmin(keys, { now: () => now }).createMapToken({ keyOrId: key.id, origins: DEMO_MAP_ORIGINS })).token;
  }
  const file = path.join(dataDir, 'demo-map-token.txt');
  let held: string | null = null;
  try {
    held = readFileSync(file, 'utf8').trim();
  } catch {
    // not written yet
  }
  if (held !== token) writeKeyFile(file, token);
  return token;
}

/**
 * The progress of a seeding (`<data dir>/demo-seeding.json`): written before the key is made,
 * after each batch of clicks has landed, and removed once the seeding is done. Found on a start,
 * it says a seeding was interrupted, and from where to finish it.
 */
interface SeedingProgress {
  /** The seeding's clock: the clicks' times are counted back from it, the same on every attempt. */
  now: string;
  count: number;
  days: number;
  /** Clicks made and landed, in time order. */
  done: number;
}

/**
 * Clicks made, then landed, before the progress is written: a seeding interrupted in a batch
 * makes that batch's clicks again (at most this many made twice), never one of an earlier batch.
 */
const BATCH = 8;

function readProgress(file: string): SeedingProgress | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as SeedingProgress;
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return null;
    // Cut short by the interruption (the write is atomic, so only by hand): start the clicks over.
    return { now: '', count: 0, days: 0, done: 0 };
  }
}

/** Atomic (write, then rename): a reader never finds half a file. */
function writeProgress(file: string, progress: SeedingProgress): void {
  writeFileSync(`${file}.tmp`, JSON.stringify(progress));
  renameSync(`${file}.tmp`, file);
}

/**
 * Seeds the demo partner once: nothing happens when a key with the demo aid exists and no seeding
 * is in progress. A seeding that was interrupted (a stop or a crash during the first start) is
 * logged on the next start and finished there: the same clicks at the same times, from the first
 * batch that had not fully landed, then the sync.
 */
export async function seedDemoPartner(options: SeedDemoOptions): Promise<SeedDemoResult | null> {
  const progressFile = path.join(options.dataDir, 'demo-seeding.json');
  const keyFile = path.join(options.dataDir, 'demo-key.txt');
  const interrupted = readProgress(progressFile);
  const { settings } = options;
  const keyed = (await options.keys.list()).some((key) => key.aid === settings.demoAid);
  if (keyed && interrupted === null) {
    // A data folder seeded before map tokens existed gets the demo's token too.
    await ensureDemoMapToken(options.keys, options.dataDir, (options.now ?? (() => new Date()))(), settings.demoAid);
    return null;
  }
  const started = performance.now();
  const resume = keyed && interrupted !== null && interrupted.now !== '' ? interrupted : null;
  const now = resume === null ? (options.now ?? (() => new Date()))() : new Date(resume.now);
  const count = resume?.count ?? settings.demoClicks;
  const days = resume?.days ?? settings.demoDays;
  const skip = resume?.done ?? 0;
  if (interrupted !== null) {
    (options.warn ?? options.log)?.(
      resume !== null
        ? `the demo partner's seeding was interrupted after ${skip} of ${count} clicks; finishing it`
        : keyed
          ? "the demo partner's seeding was interrupted and its progress is unreadable; making its clicks again"
          : "the demo partner's seeding was interrupted before its key was made; seeding it again",
    );
  }
  writeProgress(progressFile, { now: now.toISOString(), count, days, done: skip });

  if (!keyed) {
    const { key } = await createKeyAdmin(options.keys, { now: () => now }).create({
      aid: settings.demoAid,
      partnerId: settings.demoAid,
      thirdParties: [settings.demoThirdParty],
    });
    writeKeyFile(keyFile, key);
  }
  await ensureDemoMapToken(options.keys, options.dataDir, now, settings.demoAid);
  await options.clicksWait?.();
  await makeClicks(options, { now, count, days, skip }, progressFile);
  options.signal?.throwIfAborted();

  const results = await options.sync();
  const failed = results.filter((r) => !r.ok);
  if (failed.length > 0) throw new Error(`the demo's first sync failed for ${failed.map((r) => `${r.supplier} (${r.error})`).join(', ')}`);
  let transactions = results.reduce((a, r) => a + r.inserted, 0);
  // Importing again after a failed attempt changes nothing already imported.
  const imported = results.filter((r) => r.noReport).map((r) => r.supplier);
  for (const supplier of imported) transactions += (await importSimExport(options, supplier)).inserted;
  const ms = Math.round(performance.now() - started);
  rmSync(progressFile, { force: true });
  options.log?.(
    `demo partner "${settings.demoAid}" seeded: ${count} clicks over ${days} days, ${transactions} transactions` +
      `${imported.length > 0 ? ` (${imported.join(', ')} from the simulator's CSV export)` : ''}, in ${ms} ms` +
      `${skip > 0 ? ` (finishing an interrupted seeding after its first ${skip} clicks)` : ''}; its key is in ${keyFile}`,
  );
  return { keyFile, clicks: count, transactions, ms, resumedAfter: skip };
}

/**
 * The demo partner's backdated clicks: `count` at random times of the `days` before `now`, on stays
 * of the demo's destinations, each landing on its booking page; from click `skip` on (those before
 * were made by an interrupted seeding), the progress written after every batch that fully landed.
 */
async function makeClicks(
  options: SeedDemoOptions,
  { now, count, days, skip }: { now: Date; count: number; days: number; skip: number },
  progressFile: string,
): Promise<void> {
  const links = new Set<string>();
  for (const [lat, lng] of DESTINATIONS) {
    for (const link of await options.clicks.links(`lat=${lat}&lng=${lng}&radius=8000&pageSize=100`)) links.add(link.split('?')[0]);
  }
  const targets = [...links];
  if (targets.length === 0) throw new Error('no stays to click for the demo partner');

  const rng = random(20_261_121);
  const start = now.getTime() - days * DAY_MS;
  const times = Array.from({ length: count }, () => start + Math.floor(rng() * (days * DAY_MS - 3_600_000))).sort((a, b) => a - b);
  // Landings are independent of each other: several in flight while the next clicks are made.
  const land = pLimit(8);
  let landings: Promise<void>[] = [];
  for (const [i, ms] of times.entries()) {
    if (i > skip && i % BATCH === 0) {
      options.signal?.throwIfAborted();
      // Every click before i has landed: a seeding interrupted from here on starts at i.
      await Promise.all(landings);
      landings = [];
      writeProgress(progressFile, { now: now.toISOString(), count, days, done: i });
    }
    const at = new Date(Math.floor(ms / 1_000) * 1_000);
    const params = new URLSearchParams({ aid: options.settings.demoAid });
    const campaign = pick(rng, CAMPAIGNS);
    if (campaign !== null) params.set('campaign', campaign);
    if (rng() < 0.4) {
      // A dated link, as a dated search makes: check-in 1-120 days after the click, 1-7 nights.
      const checkin = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()) + (1 + Math.floor(rng() ** 2 * 120)) * DAY_MS;
      params.set('checkin', new Date(checkin).toISOString().slice(0, 10));
      params.set('checkout', new Date(checkin + (1 + Math.floor(rng() * 7)) * DAY_MS).toISOString().slice(0, 10));
    }
    const target = targets[Math.floor(rng() * targets.length)];
    const browser = pick(rng, BROWSERS);
    // Made by the interrupted seeding: the random draws above are consumed all the same, so the
    // clicks that follow are the ones it would have made.
    if (i < skip) continue;
    const location = new URL(await options.clicks.click(`${target}?${params}`, at, browser));
    location.searchParams.set(SIM_CLICK_TIME_PARAM, at.toISOString());
    landings.push(
      land(async () => {
        const response = await fetch(location);
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`the booking page ${location.origin}${location.pathname} answered ${response.status}`);
      }),
    );
  }
  await Promise.all(landings);
  // Every click has landed: a seeding whose sync fails makes none again.
  if (skip < count) writeProgress(progressFile, { now: now.toISOString(), count, days, done: count });
}

/**
 * Imports the simulator's CSV export of a slot's transactions: the changes of the period a first
 * report pull reads (settings.reportFirstSyncDays) up to now, through the import every operator uses.
 */
async function importSimExport(options: SeedDemoOptions, supplier: SupplierId): Promise<ImportTransactionsResult> {
  if (!options.simControlUrl || options.importCsv === undefined)
    throw new Error(`${supplier} has no commission report API, and there is no simulator export to import its transactions from`);
  const to = (options.now ?? (() => new Date()))();
  const from = new Date(to.getTime() - options.settings.reportFirstSyncDays * DAY_MS);
  const url = new URL('/exports/transactions.csv', options.simControlUrl);
  url.search = new URLSearchParams({ supplier, from: from.toISOString(), to: to.toISOString() }).toString();
  const response = await fetch(url);
  const csv = new Uint8Array(await response.arrayBuffer());
  if (!response.ok) throw new Error(`the simulator's export of ${supplier} answered ${response.status}`);
  return options.importCsv(supplier, `transactions-${supplier}.csv`, csv);
}

export interface DemoSeedingOptions extends Omit<SeedDemoOptions, 'clicksWait' | 'signal'> {
  /** Suppliers whose content the gateway does not hold yet (down since the first start): the clicks wait for them. */
  missingContent(): SupplierId[];
  /** How often missingContent is asked while the clicks wait. */
  pollMs: number;
  /** Wait after a failed attempt, doubling up to maxRetryMs. */
  retryMs: number;
  maxRetryMs: number;
  /** The gateway shutting down: no further attempt, and the one running stops between batches. */
  signal: AbortSignal;
}

export interface DemoSeeding {
  /**
   * Settles once the demo partner is seeded, or as soon as its seeding has to wait (a supplier
   * without content, a failed attempt): what the first start waits for (docs/decisions.md 82).
   */
  started: Promise<void>;
  /** Settles once the demo partner is complete, or the signal aborted. Never rejects. */
  done: Promise<void>;
}

/**
 * Seeds the demo partner until it is complete (docs/decisions.md 82): the key at once; the clicks
 * once every supplier's content is in, so that a supplier down at the first start has its share
 * of the year too; a failed attempt (a supplier's booking page or report down) tried again,
 * 30 s doubling by default, finishing where it stopped (seedDemoPartner's progress). No restart needed.
 */
export function startDemoSeeding(options: DemoSeedingOptions): DemoSeeding {
  let settle!: () => void;
  const started = new Promise<void>((resolve) => {
    settle = resolve;
  });
  const warn = options.warn ?? options.log;
  const clicksWait = async (): Promise<void> => {
    const missing = options.missingContent();
    if (missing.length === 0) return;
    settle();
    warn?.(
      `the demo partner's clicks wait for the content of ${missing.join(', ')} (not answering): its key is made, its year of transactions follows once they answer`,
    );
    while (options.missingContent().length > 0) await delay(options.pollMs, undefined, { signal: options.signal, ref: false });
  };
  const done = (async () => {
    for (let attempt = 1; !options.signal.aborted; attempt++) {
      try {
        await seedDemoPartner({ ...options, clicksWait, signal: options.signal });
        return;
      } catch (error) {
        if (options.signal.aborted) return;
        const wait = Math.min(options.retryMs * 2 ** (attempt - 1), options.maxRetryMs);
        warn?.(`seeding the demo partner failed (${(error as Error).message}); trying again in ${Math.round(wait / 1_000)} s`);
        settle();
        await delay(wait, undefined, { signal: options.signal, ref: false }).catch(() => undefined);
      }
    }
  })().finally(settle);
  return { started, done };
}
