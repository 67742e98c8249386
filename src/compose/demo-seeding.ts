// The demo partner of the embedded default (README, "Reporting"): a key and a year of backdated
// clicks and transactions, made on the first start with the simulated suppliers.
import type { FastifyBaseLogger } from 'fastify';
import type { Tracking } from '../http/partner/go-routes.ts';
import { createClickReplay } from '../http/partner/replay-clicks.ts';
import type { Services } from '../http/route-context.ts';
import type { ContentService } from '../inventory/content-service.ts';
import { importTransactionsCsv } from '../reporting/import-transactions.ts';
import { startDemoSeeding, type DemoSeeding } from '../reporting/seed-demo.ts';
import type { TransactionSync } from '../reporting/sync-transactions.ts';
import { SUPPLIER_IDS, type Settings } from '../types.ts';
import type { RecordStores } from './open-stores.ts';

export interface DemoOptions {
  /** `config.settings`: the demo partner's figures, the content's waits, the replayed /go routes'. */
  settings: Settings;
  stores: Pick<RecordStores, 'keys' | 'clicks' | 'transactions'>;
  services: () => Services | null;
  tracking: Tracking;
  sync: TransactionSync;
  content: Pick<ContentService, 'suppliers'>;
  /** The simulator's control server: the CSV exports of the slots without a commission report. */
  simControlUrl: string | null;
  now: () => Date;
  log: FastifyBaseLogger;
  /** The gateway shutting down. */
  signal: AbortSignal;
}

/**
 * Starts seeding the demo partner, its clicks through a private instance of the /go routes with a
 * clock of its own (http/partner/replay-clicks.ts). `started` is what the first start waits for
 * unless it must wait for a supplier: then `done` comes on its own, without a restart
 * (docs/decisions.md 82).
 */
export function seedDemo(options: DemoOptions): DemoSeeding {
  const { settings, stores, now, log } = options;
  const replay = createClickReplay({ services: options.services, tracking: options.tracking, settings });
  const seeding = startDemoSeeding({
    dataDir: settings.dataDir,
    keys: stores.keys,
    clicks: replay,
    sync: () => options.sync.syncAll(),
    importCsv: (supplier, file, csv) =>
      importTransactionsCsv({ supplier, file, csv, store: stores.transactions, clicks: stores.clicks, keys: stores.keys, now }),
    simControlUrl: options.simControlUrl,
    now,
    settings,
    log: (message) => log.info(message),
    warn: (message) => log.warn(message),
    missingContent: () => SUPPLIER_IDS.filter((s) => options.content.suppliers()[s].state === 'unavailable'),
    pollMs: settings.contentPollMs,
    retryMs: settings.contentRetryMs,
    // Retries double up to the refresh interval, as the content's own (a refresh only on demand: no doubling).
    maxRetryMs: Math.max(settings.contentRetryMs, settings.contentRefreshMs),
    signal: options.signal,
  });
  return { started: seeding.started, done: seeding.done.then(() => replay.close()).catch(() => undefined) };
}
