// The content: the worker that pulls, merges, writes and indexes a content version off the event
// loop, and the service that schedules refreshes and serves each version published.
import type { FastifyBaseLogger } from 'fastify';
import type { Metrics } from '../metrics/create-metrics.ts';
import { createContentService, type ContentService, type ServedVersion } from '../inventory/content-service.ts';
import { createContentWorker, type ContentWorker } from '../inventory/content-worker-client.ts';
import { withLease } from '../store/hold-lease.ts';
import { SUPPLIERS_MODULE } from '../suppliers/create-suppliers.ts';
import type { SupplierAuth } from '../suppliers/supplier-auth.ts';
import type { Settings } from '../types.ts';
import type { Stores } from './open-stores.ts';
import { supplierConfig, type SupplierSlot } from './supplier-slots.ts';

export interface ContentOptions {
  /** `config.settings`: the content's waits and gates, the worker's figures. */
  settings: Settings;
  stores: Pick<Stores, 'store' | 'leases' | 'location'>;
  slots: readonly SupplierSlot[];
  auth: SupplierAuth;
  metrics: Metrics;
  log: () => FastifyBaseLogger;
  /** Swaps a loaded version in (search.ts' createServing). */
  serve(version: ServedVersion): void;
}

export function createContent(options: ContentOptions): { content: ContentService; worker: ContentWorker } {
  const { settings, stores, log, metrics } = options;
  const worker = createContentWorker({
    where: stores.location,
    feeds: { module: SUPPLIERS_MODULE, configs: options.slots.map(supplierConfig) },
    settings,
  });
  const content = createContentService({
    store: stores.store,
    worker,
    shrinkLimit: settings.feedShrinkLimit,
    refreshMs: settings.contentRefreshMs,
    retryMs: settings.contentRetryMs,
    pollMs: settings.contentPollMs,
    log: (message) => log().info(message),
    warn: (message) => log().warn(message),
    auth: options.auth,
    onRateLimitWaits: (supplier, waits) => metrics.rateLimitWaits(supplier, waits),
    // One refresh at a time on the database, whichever gateway or CLI runs it (docs/decisions.md 76).
    exclusive: (work) => withLease({ leases: stores.leases, name: 'content', ttlMs: settings.contentLeaseMs }, work),
    serve: options.serve,
  });
  return { content, worker };
}
