// Every default of the service in one place, each with the reason it has its value.
// Configuration (src/config.ts) reads the environment and falls back to these.

export const defaults = {
  /** HTTP port of the gateway. */
  port: 3000,
  /** Where the SQLite store and generated files live; git-ignored. */
  dataDir: './data',
  /** Seed of the simulated world: the same seed gives the same stays, names and prices. */
  simSeed: 42,
  /** Stays in the default simulated world (issue 2 asks for at least 150,000). */
  simStays: 160_000,
  /** Records per content-feed page asked of a supplier during ingestion. */
  feedPageSize: 2_000,
  /** Deadline for one content-feed page: feeds are big, but a hung supplier must not hang boot. */
  feedPageTimeoutMs: 30_000,
  /**
   * A supplier's 429 (suppliers/fetch-json.ts): how often one call waits and sends again before it
   * gives up as `rate_limited`. A few: a limit per second clears within them; one that does not
   * is a quota, which more waiting in the same call would not clear.
   */
  rateLimitMaxWaits: 3,
  /** The first wait after a 429 without Retry-After when the driver names none (it doubles per wait). */
  rateLimitBackoffMs: 1_000,
  /**
   * The longest single wait a 429 may ask for (Retry-After) or the backoff may reach: a supplier
   * asking for more (an exhausted quota) fails the call as `rate_limited` at once, even when the
   * call has no deadline, rather than holding a content pull for an hour.
   */
  rateLimitMaxWaitMs: 60_000,
  /**
   * How often every supplier's content feed is pulled again (README, "Content refresh"). Suppliers
   * change a fraction of a percent of their listings a day: hourly keeps openings and closures
   * within the hour for the cost of one pull (~10 s of I/O and a worker's build) an hour.
   */
  contentRefreshMs: 3_600_000,
  /**
   * First retry of a supplier whose feed failed (down at the first start, or during a refresh);
   * each failure doubles the wait up to contentRefreshMs. 30 s: an outage of minutes costs a
   * supplier's stays minutes, and a long one costs the supplier one request a refresh interval.
   */
  contentRetryMs: 30_000,
  /**
   * A feed with fewer listings than (1 - this) of what the supplier had is held back, not applied:
   * real inventories move well under 1% a day, so losing a fifth at once is a broken feed (an
   * empty page, a filter left on), and applying it would delete the supplier's stays.
   */
  feedShrinkLimit: 0.2,
  /**
   * How often a gateway looks at the store for a content version published by someone else
   * (`staygate content refresh`, another process): the command's version is served within a
   * second plus the index build.
   */
  contentPollMs: 1_000,
  /**
   * Nice value of the content worker's thread (Linux only; docs/decisions.md 67). When searches
   * and a refresh want more CPU than there is, searches go first: at 10 the worker's weight is
   * about a tenth of the event loop's thread, so a build never starves the loop (stalls of 100+
   * ms on a busy 2-core machine), and a refresh only takes longer under load.
   */
  contentWorkerNice: 10,
  /**
   * Content versions kept in the store besides those a live reader holds (docs/decisions.md 69):
   * the newest and the one before, so a gateway that has not swapped yet still reads its own.
   */
  contentVersionsKept: 2,
  /**
   * A content reader (a gateway's store handle serving a version) whose heartbeat is older than
   * this is dead (a killed process) and no longer keeps its versions from being pruned. A minute:
   * many heartbeats, so a busy event loop or a slow database never loses a live reader's versions.
   */
  contentReaderTtlMs: 60_000,
  /** How often a store handle renews the record of the versions it reads: four times per TTL. */
  contentReaderHeartbeatMs: 15_000,
  /** Requests in flight at SIGTERM/SIGINT get this long to finish before their connections are closed. */
  shutdownGraceMs: 10_000,

  /** Search radius in metres when `lat`/`lng` or `address` is given without `radius` (spec). */
  radiusMeters: 10_000,
  pageSize: 10,
  maxPageSize: 100,
  /** The party a dated search prices when it names none (spec: adults 2, rooms 1); its deeplinks carry it. */
  adults: 2,
  rooms: 1,
  maxHotelIds: 100,
  /** `meta.total` saturates here on broad static viewports (spec: "about 100,000"). */
  totalCap: 100_000,
  /**
   * Ranking prior (docs/decisions.md 10): a Bayesian average pulls a rating backed by few reviews
   * towards the global mean, so 10/10 from 2 reviews does not outrank 9.1 from 3,000.
   */
  rankPriorCount: 50,
  rankPriorMean: 7.5,

  /**
   * Full stays cached in memory in front of the store (inventory/stay-cache.ts). Pages of popular
   * areas repeat; 20,000 stays of ~1.5 KB each is ~30 MB, plus ~1 KB each of v3 JSON written
   * once per stay while it is cached (http/v3/render-v3.ts).
   */
  stayCacheSize: 20_000,

  /**
   * Dated searches price at most this many best-ranked candidates (docs/decisions.md 11): enough
   * for several pages after sold-out stays drop out, few enough that one search costs each
   * supplier one to three calls.
   */
  pricedCandidates: 150,
  /**
   * Overall deadline for the suppliers' quotes of one search. A hung supplier costs a search at
   * most this long, and its entries say `price: null`.
   */
  quoteBudgetMs: 1_500,

  /** v1 (deprecated) defaults from the spec: a 3-night stay from today + 90 days, 0-1000 USD a night. */
  v1CheckinInDays: 90,
  v1Nights: 3,
  v1MinPrice: 0,
  v1MaxPrice: 1_000,
  /**
   * When v1 was deprecated (RFC 9745 `Deprecation` header): v3 arrived with interface release
   * 1.5.0; we date the deprecation at our first release of v3.
   */
  v1DeprecatedAt: '2026-11-21T00:00:00Z',
  /**
   * When v1 may stop answering (RFC 8594 `Sunset` header on every v1 answer): a year after its
   * deprecation, the notice partners usually get to move an integration.
   */
  v1SunsetAt: '2027-11-21T00:00:00Z',

  /** Entity resolution: listings further apart than this are never the same property. */
  mergeMaxDistanceMeters: 150,
  /** Entity resolution: minimum name similarity (0..1) for two nearby listings to merge. */
  mergeMinNameSimilarity: 0.5,
  /**
   * Entity resolution: minimum pair score, name similarity + 0.5 x address similarity - 0.3 x
   * distance / mergeMaxDistanceMeters (inventory/merge-listings.ts). A name alone at 0.5 is weak
   * evidence ("Atlas Boutique Hotel" / "Bluebell Boutique Hotel"); the same address or a near-identical
   * name makes it strong. 0.9 drops nearly every false pair of the simulated world and ~0.05% of true ones.
   */
  mergeMinScore: 0.9,

  // Live quotes (suppliers/quote-service.ts), per supplier.
  /**
   * The supplier's own deadline for one quote call, counted from when the call goes out (not from
   * when the search began): a call that runs past it is the supplier's failure and counts against
   * its breaker. Shorter than quoteBudgetMs, so that a hung supplier is told from a search whose
   * budget ran out while its calls queued behind a burst (which never counts).
   */
  quoteCallTimeoutMs: 1_000,
  /**
   * Quote calls in flight at once to one supplier, shared by all concurrent searches: a burst of
   * searches queues here instead of hammering a supplier into rate limits or timeouts.
   */
  quoteConcurrency: 4,
  /** Consecutive failed calls that open a supplier's breaker: a few, so one blip does not. */
  breakerFailureThreshold: 5,
  /** How long an open breaker refuses before one trial call (the issue asks for 30 s). */
  breakerOpenMs: 30_000,
  /**
   * How long a quote (or sold-out answer) is reused: prices move slowly, but availability can go
   * within minutes, and a page repeated within a minute (next page, back button) need not ask again.
   */
  quoteCacheTtlMs: 60_000,
  /**
   * Quotes held per supplier (the least recently used go first). An entry measures ~190 B with its
   * key, so a full cache is ~19 MB per supplier, ~75 MB for four; room for ~650 distinct
   * (dates, party, currency) searches of 150 candidates per supplier within the TTL.
   */
  quoteCacheMaxEntries: 100_000,

  // API keys, rate limits and tracked deeplinks (auth/, clicks/, http/access/access-control.ts, http/partner/go-routes.ts).
  /** Keyless (demo) requests per endpoint per client IP per window (spec, Limits: 5 per minute). */
  keylessPerMinute: 5,
  /** Keyed requests per endpoint per key per window, unless the key carries its own limit (spec: 150). */
  keyedPerMinute: 150,
  /** The sliding window of every limit (spec: sliding 60 seconds). */
  rateWindowMs: 60_000,
  /**
   * Keyless clicks per client IP per minute on each `/go` route. Clicks come from travellers on a
   * partner's site, not from a partner's demo traffic: someone opening a dozen stays in tabs must
   * not meet a 429, while a click flood from one address still stops.
   */
  goKeylessPerMinute: 60,
  /**
   * Keyless requests per client IP per minute on the map page and its search (`/map`,
   * `/map/v3/accommodations`; docs/decisions.md 39). A traveller panning and zooming settles on a
   * new viewport every few seconds, and each costs the page two searches (the clustered map and the
   * list of the best stays): a brisk minute is 30-60 of them. 120 leaves room for that, for a
   * couple of people behind one address, and still stops a scraper at 2 a second.
   */
  mapKeylessPerMinute: 120,
  /**
   * Map searches per minute of one map token, every traveller on the partner's site together
   * (docs/decisions.md 91): each traveller also keeps to `mapKeylessPerMinute` per address. 3,000
   * is ~50 travellers panning at once, and still stops a scraper that borrowed the token at 50 a second.
   */
  mapTokenPerMinute: 3_000,
  /** The most stays a map search may ask for: what the map draws (web/map/map.ts MARKERS). */
  mapMaxPageSize: 50,
  /** How often each gateway adds its map search counts to the store (lost on a crash: at most this much). */
  mapCountFlushMs: 10_000,
  /**
   * Keyless requests per client IP per minute on each documentation page and on /openapi.json:
   * people reading and tools fetching, never the 5-per-minute search allowance (a page's scripts
   * and styles are not limited at all: they are static files a browser fetches together).
   */
  docsKeylessPerMinute: 60,

  // Web conventions (http/create-http-app.ts).
  /** Origins allowed to call the API from a browser (STAYGATE_CORS_ORIGINS): any, as keys travel in a header, never a cookie. */
  corsOrigins: ['*'] as readonly string[],
  /** How long a browser may reuse a CORS preflight's answer: ten minutes spares a widget a preflight per search. */
  corsMaxAgeSeconds: 600,
  /**
   * Bodies smaller than this are sent uncompressed: a small error body or a one-stay page gains a
   * few bytes and costs a compressor's set-up (compression figures: bench/README.md).
   */
  compressThresholdBytes: 1_024,
  /**
   * Brotli quality 2 (of 11). Measured on our JSON: a 10-stay v3 page (8.5 KB) takes ~31 us at
   * quality 2 (1,747 B), ~86 us at 4 (1,616 B), gzip level 6 ~33 us (1,672 B); an 87 KB clustered
   * answer ~240 us at 2 (13.4 KB), ~470 us at 4 (12.5 KB), gzip ~810 us (12.5 KB). Quality 2 costs
   * a small page what gzip does and a large one a third of it, for ~7% more bytes.
   */
  brotliQuality: 2,
  /**
   * Bodies up to this size are compressed in one synchronous zlib call rather than through a
   * stream: on this 2-core machine @fastify/compress would stream anything over 8 KB (a 10-stay v3
   * page is ~9 KB), and the stream's set-up cost more than the compression itself (static-search
   * ratio with gzip 0.30 streamed). A 256 KB body takes ~2 ms to gzip; larger ones, and every
   * streamed CSV page, still go through the stream.
   */
  compressSyncMaxBytes: 262_144,
  /**
   * The encoded bytes of static answers kept per entity tag and encoding (http/encoded-bodies.ts):
   * 32 MB holds ~4,000 ten-stay pages in all three encodings, or ~350 large clustered answers.
   */
  encodedBodiesMaxBytes: 32 * 1024 * 1024,
  /** Who may read GET /metrics (STAYGATE_METRICS_ALLOW): the machine itself, where a Prometheus agent usually scrapes from. */
  metricsAllow: ['loopback'] as readonly string[],
  /**
   * How old the server's in-memory keys may get before it reads the key store's change counter
   * (one tiny query): a key created, granted or revoked by the CLI works, or stops, within this
   * (the issue asks for one second), and requests cost no database read.
   */
  keyRefreshMs: 500,
  /**
   * A Redis limiter call not answered within this is given up and the request is limited in
   * memory instead: a struggling Redis must not slow every request. A healthy local call takes
   * well under a millisecond.
   */
  redisCommandTimeoutMs: 250,
  /** While Redis fails, it is retried at most this often; other requests go straight to the memory limiter. */
  redisRetryMs: 1_000,
  /** Prefix of the limiter's Redis keys, so one Redis can serve other things too. */
  redisKeyPrefix: 'staygate:rl:',
  /** Prefix of the shared quote cache's Redis keys (suppliers/redis-quote-cache.ts). */
  redisQuoteKeyPrefix: 'staygate:q:',

  // Map clustering (search/cluster-viewport.ts, search/choose-resolution.ts).
  /**
   * The resolution of a viewport is the one whose cells it holds about this many of (on a log
   * scale; resolutions step by 7x, so 38 to 265 cells): a map of ~1000 x 700 px then shows cells
   * some 50-150 px across, room for a cluster marker each, and a Western-Europe viewport lands on
   * r3 (~120 km hexagons).
   */
  clusterTargetCells: 100,
  /** Deepest resolution of `cluster=auto`/`true` (spec: r8, hexagons of ~460 m edge). */
  clusterMaxResolution: 8,
  /** Deepest resolution `cluster=top` chooses by itself (spec: "about r11", ~25 m edges); `precision` goes further. */
  topMaxResolution: 11,
  /**
   * The most H3 cells a `precision` may cut a viewport into (estimated from its area and the
   * resolution's average cell): a 4K screen has 8.3 million pixels, so more cells than this are
   * sub-pixel hexagons on any map. Beyond it the request is a 400 naming the finest precision
   * the viewport allows: `precision=15` over the world (10^15 cells) or `precision=9` over a
   * continent is no map, only work; r15 over a 2 km street view (5.5 million cells) still is.
   */
  maxPrecisionCells: 10_000_000,
  /**
   * How long one heavy search (stays placed in cells one by one, at precisions finer than the
   * cell pyramid) holds the event loop before it lets other requests in; heavy searches take
   * turns (search/work-slicer.ts).
   */
  workSliceMs: 5,
  /** `cluster=auto` answers a flat list for viewports with a shorter diagonal (spec: 5 km). */
  autoFlatDiagonalMeters: 5_000,
  /**
   * `cluster=auto` makes a cell a cluster from this many stays: up to four markers share a
   * hexagon without hiding each other, and a cluster that opens onto two or three stays costs
   * the user a click for nothing. `cluster=true` clusters any cell of two or more.
   */
  autoClusterMinStays: 5,

  // PostgreSQL (DATABASE_URL, open-stores.ts).
  /**
   * Connections per gateway process: a click, a key check or a CSV page needs one for a
   * millisecond or two (nothing is held while a client reads). Ten per gateway keeps a
   * default PostgreSQL (max_connections 100) enough for several gateways, the CLI and a content refresh.
   */
  pgPoolSize: 10,
  /** How long a content refresh holds the lease `content` without renewing it (docs/decisions.md 76). */
  contentLeaseMs: 30_000,

  // `staygate suppliers check` (cli/suppliers-command.ts, docs/decisions.md 148).
  /** Listings asked in its one content page: enough for a quote's batch, light on a sandbox's quota. */
  supplierCheckPageSize: 100,
  /** Its quote's check-in is this many days ahead, for this many nights: 2, since Vrbo's launch rules forbid shopping 1-night stays. */
  supplierCheckDaysAhead: 30,
  supplierCheckNights: 2,
  /** Each slot's check (a content page, then a quote) must be done within this; a hung API fails its slot. */
  supplierCheckTimeoutMs: 30_000,

  // Partner reporting (reporting/, http/partner/reporting-routes.ts).
  /** Rows per page of `GET /v1/reporting/transactions` when `limit` is not given, and its maximum (spec: 1 to 500, default 500). */
  reportingLimit: 500,
  /**
   * Commission reports are pulled from every supplier this often while the gateway runs
   * (STAYGATE_REPORT_SYNC_MS; 0 turns it off): a booking's change reaches the partner within
   * minutes, and a supplier is asked four times less often than its own rate limits would allow.
   */
  reportSyncIntervalMs: 300_000,
  /**
   * Each pull asks for the changes since the newest one already held, minus this
   * (STAYGATE_REPORT_SYNC_OVERLAP_MS): a supplier that writes a change late (a backfill, a clock
   * behind ours) is caught up with, and re-reading a day of changes costs nothing since upserts keep
   * the newest version. Later than this, only the reconciliation finds it.
   */
  reportSyncOverlapMs: 86_400_000,
  /**
   * A reconciliation re-reads this many days of every supplier's changes in full and applies what
   * the incremental pulls missed (a change published later than the overlap, issue 13): a month
   * covers a late back office and a supplier's monthly corrections, and costs a supplier a few
   * report pages.
   */
  reportReconcileDays: 30,
  /**
   * How often the schedule's pull is a reconciliation instead (STAYGATE_REPORT_RECONCILE_MS; 0 turns
   * it off): daily, so a late change reaches the partner within a day; the first pull after a start
   * is one, so a gateway restarted more often still reconciles.
   */
  reportReconcileIntervalMs: 86_400_000,
  /**
   * The scheduled report sync runs in one process of those sharing a database: it holds the lease
   * `report-sync` for this long, renewed every third of it (docs/decisions.md 76). A holder that dies
   * is replaced within 1⅓ of it (40 s), inside the minute the scale-out issue allows.
   */
  reportSyncLeaseMs: 30_000,
  /** The first pull from a supplier asks for the changes of this many days: the demo's year and a margin. */
  reportFirstSyncDays: 400,
  /** Records per page asked of a supplier's commission report (each caps it at its own maximum). */
  reportFeedPageSize: 500,
  /**
   * SQLite: connections kept for CSV exports, each page read on one inside its own read
   * transaction; beyond this many at once a page is read on the shared connection.
   */
  reportingReadConnections: 4,
  /**
   * Where the pages of recent exports ended, so the next page continues from there instead of
   * skipping all the rows before it (OFFSET costs ~0.7 µs per skipped row: page 400 of 500 rows
   * would take 140 ms). ~200 bytes each.
   */
  reportingPageCursors: 10_000,
  /**
   * PostgreSQL: after serving a full CSV page, read the next page at once and keep it this long for
   * the partner's next request (docs/decisions.md 103: x1.46 on an otherwise idle 2-core machine,
   * where PostgreSQL's share of a page overlaps the client's); 0 reads a page only when asked.
   */
  reportingReadAheadMs: 2_000,
  /** Pages read ahead and kept at once, the least recently read dropped first. */
  reportingReadAheadPages: 16,
  /** Campaigns listed by `GET /v1/reporting/summary` unless `top` says otherwise, and its maximum. */
  summaryTop: 10,
  summaryMaxTop: 100,
  /** Latest transactions a summary lists (the hub's table; the CSV download has them all). */
  summaryLatest: 20,
  /**
   * The longest period a summary covers, in days: two years of months is what a chart shows
   * readably, and it bounds the work of one request (docs/decisions.md 41).
   */
  summaryMaxDays: 731,
  /** The demo partner created on the first start with the simulated suppliers (README, "Reporting"). */
  demoAid: 'demo',
  demoThirdParty: 'demo-platform',
  /**
   * Backdated clicks replayed for the demo partner over `demoDays`: with the simulated suppliers'
   * 12% conversion (less sold-out dates), ~600 transactions, a few a day; ~1 ms each, about 6 s
   * of the first start.
   */
  demoClicks: 6_000,
  demoDays: 365,
} as const;
