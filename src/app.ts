// The composition root: the only module that names concrete suppliers, stores and geocoders.
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defaults } from './defaults.ts';
import { createGazetteerGeocoder } from './geo/gazetteer-geocoder.ts';
import type { Geocoder } from './geo/geocoder.ts';
import { createFallbackRateLimiter } from './auth/fallback-rate-limiter.ts';
import { createKeyVerifier } from './auth/key-verifier.ts';
import { createMemoryRateLimiter } from './auth/memory-rate-limiter.ts';
import type { RateLimiter } from './auth/rate-limiter.ts';
import { createRedisRateLimiter, redactRedisUrl } from './auth/redis-rate-limiter.ts';
import { createBookingPage } from './clicks/booking-page.ts';
import { createHttpApp } from './http/create-http-app.ts';
import { createMetrics } from './metrics/create-metrics.ts';
import type { Tracking } from './http/partner/go-routes.ts';
import { createClickReplay } from './http/partner/replay-clicks.ts';
import type { Services } from './http/route-context.ts';
import { createContentService } from './inventory/content-service.ts';
import { createContentWorker } from './inventory/content-worker-client.ts';
import { createStayCache } from './inventory/stay-cache.ts';
import { suppliersWithoutStays } from './inventory/stay-index.ts';
import { createPartnerSummaries } from './reporting/partner-summary.ts';
import type { HealthReport } from './http/ops/health-routes.ts';
import { startDemoSeeding } from './reporting/seed-demo.ts';
import { createMapSearchCounter } from './auth/map-search-counter.ts';
import { describeNoReport, describeSync } from './reporting/describe-sync.ts';
import { importTransactionsCsv } from './reporting/import-transactions.ts';
import { createTransactionSync, type TransactionSync } from './reporting/sync-transactions.ts';
import { createSearch, type ClusteringSettings } from './search/search.ts';
import { createWorkSlicer } from './search/work-slicer.ts';
import { keepLease, withLease, type KeptLease } from './store/hold-lease.ts';
import { openSqliteStores, type Stores } from './compose/open-stores.ts';
import { createSuppliers, SUPPLIERS_MODULE } from './suppliers/create-suppliers.ts';
import { createQuoteService } from './suppliers/quote-service.ts';
import type { Supplier } from './suppliers/supplier.ts';
import { createRedisQuoteCache } from './suppliers/redis-quote-cache.ts';
import { createSupplierAuth } from './suppliers/supplier-auth.ts';
import { SUPPLIER_IDS, type SupplierId } from './types.ts';
import { supplierConfig, type SupplierSlot } from './compose/supplier-slots.ts';

export interface AppOptions {
  dataDir: string;
  /**
   * The stores (open-stores.ts: SQLite or PostgreSQL by DATABASE_URL); the app closes them. Absent =
   * the SQLite file of `dataDir`, the embedded default.
   */
  stores?: Stores;
  /** How long the report sync's lease lasts unrenewed (defaults.reportSyncLeaseMs). */
  reportSyncLeaseMs?: number;
  /** The four supplier slots: API, URL, credentials, booking page (supplier-slots.ts). */
  suppliers: readonly SupplierSlot[];
  /** The slots' drivers (default: createSuppliers of `suppliers`); tests give slots without a commission report. */
  drivers?: readonly Supplier[];
  /**
   * The simulator's control server, with the simulated suppliers: the demo partner's transactions of
   * a slot whose API has no commission report come from its CSV export (`GET /exports/transactions.csv`).
   */
  simControlUrl?: string | null;
  publicUrl?: string | null;
  now?: () => Date;
  logger?: FastifyServerOptions['logger'];
  geocoder?: Geocoder;
  /** Full stays kept in memory in front of the store. */
  stayCacheSize?: number;
  /** Where `meta.total` saturates. */
  totalCap?: number;
  /** Overall deadline for the suppliers' quotes of one search. */
  quoteBudgetMs?: number;
  /** A supplier's own deadline for one quote call (defaults.quoteCallTimeoutMs). */
  quoteCallTimeoutMs?: number;
  /** Milliseconds clock of the circuit breakers and the quote cache (tests move it by hand). */
  clock?: () => number;
  /** Shares rate limits and the quote cache between processes through Redis; absent or null = each process in memory. */
  redisUrl?: string | null;
  /**
   * Prefix of the limiter's Redis keys (tests use a unique one); the shared quote cache's are
   * under `${redisKeyPrefix}quotes:` then (default defaults.redisQuoteKeyPrefix).
   */
  redisKeyPrefix?: string;
  /** How long a Redis call may take before the limiter falls back to memory, or the quote cache to asking the supplier (tests on a loaded machine allow more). */
  redisCommandTimeoutMs?: number;
  /** Requests per endpoint per minute: keyless per IP, keyed per key (a key may carry its own), keyless clicks on `/go`. */
  rateLimits?: Partial<{ keyless: number; keyed: number; goKeyless: number; mapKeyless: number; mapToken: number }>;
  /** How often the map search counts are added to the store (defaults.mapCountFlushMs). */
  mapCountFlushMs?: number;
  /** Milliseconds clock of the rate limiter (tests); absent = monotonic in memory, Redis's own clock with Redis. */
  rateLimitClock?: () => number;
  /** Proxies whose X-Forwarded-For gives the client IP; absent or empty = the socket address. */
  trustedProxies?: string[];
  /** How old the in-memory API keys may get before the key store is checked for changes. */
  keyRefreshMs?: number;
  /** Origins browsers may call from; default defaults.corsOrigins (any). */
  corsOrigins?: readonly string[];
  /** Who may read /metrics; default defaults.metricsAllow (loopback). */
  metricsAllow?: readonly string[];
  /** Pull the suppliers' commission reports this often once ready; 0 or null = only on demand. Default defaults.reportSyncIntervalMs. */
  reportSyncIntervalMs?: number | null;
  /** Each pull re-reads this much before the end of the previous one (defaults.reportSyncOverlapMs). */
  reportSyncOverlapMs?: number;
  /** A scheduled pull is a reconciliation of the last `reportReconcileDays` days this often; 0 = only on demand (defaults). */
  reportReconcileIntervalMs?: number;
  reportReconcileDays?: number;
  /** Pull every supplier's content feed again this often; 0 or null = only on demand. Default defaults.contentRefreshMs. */
  contentRefreshMs?: number | null;
  /** First retry of a supplier whose feed failed (defaults.contentRetryMs), doubling up to the refresh interval. */
  contentRetryMs?: number;
  /** Share by which a feed may shrink before it is held back (defaults.feedShrinkLimit). */
  feedShrinkLimit?: number;
  /** How often the store is checked for a version published elsewhere (defaults.contentPollMs). */
  contentPollMs?: number;
  /** Seed the demo partner on the first start (the embedded default, with the simulated suppliers only). */
  demo?: boolean;
  /** Backdated clicks of the demo partner (defaults.demoClicks). */
  demoClicks?: number;
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
  refreshContent(only?: readonly SupplierId[]): ReturnType<ReturnType<typeof createContentService>['refresh']>;
  /** What /health reports. */
  health(): HealthReport;
  /** Adds the map searches counted so far to the store now (what the schedule does every mapCountFlushMs). */
  flushMapSearches(): Promise<void>;
  close(): Promise<void>;
}

/** The adapters of the four suppliers at these base URLs (the CLI's sync uses them too). */
export { createSuppliers, SUPPLIERS_MODULE };

/** The clustering rules' figures the search core is given (bench/clustering.ts uses them too). */
export const clusteringDefaults: ClusteringSettings = {
  targetCells: defaults.clusterTargetCells,
  maxResolution: defaults.clusterMaxResolution,
  topMaxResolution: defaults.topMaxResolution,
  maxPrecisionCells: defaults.maxPrecisionCells,
  autoFlatDiagonalMeters: defaults.autoFlatDiagonalMeters,
  autoMinStays: defaults.autoClusterMinStays,
};

export function createApp(options: AppOptions): App {
  // The data folder keeps what is local to this machine: the SQLite file (without DATABASE_URL),
  // the simulator's state, the demo key.
  mkdirSync(options.dataDir, { recursive: true });
  const stores = options.stores ?? openSqliteStores(options.dataDir);
  const { store, clicks, transactions, leases } = stores;
  const keyStore = stores.keys;
  const now = options.now ?? (() => new Date());
  const bookingPages = Object.fromEntries(options.suppliers.map((slot) => [slot.id, createBookingPage(slot)])) as Tracking['bookingPages'];

  // Rate limits: in memory, or shared through Redis with the memory limiter as the fallback while
  // Redis is unreachable (README, "Rate limits").
  const windowMs = defaults.rateWindowMs;
  const memory = createMemoryRateLimiter({ windowMs, clock: options.rateLimitClock });
  const redis = options.redisUrl
    ? createRedisRateLimiter({
        url: options.redisUrl,
        prefix: options.redisKeyPrefix ?? defaults.redisKeyPrefix,
        windowMs,
        clock: options.rateLimitClock,
        commandTimeoutMs: options.redisCommandTimeoutMs ?? defaults.redisCommandTimeoutMs,
        onError: () => undefined, // reconnect attempts fail every few seconds; the fallback logs the outage once
      })
    : null;
  const redisName = options.redisUrl ? redactRedisUrl(options.redisUrl) : '';
  const limiter: RateLimiter =
    redis === null
      ? memory
      : createFallbackRateLimiter({
          primary: redis,
          fallback: memory,
          retryMs: defaults.redisRetryMs,
          onDegraded: (error) =>
            http.log.error({ err: error }, `Redis at ${redisName} is unreachable: rate limits are enforced per process until it is back`),
          onRecovered: (restored) =>
            http.log.info(
              `Redis at ${redisName} answers again: rate limits are shared again (${restored} requests accepted meanwhile put back)`,
            ),
        });
  void redis?.connected(2_000).then(
    () => http.log.info(`rate limits shared through Redis at ${redisName}`),
    () => undefined, // the first hit tells
  );
  // Process metrics only where a real server runs: tests start many gateways in one process.
  const metrics = createMetrics({ processMetrics: options.logger !== undefined && options.logger !== false });
  const suppliers = options.drivers ?? createSuppliers(options.suppliers);
  // Whether each supplier accepts our credentials, told by quotes and content pulls alike (/health's `auth`).
  const auth = createSupplierAuth({ onRefused: (supplier) => metrics.authFailed(supplier) });
  // Quotes: each process's own cache, or with Redis one shared by every gateway, this process's
  // memory in front; a failing Redis only means the supplier is asked (docs/decisions.md 73).
  const sharedQuotes = options.redisUrl
    ? createRedisQuoteCache({
        url: options.redisUrl,
        prefix: options.redisKeyPrefix === undefined ? defaults.redisQuoteKeyPrefix : `${options.redisKeyPrefix}quotes:`,
        maxEntries: defaults.quoteCacheMaxEntries * suppliers.length,
        now: options.clock,
        commandTimeoutMs: options.redisCommandTimeoutMs ?? defaults.redisCommandTimeoutMs,
        retryMs: defaults.redisRetryMs,
        onDegraded: (error) =>
          http.log.error(
            { err: error },
            `the quote cache cannot use Redis at ${redisName}: each gateway caches quotes on its own until it answers`,
          ),
        onRecovered: () => http.log.info(`Redis at ${redisName} answers again: quotes are shared again`),
      })
    : null;
  const sync = createTransactionSync({
    suppliers,
    store: transactions,
    clicks,
    keys: keyStore,
    now,
    overlapMs: options.reportSyncOverlapMs,
    reconcileDays: options.reportReconcileDays,
  });
  const quotes = new Map(
    suppliers.map((supplier) => [
      supplier.id,
      createQuoteService({
        supplier,
        now: options.clock,
        observer: metrics.quotes,
        callTimeoutMs: options.quoteCallTimeoutMs,
        auth,
        ...(sharedQuotes === null ? {} : { cache: sharedQuotes }),
        onBreakerTransition: (to, cause) => {
          const line = { supplier: supplier.id, breaker: to, cause };
          if (to === 'open') http.log.warn(line, `${supplier.id}: circuit breaker open (${cause})`);
          else http.log.info(line, `${supplier.id}: circuit breaker ${to} (${cause})`);
        },
      }),
    ]),
  );
  const gazetteer = options.geocoder === undefined ? createGazetteerGeocoder() : null;
  const geocoder: Geocoder = options.geocoder ?? gazetteer!;
  // The gazetteer's lookup (~1 s of synchronous work, once per process) is built now, before the
  // server listens: built later it would hold the event loop while /health and searches wait
  // (the refresh bench saw /health answer in 1.5 s), and in the first address search otherwise.
  gazetteer?.warm();
  let services: Services | null = null;
  metrics.setSources({
    breakerStates: () => Object.fromEntries([...quotes].map(([id, service]) => [id, service.breakerState()])),
    inventory: () => services?.inventory ?? null,
  });
  // One slicer for the process: heavy steps take turns across content versions too.
  const slicer = createWorkSlicer({ sliceMs: defaults.workSliceMs });
  let builtAt = '';
  let started = false;
  let reportSyncRole: KeptLease | null = null;
  let demoSeeding: Promise<void> = Promise.resolve();
  const abort = new AbortController();
  // Merging, building, writing and indexing a content version run in this worker, off the event loop.
  const worker = createContentWorker({
    where: stores.location,
    feeds: { module: SUPPLIERS_MODULE, configs: options.suppliers.map(supplierConfig) },
    settings: defaults,
  });
  const content = createContentService({
    store,
    worker,
    shrinkLimit: options.feedShrinkLimit ?? defaults.feedShrinkLimit,
    refreshMs: options.contentRefreshMs === undefined ? defaults.contentRefreshMs : (options.contentRefreshMs ?? 0),
    retryMs: options.contentRetryMs ?? defaults.contentRetryMs,
    pollMs: options.contentPollMs ?? defaults.contentPollMs,
    log: (message) => http.log.info(message),
    warn: (message) => http.log.warn(message),
    auth,
    onRateLimitWaits: (supplier, waits) => metrics.rateLimitWaits(supplier, waits),
    // One refresh at a time on the database, whichever gateway or CLI runs it (docs/decisions.md 76).
    exclusive: (work) => withLease({ leases, name: 'content', ttlMs: defaults.contentLeaseMs }, work),
    serve({ index, pyramid, version, label }) {
      // One assignment swaps everything a search reads: the index, its pyramid, the stays and ids
      // of that version. Searches already running finish on the version they started with.
      services = {
        search: createSearch({
          index,
          pyramid,
          stays: createStayCache(version, { capacity: options.stayCacheSize ?? defaults.stayCacheSize }),
          store: version,
          geocoder,
          slicer,
          totalCap: options.totalCap ?? defaults.totalCap,
          quotes,
          pricedCandidates: defaults.pricedCandidates,
          quoteBudgetMs: options.quoteBudgetMs ?? defaults.quoteBudgetMs,
          clustering: clusteringDefaults,
        }),
        inventory: { stays: index.size, version: label },
        // docs/decisions.md 68: a dated search names the suppliers whose stays it cannot hold.
        contentUnavailable: suppliersWithoutStays(index),
      };
      builtAt = now().toISOString();
    },
  });
  // Map searches made with a token, per token and month, for the partners' hub (docs/decisions.md 91).
  const mapSearches = createMapSearchCounter({
    store: keyStore,
    flushMs: options.mapCountFlushMs ?? defaults.mapCountFlushMs,
    onError: (error) => http.log.error({ err: error }, 'storing the map search counts failed; they are kept for the next try'),
  });
  const tracking: Tracking = { clicks, bookingPages, keylessPerMinute: options.rateLimits?.goKeyless ?? defaults.goKeylessPerMinute };

  const http = createHttpApp({
    services: () => services,
    now,
    publicUrl: options.publicUrl ?? null,
    logger: options.logger ?? false,
    access: {
      keys: createKeyVerifier({
        store: keyStore,
        maxAgeMs: options.keyRefreshMs ?? defaults.keyRefreshMs,
        onError: (error) => http.log.error({ err: error }, 'reloading the API keys failed; the keys held are still used'),
      }),
      limiter,
      limits: {
        keyless: options.rateLimits?.keyless ?? defaults.keylessPerMinute,
        keyed: options.rateLimits?.keyed ?? defaults.keyedPerMinute,
      },
      clock: options.rateLimitClock,
      windowMs,
      onRefused: (endpoint) => metrics.rateLimited(endpoint),
    },
    corsOrigins: options.corsOrigins,
    metrics: { metrics, allow: options.metricsAllow ?? defaults.metricsAllow },
    tracking,
    reporting: { transactions, summary: createPartnerSummaries({ clicks, transactions, keys: keyStore }) },
    trustedProxies: options.trustedProxies,
    pages: {
      dir: options.webDir ?? fileURLToPath(new URL('../web/dist/', import.meta.url)),
      geocode: (address) => geocoder.geocode(address),
      tilesUrl: options.mapTilesUrl ?? null,
      tilesAttribution: options.mapTilesAttribution ?? null,
      keylessPerMinute: options.rateLimits?.mapKeyless ?? defaults.mapKeylessPerMinute,
      mapTokenPerMinute: options.rateLimits?.mapToken,
      mapSearches,
    },
    health,
  });

  function health(): HealthReport {
    const held = content.suppliers();
    const suppliersHealth = Object.fromEntries(
      SUPPLIER_IDS.map((s) => {
        const { state, listings, lastRefresh, lastError } = held[s];
        const credentials = auth.state(s);
        return [
          s,
          {
            content: state,
            listings,
            lastRefresh,
            // A refused credential is the cause to fix first: it is what the entry's error says.
            lastError: credentials.auth === 'failed' ? credentials.error : lastError,
            breaker: quotes.get(s)!.breakerState(),
            auth: credentials.auth,
          },
        ];
      }),
    ) as HealthReport['suppliers'];
    const degraded = Object.values(suppliersHealth).some((h) => h!.content !== 'ok' || h!.breaker !== 'closed' || h!.auth === 'failed');
    return {
      // Ready means ready: the first start is over (demo partner included), not just an index built.
      status: services === null || !started ? 'starting' : degraded ? 'degraded' : 'ok',
      inventory: services === null ? null : { ...services.inventory, builtAt, storeBytes: content.storeBytes() },
      suppliers: suppliersHealth,
    };
  }

  const ready = (async () => {
    const log = (message: string) => http.log.info(message);
    await content.start(abort.signal);
    if (options.demo) {
      // Through a private instance of the /go routes with a clock of its own (http/partner/replay-clicks.ts).
      // The first start waits for it unless it must wait for a supplier: then it ends on its own,
      // without a restart (docs/decisions.md 82).
      const replay = createClickReplay({ services: () => services, tracking });
      const seeding = startDemoSeeding({
        dataDir: options.dataDir,
        keys: keyStore,
        clicks: replay,
        sync: () => sync.syncAll(),
        importCsv: (supplier, file, csv) =>
          importTransactionsCsv({ supplier, file, csv, store: transactions, clicks, keys: keyStore, now }),
        simControlUrl: options.simControlUrl ?? null,
        now,
        count: options.demoClicks,
        log,
        warn: (message) => http.log.warn(message),
        missingContent: () => SUPPLIER_IDS.filter((s) => content.suppliers()[s].state === 'unavailable'),
        pollMs: options.contentPollMs ?? defaults.contentPollMs,
        retryMs: options.contentRetryMs ?? defaults.contentRetryMs,
        maxRetryMs: defaults.contentRefreshMs,
        signal: abort.signal,
      });
      demoSeeding = seeding.done.then(() => replay.close()).catch(() => undefined);
      await seeding.started;
    }
    const interval = options.reportSyncIntervalMs === undefined ? defaults.reportSyncIntervalMs : options.reportSyncIntervalMs;
    if (interval && !abort.signal.aborted) {
      const schedule = {
        intervalMs: interval,
        reconcileIntervalMs: options.reportReconcileIntervalMs ?? defaults.reportReconcileIntervalMs,
      };
      const listeners = {
        onRun: (results: Awaited<ReturnType<TransactionSync['syncAll']>>) => {
          for (const r of results) {
            if (!r.ok) http.log.warn(`commission report of ${r.supplier} not synced (asked again in ${interval / 1_000} s): ${r.error}`);
            // What a reconciliation found was late by more than the overlap: worth an operator's look.
            else if (r.kind === 'reconciliation')
              http.log[r.missed.length > 0 ? 'warn' : 'info']({ missed: r.missed }, `commission reconciliation ${describeSync(r)}`);
          }
        },
        onError: (error: unknown) => http.log.error({ err: error }, 'syncing the commission reports failed'),
      };
      // A slot without a report API is skipped by every pull: said once, with what to do instead.
      for (const supplier of suppliers) if (!supplier.commissionReport) http.log.info(describeNoReport(supplier.id));
      // One process of those sharing the database runs the schedule: the holder of the lease
      // `report-sync` (docs/decisions.md 76). Start and stop follow one another in order.
      let role = Promise.resolve();
      reportSyncRole = keepLease({
        leases,
        name: 'report-sync',
        ttlMs: options.reportSyncLeaseMs ?? defaults.reportSyncLeaseMs,
        onAcquired: () => {
          http.log.info('this gateway runs the scheduled commission report sync (it holds the lease report-sync)');
          role = role.then(() => sync.start(schedule, listeners));
        },
        onLost: (reason) => {
          http.log.warn(`the scheduled commission report sync stops here: ${reason}`);
          role = role.then(() => sync.stop());
        },
        onError: (error) => http.log.warn({ err: error }, 'taking the lease report-sync failed; trying again'),
      });
    }
    started = true;
  })();

  return {
    http,
    ready,
    transactions: sync,
    refreshContent: (only) => content.refresh(only),
    health,
    flushMapSearches: () => mapSearches.flush(),
    async close() {
      // Schedules first, then the listener (requests in flight finish), then what they use.
      abort.abort();
      content.stop();
      await http.close();
      await ready.catch(() => undefined);
      await demoSeeding;
      await reportSyncRole?.stop();
      await sync.stop();
      await worker.close();
      await mapSearches.close();
      await Promise.all([stores.close(), limiter.close(), sharedQuotes?.close()]);
    },
  };
}
