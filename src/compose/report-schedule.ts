// The scheduled pull of the suppliers' commission reports: run by the one gateway of those sharing
// the database that holds the lease `report-sync` (docs/decisions.md 76).
import type { FastifyBaseLogger } from 'fastify';
import { describeNoReport, describeSync } from '../reporting/describe-sync.ts';
import type { TransactionSync } from '../reporting/sync-transactions.ts';
import { keepLease, type KeptLease } from '../store/hold-lease.ts';
import type { LeaseStore } from '../store/lease-store.ts';
import type { Supplier } from '../suppliers/supplier.ts';
import type { Settings } from '../types.ts';

export interface ReportScheduleOptions {
  settings: Pick<Settings, 'reportSyncIntervalMs' | 'reportReconcileIntervalMs' | 'reportSyncLeaseMs'>;
  sync: TransactionSync;
  suppliers: readonly Supplier[];
  leases: LeaseStore;
  log: FastifyBaseLogger;
}

/** Starts competing for the schedule; null when it is off (reportSyncIntervalMs 0: pulls on demand only). */
export function scheduleReportSync(options: ReportScheduleOptions): KeptLease | null {
  const { settings, sync, log } = options;
  const interval = settings.reportSyncIntervalMs;
  if (interval === 0) return null;
  const schedule = { intervalMs: interval, reconcileIntervalMs: settings.reportReconcileIntervalMs };
  const listeners = {
    onRun: (results: Awaited<ReturnType<TransactionSync['syncAll']>>) => {
      for (const r of results) {
        if (!r.ok) log.warn(`commission report of ${r.supplier} not synced (asked again in ${interval / 1_000} s): ${r.error}`);
        // What a reconciliation found was late by more than the overlap: worth an operator's look.
        else if (r.kind === 'reconciliation')
          log[r.missed.length > 0 ? 'warn' : 'info']({ missed: r.missed }, `commission reconciliation ${describeSync(r)}`);
      }
    },
    onError: (error: unknown) => log.error({ err: error }, 'syncing the commission reports failed'),
  };
  // A slot without a report API is skipped by every pull: said once, with what to do instead.
  for (const supplier of options.suppliers) if (!supplier.commissionReport) log.info(describeNoReport(supplier.id));
  // Start and stop follow one another in order.
  let role = Promise.resolve();
  return keepLease({
    leases: options.leases,
    name: 'report-sync',
    ttlMs: settings.reportSyncLeaseMs,
    onAcquired: () => {
      log.info('this gateway runs the scheduled commission report sync (it holds the lease report-sync)');
      role = role.then(() => sync.start(schedule, listeners));
    },
    onLost: (reason) => {
      log.warn(`the scheduled commission report sync stops here: ${reason}`);
      role = role.then(() => sync.stop());
    },
    onError: (error) => log.warn({ err: error }, 'taking the lease report-sync failed; trying again'),
  });
}
