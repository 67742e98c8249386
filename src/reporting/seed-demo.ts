// The demo partner of the embedded default (README, "Reporting"): on the first start with the
// simulated suppliers, partner `demo` gets a key (written to <data dir>/demo-key.txt) and about a
// year of transactions made the way every transaction is made: backdated clicks through the real
// `/go` routes, landings on the suppliers' booking pages, the suppliers' bookings and commission
// reports, and a sync. Nothing is written into the transactions table directly.
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import pLimit from 'p-limit';
import { createKeyAdmin } from '../auth/key-admin.ts';
import type { KeyStore } from '../auth/key-store.ts';
import { defaults } from '../defaults.ts';
import type { SupplierSyncResult } from './sync-transactions.ts';

/** What the seeding needs of the HTTP layer (http/replay-clicks.ts). */
export interface DemoClicks {
  links(query: string): Promise<string[]>;
  click(link: string, at: Date, userAgent: string): Promise<string>;
}

export interface SeedDemoOptions {
  dataDir: string;
  keys: KeyStore;
  clicks: DemoClicks;
  sync: () => Promise<SupplierSyncResult[]>;
  now?: () => Date;
  /** Backdated clicks to replay (defaults.demoClicks) over the last `days` (defaults.demoDays). */
  count?: number;
  days?: number;
  log?: (message: string) => void;
}

export interface SeedDemoResult {
  keyFile: string;
  clicks: number;
  /** Transactions the sync brought in. */
  transactions: number;
  ms: number;
}

/**
 * Simulator only (sim/bookings.ts SIM_CLICK_TIME_PARAM): the booking pages of the simulated
 * suppliers take the landing's time from this parameter, so a year of clicks lands in seconds.
 */
export const SIM_CLICK_TIME_PARAM = 'simClickTime';

/** Where the demo travellers look: tourist cities of the simulated world (lat, lng). */
const DESTINATIONS: readonly (readonly [number, number])[] = [
  [48.8566, 2.3522], [51.5074, -0.1278], [41.9028, 12.4964], [41.3874, 2.1686], [40.7128, -74.006],
  [35.6762, 139.6503], [52.3676, 4.9041], [38.7223, -9.1393], [50.0755, 14.4378], [13.7563, 100.5018],
  [25.2048, 55.2708], [-33.8688, 151.2093],
];

const CAMPAIGNS: readonly (readonly [string | null, number])[] = [
  ['newsletter-spring', 14], ['newsletter-summer', 14], ['blog-city-guides', 22], ['sidebar-banner', 18],
  ['social-instagram-story', 12], [null, 20],
];

/** A browser of each device class (clicks/device-class.ts), by share of clicks. */
const BROWSERS: readonly (readonly [string, number])[] = [
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 30],
  ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15', 14],
  ['Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1', 26],
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
 * Seeds the demo partner once: nothing happens when a key with the demo aid exists. The key is
 * made (and its file written) first, so an interrupted first start never seeds twice; it then
 * just has a shorter demo history.
 */
export async function seedDemoPartner(options: SeedDemoOptions): Promise<SeedDemoResult | null> {
  if ((await options.keys.list()).some((key) => key.aid === defaults.demoAid)) return null;
  const started = performance.now();
  const now = (options.now ?? (() => new Date()))();
  const count = options.count ?? defaults.demoClicks;
  const days = options.days ?? defaults.demoDays;

  const { key } = await createKeyAdmin(options.keys, { now: () => now }).create({
    aid: defaults.demoAid, partnerId: defaults.demoAid, thirdParties: [defaults.demoThirdParty],
  });
  const keyFile = path.join(options.dataDir, 'demo-key.txt');
  writeKeyFile(keyFile, key);

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
  const landings: Promise<void>[] = [];
  for (const ms of times) {
    const at = new Date(Math.floor(ms / 1_000) * 1_000);
    const params = new URLSearchParams({ aid: defaults.demoAid });
    const campaign = pick(rng, CAMPAIGNS);
    if (campaign !== null) params.set('campaign', campaign);
    if (rng() < 0.4) {
      // A dated link, as a dated search makes: check-in 1-120 days after the click, 1-7 nights.
      const checkin = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()) + (1 + Math.floor(rng() ** 2 * 120)) * DAY_MS;
      params.set('checkin', new Date(checkin).toISOString().slice(0, 10));
      params.set('checkout', new Date(checkin + (1 + Math.floor(rng() * 7)) * DAY_MS).toISOString().slice(0, 10));
    }
    const target = targets[Math.floor(rng() * targets.length)];
    const location = new URL(await options.clicks.click(`${target}?${params}`, at, pick(rng, BROWSERS)));
    location.searchParams.set(SIM_CLICK_TIME_PARAM, at.toISOString());
    landings.push(land(async () => {
      const response = await fetch(location);
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`the booking page ${location.origin}${location.pathname} answered ${response.status}`);
    }));
  }
  await Promise.all(landings);

  const results = await options.sync();
  const failed = results.filter((r) => !r.ok);
  if (failed.length > 0) throw new Error(`the demo's first sync failed for ${failed.map((r) => `${r.supplier} (${r.error})`).join(', ')}`);
  const transactions = results.reduce((a, r) => a + r.inserted, 0);
  const ms = Math.round(performance.now() - started);
  options.log?.(`demo partner "${defaults.demoAid}" seeded: ${count} clicks over ${days} days, ${transactions} transactions, in ${ms} ms; its key is in ${keyFile}`);
  return { keyFile, clicks: count, transactions, ms };
}
