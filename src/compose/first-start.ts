// The gateway's start once it is built: the content served (the first start ingests it), the demo
// partner begun, the commission report schedule competed for; and the orderly stop of all three.
import type { FastifyBaseLogger } from 'fastify';
import type { ContentService } from '../inventory/content-service.ts';
import type { TransactionSync } from '../reporting/sync-transactions.ts';
import type { KeptLease } from '../store/hold-lease.ts';
import type { LeaseStore } from '../store/lease-store.ts';
import type { Supplier } from '../suppliers/supplier.ts';
import { seedDemo, type DemoOptions } from './demo-seeding.ts';
import { scheduleReportSync, type ReportScheduleOptions } from './report-schedule.ts';

export interface FirstStartOptions {
  settings: DemoOptions['settings'] & ReportScheduleOptions['settings'];
  content: ContentService;
  sync: TransactionSync;
  suppliers: readonly Supplier[];
  leases: LeaseStore;
  /** Seed the demo partner (the embedded default): its parts, or null for none. */
  demo: Omit<DemoOptions, 'settings' | 'sync' | 'content' | 'log' | 'signal'> | null;
  log: FastifyBaseLogger;
}

export interface FirstStart {
  /** Settles once a content version is served and the demo partner is begun (or done). */
  ready: Promise<void>;
  /** Stops what is scheduled and what runs (abort), at once. */
  abort(): void;
  /** Waits for the start, the demo partner and the schedule's role to wind down (after abort). */
  settled(): Promise<void>;
}

export function startGateway(options: FirstStartOptions): FirstStart {
  const { settings, content, sync, log } = options;
  const abort = new AbortController();
  let reportSyncRole: KeptLease | null = null;
  let demoSeeding: Promise<void> = Promise.resolve();
  const ready = (async () => {
    await content.start(abort.signal);
    if (options.demo !== null) {
      const seeding = seedDemo({ ...options.demo, settings, sync, content, log, signal: abort.signal });
      demoSeeding = seeding.done;
      await seeding.started;
    }
    if (!abort.signal.aborted)
      reportSyncRole = scheduleReportSync({ settings, sync, suppliers: options.suppliers, leases: options.leases, log });
  })();
  return {
    ready,
    abort: () => abort.abort(),
    async settled() {
      await ready.catch(() => undefined);
      await demoSeeding;
      await reportSyncRole?.stop();
    },
  };
}
