// Operators' metrics in the Prometheus text format (prom-client), on a registry of our own: two
// gateways in one process (tests) never share counters, and nothing registers behind our back.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { BREAKER_STATES, type BreakerState } from '../suppliers/circuit-breaker.ts';
import type { QuoteObserver } from '../suppliers/quote-service.ts';
import type { SupplierId } from '../types.ts';

/** What the gauges read at scrape time (the composition root knows where each figure lives). */
export interface MetricsSources {
  /** Each supplier's circuit breaker state. */
  breakerStates(): Partial<Record<SupplierId, BreakerState>>;
  /** The index: stays held and the content version, or null while it is being built. */
  inventory(): { stays: number; version: string } | null;
}

export interface Metrics {
  readonly registry: Registry;
  /** One HTTP request answered: its route pattern (`unmatched` for unknown paths), method and status. */
  request(route: string, method: string, status: number, seconds: number): void;
  /** A 429 on this endpoint. */
  rateLimited(endpoint: string): void;
  /** The suppliers' quote services report here. */
  readonly quotes: QuoteObserver;
  /** A call (quote or content pull) of this supplier was refused for its credentials (401/403). */
  authFailed(supplier: SupplierId): void;
  /** Calls of this supplier met a 429 and waited before asking again, `waits` times (content pulls report theirs at the end). */
  rateLimitWaits(supplier: SupplierId, waits: number): void;
  /** Sets where the gauges read from (once the services exist). */
  setSources(sources: MetricsSources): void;
  /** The exposition text and its content type. */
  scrape(): Promise<{ contentType: string; body: string }>;
}

/**
 * Request buckets in seconds: a static search answers in about a millisecond, a dated one waits
 * up to the 1.5 s quote budget, a CSV export of 500 rows streams for longer.
 */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 1.5, 2.5, 5];
/** Supplier call buckets: a healthy quote call takes tens of milliseconds, the call deadline is 2 s. */
const SUPPLIER_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 1.5, 2, 5];

/** The suppliers' figures: quote calls, failures, credentials refused, 429s waited out, cache lookups. */
function supplierMetrics(registry: Registry, prefix: string): Pick<Metrics, 'quotes' | 'authFailed' | 'rateLimitWaits'> {
  const supplierCalls = new Histogram({
    name: `${prefix}supplier_call_duration_seconds`,
    help: 'Quote calls to each supplier and how long they took; outcome ok or the failure (timeout, error, unreachable, malformed, auth, rate_limited)',
    labelNames: ['supplier', 'outcome'] as const,
    buckets: SUPPLIER_BUCKETS,
    registers: [registry],
  });
  const supplierErrors = new Counter({
    name: `${prefix}supplier_errors_total`,
    help: 'Failed quote calls per supplier and reason; circuit_open counts calls the open breaker refused',
    labelNames: ['supplier', 'reason'] as const,
    registers: [registry],
  });
  const authFailures = new Counter({
    name: `${prefix}supplier_auth_failures_total`,
    help: 'Calls to each supplier (quotes and content pulls) refused for the gateway credentials (HTTP 401 or 403)',
    labelNames: ['supplier'] as const,
    registers: [registry],
  });
  const rateLimitWaits = new Counter({
    name: `${prefix}supplier_rate_limit_waits_total`,
    help: 'Times a call to each supplier met HTTP 429 and waited (Retry-After or a backoff) before asking again',
    labelNames: ['supplier'] as const,
    registers: [registry],
  });
  const cacheLookups = new Counter({
    name: `${prefix}quote_cache_lookups_total`,
    help: 'Stay ids looked up in the quote cache, per supplier, by result (hit or miss)',
    labelNames: ['supplier', 'result'] as const,
    registers: [registry],
  });
  return {
    quotes: {
      call(supplier, ms, failure) {
        supplierCalls.observe({ supplier, outcome: failure ?? 'ok' }, ms / 1_000);
        if (failure !== null) supplierErrors.inc({ supplier, reason: failure });
      },
      cache(supplier, hits, misses) {
        if (hits > 0) cacheLookups.inc({ supplier, result: 'hit' }, hits);
        if (misses > 0) cacheLookups.inc({ supplier, result: 'miss' }, misses);
      },
      refused(supplier) {
        supplierErrors.inc({ supplier, reason: 'circuit_open' });
      },
      rateLimitWait(supplier) {
        rateLimitWaits.inc({ supplier });
      },
    },
    authFailed(supplier) {
      authFailures.inc({ supplier });
    },
    rateLimitWaits(supplier, waits) {
      rateLimitWaits.inc({ supplier }, waits);
    },
  };
}

/** The gauges read at scrape time from the sources set (none before): breaker states, the index, the version. */
function sourceGauges(registry: Registry, prefix: string, sources: () => MetricsSources | null): void {
  new Gauge({
    name: `${prefix}supplier_breaker_state`,
    help: 'Circuit breaker state per supplier: 1 for the current state, 0 for the others',
    labelNames: ['supplier', 'state'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [supplier, current] of Object.entries(sources()?.breakerStates() ?? {})) {
        for (const state of BREAKER_STATES) this.set({ supplier, state }, state === current ? 1 : 0);
      }
    },
  });
  new Gauge({
    name: `${prefix}index_stays`,
    help: 'Stays in the in-memory search index (0 while it is being built)',
    registers: [registry],
    collect() {
      this.set(sources()?.inventory()?.stays ?? 0);
    },
  });
  new Gauge({
    name: `${prefix}inventory_info`,
    help: 'The content version served, as a label (value 1)',
    labelNames: ['version'] as const,
    registers: [registry],
    collect() {
      this.reset();
      const inventory = sources()?.inventory();
      if (inventory) this.set({ version: inventory.version }, 1);
    },
  });
}

export function createMetrics(options: { prefix?: string; processMetrics?: boolean } = {}): Metrics {
  const prefix = options.prefix ?? 'staygate_';
  const registry = new Registry();
  // Process figures (CPU, memory, event-loop lag) for the operator's dashboards; off in tests,
  // where several registries in one process would each sample the same process.
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry, prefix });
  let sources: MetricsSources | null = null;
  sourceGauges(registry, prefix, () => sources);

  const requests = new Histogram({
    name: `${prefix}http_request_duration_seconds`,
    help: 'HTTP requests by route pattern, method and status, and how long they took',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: REQUEST_BUCKETS,
    registers: [registry],
  });
  const refusals = new Counter({
    name: `${prefix}rate_limit_refusals_total`,
    help: 'Requests refused with 429 RATE_LIMIT_EXCEEDED, by endpoint',
    labelNames: ['endpoint'] as const,
    registers: [registry],
  });

  return {
    registry,
    request(route, method, status, seconds) {
      requests.observe({ route, method, status: String(status) }, seconds);
    },
    rateLimited(endpoint) {
      refusals.inc({ endpoint });
    },
    ...supplierMetrics(registry, prefix),
    setSources(next) {
      sources = next;
    },
    async scrape() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
