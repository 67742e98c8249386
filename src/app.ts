// The composition root: the only module that names concrete suppliers, stores and geocoders. It
// calls the units of compose/ in order (each a function of the settings and the units it needs) and
// owns the gateway's start and stop.
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { mkdirSync } from 'node:fs';
import type { Geocoder } from './geo/geocoder.ts';
import { createBookingPage } from './clicks/booking-page.ts';
import { createMetrics } from './metrics/create-metrics.ts';
import type { Tracking } from './http/partner/go-routes.ts';
import type { ContentService } from './inventory/content-service.ts';
import type { HealthReport } from './http/ops/health-routes.ts';
import { createMapSearchCounter } from './auth/map-search-counter.ts';
import { createTransactionSync, type TransactionSync } from './reporting/sync-transactions.ts';
import { createWorkSlicer } from './search/work-slicer.ts';
import { openSqliteStores, type Stores } from './compose/open-stores.ts';
import { createContent } from './compose/content.ts';
import { startGateway } from './compose/first-start.ts';
import { healthReport } from './compose/health.ts';
import { createGatewayHttp, trackingOf, WEB_DIST } from './compose/http.ts';
import { createQuotePath } from './compose/quotes.ts';
import { createRateLimits } from './compose/rate-limits.ts';
import { createGeocoder, createServing } from './compose/search.ts';
import { createSuppliers, SUPPLIERS_MODULE } from './suppliers/create-suppliers.ts';
import type { Supplier } from './suppliers/supplier.ts';
import type { Settings, SupplierId } from './types.ts';
import type { SupplierSlot } from './compose/supplier-slots.ts';

export interface AppOptions {
  /**
   * Every tunable figure, resolved once at the entry: Config.settings (server.ts), or in tests
   * defaults.ts with a test's own figures. `settings.dataDir` keeps what is local to this machine:
   * the SQLite file (without DATABASE_URL), the simulator's state, the demo key.
   */
  settings: Settings;
  /**
   * The stores (open-stores.ts: SQLite or PostgreSQL by DATABASE_URL); the app closes them. Absent =
   * the SQLite file of the data folder, the embedded default.
   */
  stores?: Stores;
  /** The four supplier slots: API, URL, credentials, booking page (supplier-slots.ts). */
  suppliers: readonly SupplierSlot[];
  /** The slots' drivers (default: createSuppliers of `suppliers`); tests give slots without a commission report. */
  drivers?: readonly Supplier[];
  /**
   * The simulator's control server, with the simulated suppliers: the demo partner's transactions of
   * a slot whose API has no commission report come from its CSV export (`GET /exports/transactions.csv`).
   */
  simControlUrl?: string | null;
  /** STAYGATE_PUBLIC_URL; absent or null = the request's own host. */
  publicUrl?: string | null;
  now?: () => Date;
  logger?: FastifyServerOptions['logger'];
  geocoder?: Geocoder;
  /** Milliseconds clock of the circuit breakers and the quote cache (tests move it by hand). */
  clock?: () => number;
  /** Shares rate limits and the quote cache between processes through Redis; absent or null = each process in memory. */
  redisUrl?: string | null;
  /**
   * Prefix of the limiter's Redis keys (tests use a unique one); the shared quote cache's are
   * under `${redisKeyPrefix}quotes:` then. Absent or null = settings.redisKeyPrefix and redisQuoteKeyPrefix.
   */
  redisKeyPrefix?: string | null;
  /** Milliseconds clock of the rate limiter (tests); absent = monotonic in memory, Redis's own clock with Redis. */
  rateLimitClock?: () => number;
  /** Proxies whose X-Forwarded-For gives the client IP; absent or empty = the socket address. */
  trustedProxies?: readonly string[];
  /** Seed the demo partner on the first start (the embedded default, with the simulated suppliers only). */
  demo?: boolean;
  /** Where the built pages are (web/build.ts); default web/dist of this package. */
  webDir?: string;
  /** A raster tile template for the map instead of the offline basemap (STAYGATE_MAP_TILES_URL). */
  mapTilesUrl?: string | null;
  mapTilesAttribution?: string | null;
}

export interface App {
  http: FastifyInstance;
  /** Settles once the inventory is ingested (first start) or loaded, and the index is built. */
  ready: Promise<void>;
  /** Pulls the suppliers' commission reports now (what the schedule does). */
  transactions: TransactionSync;
  /** Pulls the suppliers' content feeds now (what the schedule does) and serves the new version. */
  refreshContent(only?: readonly SupplierId[]): ReturnType<ContentService['refresh']>;
  /** What /health reports. */
  health(): HealthReport;
  /** Adds the map searches counted so far to the store now (what the schedule does every mapCountFlushMs). */
  flushMapSearches(): Promise<void>;
  close(): Promise<void>;
}

/** The adapters of the four suppliers at these base URLs (the CLI's sync uses them too). */
export { createSuppliers, SUPPLIERS_MODULE };

/**
 * Builds a gateway: the units of compose/ in the order each needs the one before (compose/README.md).
 * About 100 lines: one line or block per unit, in order, and the gateway's stop; it owns nothing else.
 */
export function createApp(options: AppOptions): App {
  const { settings } = options;
  mkdirSync(settings.dataDir, { recursive: true });
  const stores = options.stores ?? openSqliteStores(settings.dataDir, settings);
  const now = options.now ?? (() => new Date());
  const redis = { redisUrl: options.redisUrl ?? null, redisKeyPrefix: options.redisKeyPrefix ?? null };
  // The units log through the HTTP app's logger, made last: they reach it when something happens.
  const log = () => http.log;

  const limiter = createRateLimits({ settings, ...redis, clock: options.rateLimitClock, log });
  // Process metrics only where a real server runs: tests start many gateways in one process.
  const metrics = createMetrics({ processMetrics: options.logger !== undefined && options.logger !== false });
  const quotePath = createQuotePath({
    settings,
    slots: options.suppliers,
    drivers: options.drivers,
    ...redis,
    clock: options.clock,
    metrics,
    log,
  });
  const { suppliers, auth, quotes } = quotePath;
  const sync = createTransactionSync({
    suppliers,
    store: stores.transactions,
    clicks: stores.clicks,
    keys: stores.keys,
    now,
    settings,
  });
  const geocoder = createGeocoder(options.geocoder);
  // One slicer for the process: heavy steps take turns across content versions too.
  const slicer = createWorkSlicer({ sliceMs: settings.workSliceMs });
  const serving = createServing({ settings, geocoder, slicer, quotes }, now);
  metrics.setSources({
    breakerStates: () => Object.fromEntries([...quotes].map(([id, service]) => [id, service.breakerState()])),
    inventory: () => serving.services()?.inventory ?? null,
  });
  const { content, worker } = createContent({ settings, stores, slots: options.suppliers, auth, metrics, log, serve: serving.serve });
  const mapSearches = createMapSearchCounter({
    store: stores.keys,
    flushMs: settings.mapCountFlushMs,
    onError: (error) => http.log.error({ err: error }, 'storing the map search counts failed; they are kept for the next try'),
  });
  const bookingPages = Object.fromEntries(options.suppliers.map((slot) => [slot.id, createBookingPage(slot)])) as Tracking['bookingPages'];
  const tracking = trackingOf(settings, stores.clicks, bookingPages);
  let started = false;
  const health = () =>
    healthReport({ content, auth, quotes, services: serving.services, builtAt: serving.builtAt, started: () => started });
  const http = createGatewayHttp({
    settings,
    services: serving.services,
    now,
    publicUrl: options.publicUrl ?? null,
    logger: options.logger ?? false,
    trustedProxies: options.trustedProxies ?? [],
    stores,
    limiter,
    rateLimitClock: options.rateLimitClock,
    metrics,
    tracking,
    pages: {
      dir: options.webDir ?? WEB_DIST,
      geocode: (address) => geocoder.geocode(address),
      tilesUrl: options.mapTilesUrl ?? null,
      tilesAttribution: options.mapTilesAttribution ?? null,
    },
    mapSearches,
    health,
  });

  const start = startGateway({
    settings,
    content,
    sync,
    suppliers,
    leases: stores.leases,
    demo: options.demo ? { stores, services: serving.services, tracking, simControlUrl: options.simControlUrl ?? null, now } : null,
    log: http.log,
  });
  // Ready means ready: the first start is over (demo partner included), not just an index built.
  const ready = start.ready.then(() => {
    started = true;
  });

  return {
    http,
    ready,
    transactions: sync,
    refreshContent: (only) => content.refresh(only),
    health,
    flushMapSearches: () => mapSearches.flush(),
    async close() {
      // Schedules first, then the listener (requests in flight finish), then what they use.
      start.abort();
      content.stop();
      await http.close();
      await start.settled();
      await sync.stop();
      await worker.close();
      await mapSearches.close();
      await Promise.all([stores.close(), limiter.close(), quotePath.close()]);
    },
  };
}
