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

  /** Search radius in metres when `lat`/`lng` or `address` is given without `radius` (spec). */
  radiusMeters: 10_000,
  pageSize: 10,
  maxPageSize: 100,
  maxHotelIds: 100,
  /** `meta.total` saturates here on broad static viewports (spec: "about 100,000"). */
  totalCap: 100_000,
  /**
   * Ranking prior (DESIGN decision 10): a Bayesian average pulls a rating backed by few reviews
   * towards the global mean, so 10/10 from 2 reviews does not outrank 9.1 from 3,000.
   */
  rankPriorCount: 50,
  rankPriorMean: 7.5,

  /**
   * Full stays cached in memory in front of the store (inventory/stay-cache.ts). Pages of popular
   * areas repeat; 20,000 stays of ~1.5 KB each is ~30 MB.
   */
  stayCacheSize: 20_000,

  /**
   * Dated searches price at most this many best-ranked candidates (DESIGN decision 11): enough
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

  /** Rows per batch when the index is loaded from the store: big enough to amortise a query, small enough to stream. */
  indexRowsBatchSize: 20_000,

  // Live quotes (suppliers/quote-service.ts), per supplier.
  /**
   * Deadline of one quote call, a backstop behind the search's own budget (quoteBudgetMs, which
   * usually ends a slow call first): a hung call gives its concurrency slot back after this long
   * even when a caller's budget is longer.
   */
  quoteCallTimeoutMs: 2_000,
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
} as const;
