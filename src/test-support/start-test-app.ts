// Test support: a whole gateway on a small simulated world, over real HTTP between the gateway
// and the simulated suppliers, with a temporary data folder.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApp, createSuppliers, type App, type AppOptions } from '../app.ts';
import { createKeyAdmin, type CreateKeyInput } from '../auth/key-admin.ts';
import { openStores, type RecordStores } from '../compose/open-stores.ts';
import { simulatedSlots, type SupplierSlot } from '../compose/supplier-slots.ts';
import { generateWorld, type SimListing, type SimSuppliers, startSimSuppliers, type World } from '@staygate/sim';
import type { Supplier } from '../suppliers/supplier.ts';
import { defaults } from '../defaults.ts';
import type { Listing, Settings, SupplierId } from '../types.ts';
import { bookingDemandListing } from './booking-demand-listing.ts';
import { expediaRapidListing } from './expedia-rapid-listing.ts';
import { hotelbedsListing } from './hotelbeds-listing.ts';
import { liteapiListing } from './liteapi-listing.ts';
import { createResponseValidator, type OpenApiDocument } from './openapi-validator.ts';

export interface TestApp {
  app: App;
  world: World;
  sim: SimSuppliers;
  /** The gateway's data folder: tests open the key and click stores on its database, as the CLI does. */
  dataDir: string;
  /** The one clock of the gateway and the simulated suppliers: TEST_NOW until a test moves it. */
  clock: TestClock;
  /**
   * Ground truth of a supplier entry: `${supplier}:${supplierStayId}` -> the listing as its slot's API
   * carries it (a Hotelbeds slot: no guest rating, its own types; hotelbeds-listing.ts; a LiteAPI
   * slot: its own types and room sizes, photos on the slot; liteapi-listing.ts; an Expedia Rapid
   * slot: its categories, ratings and unit configurations; expedia-rapid-listing.ts; a Booking.com
   * slot: booking-demand-listing.ts).
   */
  listing(supplier: string, supplierStayId: string): Listing & { propertyId: number };
  /** The gateway's key, click, transaction and lease stores on handles of their own, as the CLI opens them (open-stores.ts). */
  openStores(): Promise<RecordStores>;
  /** A new API key in the gateway's key store, as `staygate keys create` makes one; the gateway knows it at once. */
  createKey(input: CreateKeyInput): Promise<string>;
  get(url: string, headers?: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; body: any }>;
  close(): Promise<void>;
}

/** A fixed "today" so that date rules do not depend on when the tests run. */
export const TEST_NOW = new Date('2026-11-21T10:00:00Z');

export interface TestClock {
  now(): Date;
  set(date: Date): void;
  advance(ms: number): void;
}

export function createTestClock(start: Date = TEST_NOW): TestClock {
  let t = start.getTime();
  return {
    now: () => new Date(t),
    set: (date) => {
      t = date.getTime();
    },
    advance: (ms) => {
      t += ms;
    },
  };
}

export interface TestAppOptions {
  stays?: number;
  seed?: number;
  /** The gateway's figures where a test needs its own: defaults.ts, then the test rate limits and deadlines below, then these. */
  settings?: Partial<Settings>;
  /** The gateway's other options (its geocoder, clocks, Redis...). */
  app?: Partial<Omit<AppOptions, 'settings'>>;
  /**
   * Slots whose driver has no commission report, as Hotelbeds' and Expedia Rapid's: the sync skips
   * them and their transactions come from a CSV import (the demo imports the simulator's export).
   */
  withoutReport?: readonly SupplierId[];
  /** Simulator options; quotes answer at once unless a test asks for latency. */
  sim?: Partial<Omit<Parameters<typeof startSimSuppliers>[0], 'world'>>;
  /** The slots the gateway runs with, from the simulator's: what an operator's configuration would change of them (a BOOKING_URL). */
  slots?: (simulated: SupplierSlot[]) => SupplierSlot[];
}

/**
 * Rate limits in tests, unless a test sets its own (`settings: { keylessPerMinute }`...): high
 * enough that suites making many requests from one address are never limited by accident.
 */
export const TEST_RATE_LIMITS = {
  keylessPerMinute: 1_000_000,
  keyedPerMinute: 1_000_000,
  goKeylessPerMinute: 1_000_000,
  mapKeylessPerMinute: 1_000_000,
} satisfies Partial<Settings>;

/**
 * Quote deadlines in tests, unless a test sets its own (`settings: { quoteBudgetMs, quoteCallTimeoutMs }`):
 * far beyond any healthy answer of the in-process simulator, however loaded the machine (test files
 * run concurrently), so that a test not about deadlines never meets one. A test about a hung or slow
 * supplier sets a short budget, and asserts nothing that a healthy supplier must do within it
 * (docs/decisions.md 71).
 */
export const TEST_QUOTE_DEADLINES = { quoteBudgetMs: 60_000, quoteCallTimeoutMs: 30_000 } satisfies Partial<Settings>;

/** The same driver without its commission report: a slot whose API has none. */
export function withoutCommissionReport(supplier: Supplier): Supplier {
  return {
    id: supplier.id,
    maxIdsPerQuote: supplier.maxIdsPerQuote,
    contentPages: (options) => supplier.contentPages(options),
    quote: (request, signal) => supplier.quote(request, signal),
  };
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const world = generateWorld({ seed: options.seed ?? 7, stays: options.stays ?? 8_000 });
  const clock = createTestClock();
  const sim = await startSimSuppliers({ world, latencyMs: 0, now: () => clock.now().getTime(), ...options.sim });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'staygate-test-'));
  // The slots as the simulator gives them, changed where a test configures a slot otherwise.
  const slots = (options.slots ?? ((simulated) => simulated))(simulatedSlots(sim.slots));
  // Commission reports are pulled when a test says so (app.transactions.syncAll()), not on a timer;
  // keys are checked at every request, so a key a test makes works at once.
  const settings: Settings = {
    ...defaults,
    dataDir,
    keyRefreshMs: 0,
    reportSyncIntervalMs: 0,
    ...TEST_RATE_LIMITS,
    ...TEST_QUOTE_DEADLINES,
    ...options.settings,
  };
  const app = createApp({
    settings,
    suppliers: slots,
    simControlUrl: sim.controlUrl,
    ...(options.withoutReport === undefined
      ? {}
      : {
          drivers: createSuppliers(slots, settings).map((s) => (options.withoutReport!.includes(s.id) ? withoutCommissionReport(s) : s)),
        }),
    now: clock.now,
    publicUrl: 'http://gw.test',
    ...options.app,
  });
  await app.ready;
  let checkResponse: ReturnType<typeof createResponseValidator> | undefined;
  const listings = new Map<string, SimListing>();
  for (const list of Object.values(world.listings)) for (const l of list) listings.set(`${l.supplier}:${l.supplierStayId}`, l);
  return {
    app,
    world,
    sim,
    dataDir: settings.dataDir,
    clock,
    listing(supplier, supplierStayId) {
      const found = listings.get(`${supplier}:${supplierStayId}`);
      if (found === undefined) throw new Error(`no ground truth for ${supplier}:${supplierStayId}`);
      const slot = sim.slots[supplier as SupplierId];
      if (slot.api === 'hotelbeds') return hotelbedsListing(found, slot.url);
      if (slot.api === 'booking-demand') return bookingDemandListing(found, slot.url);
      if (slot.api === 'liteapi') return liteapiListing(found, slot.url);
      return slot.api === 'expedia-rapid' ? expediaRapidListing(found, slot.url) : found;
    },
    openStores: () => openStores({ dataDir: settings.dataDir, databaseUrl: null, settings }, { content: false }),
    async createKey(input) {
      const stores = await openStores({ dataDir: settings.dataDir, databaseUrl: null, settings }, { content: false });
      try {
        return (await createKeyAdmin(stores.keys).create(input)).key;
      } finally {
        await stores.close();
      }
    },
    async get(url, headers = {}) {
      const response = await app.http.inject({ method: 'GET', url, headers });
      const type = String(response.headers['content-type'] ?? '');
      const body = type.includes('json') ? response.json() : response.body;
      // Every JSON answer is held to the published document (a 500 is a bug the test reports itself).
      if (response.statusCode !== 500) {
        checkResponse ??= createResponseValidator(app.http.swagger() as unknown as OpenApiDocument);
        const { problems } = checkResponse('GET', url, response.statusCode, type, body);
        if (problems.length > 0)
          throw new Error(`GET ${url} -> ${response.statusCode} does not match /openapi.json:\n${problems.join('\n')}`);
      }
      return { status: response.statusCode, headers: response.headers, body };
    },
    async close() {
      await app.close();
      await sim.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
