// Pulls the suppliers' commission reports into the transaction store: on a schedule while the
// gateway runs, and on demand (`staygate transactions sync`). Each supplier's report of a period
// is read in full, attributed through the clicks and the API keys, and applied in one database
// transaction; a supplier that fails leaves nothing half-applied and is asked again next time.
// An incremental pull re-reads only an overlap before the end of the previous one; a change a
// supplier publishes later than that is found by the reconciliation, which re-reads the last
// days in full (daily, and `staygate transactions reconcile`) and says what it found. A slot whose
// API has no commission report is skipped, and says so: its transactions come from a CSV import
// (import-transactions.ts), written through the same attribution and store as a report.
import { SupplierError } from '../suppliers/supplier-error.ts';
import type { KeyStore } from '../auth/key-store.ts';
import type { Click, ClickStore } from '../clicks/click-store.ts';
import type { CommissionRecord, Supplier } from '../suppliers/supplier.ts';
import type { Settings, SupplierId } from '../types.ts';
import type { TransactionRow } from './transaction.ts';
import type { TransactionChange, TransactionStore } from './transaction-store.ts';

export interface TransactionSyncOptions {
  suppliers: readonly Supplier[];
  store: TransactionStore;
  clicks: ClickStore;
  keys: KeyStore;
  now?: () => Date;
  /**
   * `config.settings`: each pull re-reads `reportSyncOverlapMs` before the end of the previous one;
   * the first pull of a supplier reaches back `reportFirstSyncDays`; a reconciliation re-reads
   * `reportReconcileDays`; `reportFeedPageSize` records per report page asked.
   */
  settings: ReportSyncSettings;
}

export type ReportSyncSettings = Pick<
  Settings,
  'reportSyncOverlapMs' | 'reportFirstSyncDays' | 'reportReconcileDays' | 'reportFeedPageSize'
>;

/**
 * `incremental`: the changes since the previous pull, less an overlap; `reconciliation`: the changes
 * of the last `reconcileDays` days (and at least those of an incremental pull).
 */
export type SyncKind = 'incremental' | 'reconciliation';

export interface SupplierSyncResult {
  supplier: SupplierId;
  kind: SyncKind;
  ok: boolean;
  /** The period of changes asked for, [from, to), ISO 8601. */
  from: string;
  to: string;
  received: number;
  inserted: number;
  updated: number;
  unchanged: number;
  /** Records whose click the gateway does not know: kept, attributed to nobody. */
  unknownClicks: number;
  /**
   * A reconciliation's finds: bookings new or newer than held whose change lies before the period
   * the incremental pulls re-read, so that they never would have read it (published late by the
   * supplier). Always empty for an incremental pull.
   */
  missed: TransactionChange[];
  /** Why it failed (nothing of this report was applied). */
  error?: string;
  /** It failed because nothing answered at the supplier's address (no connection at all). */
  unreachable?: boolean;
  /**
   * The slot's API has no commission report (`Supplier.commissionReport` absent): nothing was
   * asked nor applied, and that is no failure; its transactions come from `staygate transactions import`.
   */
  noReport?: boolean;
  ms: number;
}

export interface TransactionSync {
  /**
   * Pulls every supplier's report concurrently, each applied on its own, all or nothing;
   * `onResult` hears of each supplier as it ends. A call while a pull is running joins it.
   */
  syncAll(options?: { onResult?: (result: SupplierSyncResult) => void }): Promise<SupplierSyncResult[]>;
  /**
   * Re-reads every supplier's changes of the last `reconcileDays` days, after any pull running;
   * a call while a reconciliation is running joins it.
   */
  reconcileAll(options?: { onResult?: (result: SupplierSyncResult) => void }): Promise<SupplierSyncResult[]>;
  /**
   * Pulls at once, then every `intervalMs` after the previous pull ended. With `reconcileIntervalMs`,
   * a pull is a reconciliation when the last complete one is that old (the first pull is one).
   */
  start(
    schedule: { intervalMs: number; reconcileIntervalMs?: number },
    listeners?: { onRun?(results: SupplierSyncResult[]): void; onError?(error: unknown): void },
  ): void;
  /** Stops the schedule, cancels a pull in progress and waits for it. */
  stop(): Promise<void>;
}

const DAY_MS = 86_400_000;

/** "Hotel Lumière, 3 nights, 1 room" */
export function describeStay(record: CommissionRecord, nights: number): string {
  return `${record.propertyName}, ${nights} night${nights === 1 ? '' : 's'}, ${record.rooms} room${record.rooms === 1 ? '' : 's'}`;
}

/** Every aid's owner: the partner of the oldest key carrying it (revoked keys too: history stays the partner's). */
export async function aidOwners(keys: KeyStore): Promise<Map<string, string>> {
  const owners = new Map<string, string>();
  for (const key of await keys.list()) if (!owners.has(key.aid)) owners.set(key.aid, key.partnerId);
  return owners;
}

/**
 * A supplier's records as transaction rows: the click (by id) gives the aid, campaign and device,
 * the aid's key gives the partner. A record without a known click is kept, owned by nobody and
 * never shown to a partner: a booking page reached without our redirect, or a forged click id.
 * A canceled booking earns nothing, whatever commission the supplier still states.
 */
export function attribute(
  supplier: SupplierId,
  records: readonly CommissionRecord[],
  clicks: ReadonlyMap<string, Click>,
  owners: ReadonlyMap<string, string>,
): TransactionRow[] {
  return records.map((record) => {
    const click = record.clickId === null ? undefined : clicks.get(record.clickId);
    const nights = Math.max(1, Math.round((Date.parse(record.checkout) - Date.parse(record.checkin)) / DAY_MS));
    const aid = click?.aid ?? null;
    return {
      supplier,
      bookingId: record.bookingId,
      clickId: record.clickId,
      aid,
      partnerId: aid === null ? null : (owners.get(aid) ?? null),
      campaign: click?.campaign ?? null,
      device: click?.device ?? 'unknown',
      bookedAt: record.bookedAt,
      startDate: record.checkin,
      endDate: record.checkout,
      status: record.status,
      commissionCents: record.status === 'Canceled' ? 0 : record.commissionUsdCents,
      quantity: nights * record.rooms,
      information: describeStay(record, nights),
      destination: record.destination,
      userCountry: record.guestCountry ?? '',
      lastUpdated: record.updatedAt,
    };
  });
}

/**
 * A supplier's records as stored rows, attributed through the clicks the gateway knows and the
 * aids' owners: the one path from `CommissionRecord`s to rows, for a report pull and a CSV import
 * alike. `unknownClicks`: records without a click id or with one the gateway does not know.
 */
export async function attributeRecords(
  supplier: SupplierId,
  records: readonly CommissionRecord[],
  clicks: ClickStore,
  owners: ReadonlyMap<string, string>,
): Promise<{ rows: TransactionRow[]; unknownClicks: number }> {
  const ids = [...new Set(records.map((r) => r.clickId).filter((id): id is string => id !== null))];
  const known = new Map((await clicks.get(ids)).map((click) => [click.id, click]));
  return {
    rows: attribute(supplier, records, known, owners),
    unknownClicks: records.filter((r) => r.clickId === null || !known.has(r.clickId)).length,
  };
}

/**
 * One supplier's pull: the period it asks for (after the previous pull, less the overlap; at least
 * the reconciliation's days for a reconciliation; the first pull's days before any), its report
 * read in full, attributed and applied in one database transaction. A failure is in the result.
 */
async function pullSupplier(
  options: TransactionSyncOptions & { now: () => Date },
  supplier: Supplier,
  kind: SyncKind,
  to: Date,
  owners: ReadonlyMap<string, string>,
  signal: AbortSignal,
): Promise<SupplierSyncResult> {
  const { store, clicks, settings } = options;
  const started = performance.now();
  const state = await store.syncState(supplier.id);
  // Where the next incremental pull would start: a change before it is never read again but by a reconciliation.
  const incrementalFrom =
    state.syncedThrough === null ? null : Math.min(to.getTime(), Date.parse(state.syncedThrough) - settings.reportSyncOverlapMs);
  let fromMs = incrementalFrom ?? to.getTime() - settings.reportFirstSyncDays * DAY_MS;
  if (kind === 'reconciliation') fromMs = Math.min(fromMs, to.getTime() - settings.reportReconcileDays * DAY_MS);
  const from = new Date(fromMs);
  const result: SupplierSyncResult = {
    supplier: supplier.id,
    kind,
    ok: false,
    from: from.toISOString(),
    to: to.toISOString(),
    received: 0,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    unknownClicks: 0,
    missed: [],
    ms: 0,
  };
  if (supplier.commissionReport === undefined) return { ...result, ok: true, noReport: true };
  try {
    const records: CommissionRecord[] = [];
    for await (const page of supplier.commissionReport({ from, to, pageSize: settings.reportFeedPageSize, signal })) records.push(...page);
    const { rows, unknownClicks } = await attributeRecords(supplier.id, records, clicks, owners);
    const { changes, ...counts } = await store.applyReport(supplier.id, rows, {
      syncedThrough: to.toISOString(),
      syncedAt: options.now().toISOString(),
    });
    Object.assign(result, counts, { ok: true, unknownClicks });
    if (kind === 'reconciliation' && incrementalFrom !== null)
      result.missed = changes.filter((c) => Date.parse(c.lastUpdated) < incrementalFrom);
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
    if (error instanceof SupplierError && error.kind === 'network') result.unreachable = true;
  }
  result.ms = Math.round(performance.now() - started);
  return result;
}

export function createTransactionSync(options: TransactionSyncOptions): TransactionSync {
  const { suppliers, store, keys } = options;
  const now = options.now ?? (() => new Date());
  let running: { kind: SyncKind; promise: Promise<SupplierSyncResult[]> } | null = null;
  let controller = new AbortController();

  async function run(kind: SyncKind, onResult?: (result: SupplierSyncResult) => void): Promise<SupplierSyncResult[]> {
    if (controller.signal.aborted) controller = new AbortController();
    const to = now();
    const owners = await aidOwners(keys);
    const results = await Promise.all(
      suppliers.map(async (supplier) => {
        const result = await pullSupplier({ ...options, now }, supplier, kind, to, owners, controller.signal);
        onResult?.(result);
        return result;
      }),
    );
    // Transactions of an aid whose key came after them are the key's partner's from now on.
    await store.assignPartners(owners);
    return results;
  }

  /** Runs a pull after the one running, if any (one pull at a time: the finds of a reconciliation are its own). */
  function launch(kind: SyncKind, onResult?: (result: SupplierSyncResult) => void): Promise<SupplierSyncResult[]> {
    const previous = running?.promise.catch(() => undefined);
    const promise: Promise<SupplierSyncResult[]> = (async () => {
      await previous;
      return run(kind, onResult);
    })().finally(() => {
      if (running?.promise === promise) running = null;
    });
    running = { kind, promise };
    return promise;
  }

  let timer: NodeJS.Timeout | null = null;
  let stopped = true;
  let reconciledAt: number | null = null;

  const sync: TransactionSync = {
    // An incremental pull asked for while any pull runs joins it: a reconciliation reads its period too.
    syncAll(callOptions = {}) {
      return running?.promise ?? launch('incremental', callOptions.onResult);
    },
    reconcileAll(callOptions = {}) {
      return running?.kind === 'reconciliation' ? running.promise : launch('reconciliation', callOptions.onResult);
    },
    start({ intervalMs, reconcileIntervalMs = 0 }, listeners = {}) {
      stopped = false;
      const tick = async () => {
        timer = null;
        try {
          const due = reconcileIntervalMs > 0 && (reconciledAt === null || now().getTime() - reconciledAt >= reconcileIntervalMs);
          const startedAt = now().getTime();
          const results = due ? await sync.reconcileAll() : await sync.syncAll();
          // A reconciliation a supplier failed is tried again at the next pull.
          if (due && results.every((r) => r.ok)) reconciledAt = startedAt;
          listeners.onRun?.(results);
        } catch (error) {
          listeners.onError?.(error);
        } finally {
          if (!stopped) timer = setTimeout(tick, intervalMs);
        }
      };
      void tick();
    },
    async stop() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      controller.abort(new Error('the gateway is stopping'));
      await running?.promise.catch(() => undefined);
    },
  };
  return sync;
}
