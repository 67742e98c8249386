// Pulls the suppliers' commission reports into the transaction store: on a schedule while the
// gateway runs, and on demand (`staygate transactions sync`). Each supplier's report of a period
// is read in full, attributed through the clicks and the API keys, and applied in one database
// transaction; a supplier that fails leaves nothing half-applied and is asked again next time.
import { SupplierError } from '../suppliers/supplier-error.ts';
import type { KeyStore } from '../auth/key-store.ts';
import type { Click, ClickStore } from '../clicks/click-store.ts';
import { defaults } from '../defaults.ts';
import type { CommissionRecord, Supplier } from '../suppliers/supplier.ts';
import type { SupplierId } from '../types.ts';
import type { TransactionRow } from './transaction.ts';
import type { TransactionStore } from './transaction-store.ts';

export interface TransactionSyncOptions {
  suppliers: readonly Supplier[];
  store: TransactionStore;
  clicks: ClickStore;
  keys: KeyStore;
  now?: () => Date;
  /** Each pull re-reads this much before the end of the previous one (defaults.reportSyncOverlapMs). */
  overlapMs?: number;
  /** Days the first pull of a supplier reaches back (defaults.reportFirstSyncDays). */
  firstSyncDays?: number;
  /** Records per report page asked (defaults.reportFeedPageSize). */
  pageSize?: number;
}

export interface SupplierSyncResult {
  supplier: SupplierId;
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
  /** Why it failed (nothing of this report was applied). */
  error?: string;
  /** It failed because nothing answered at the supplier's address (no connection at all). */
  unreachable?: boolean;
  ms: number;
}

export interface TransactionSync {
  /**
   * Pulls every supplier's report concurrently, each applied on its own, all or nothing;
   * `onResult` hears of each supplier as it ends. A call while a pull is running joins it.
   */
  syncAll(options?: { onResult?: (result: SupplierSyncResult) => void }): Promise<SupplierSyncResult[]>;
  /** Pulls at once, then every `intervalMs` after the previous pull ended. */
  start(intervalMs: number, listeners?: { onRun?(results: SupplierSyncResult[]): void; onError?(error: unknown): void }): void;
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
export function attribute(supplier: SupplierId, records: readonly CommissionRecord[], clicks: ReadonlyMap<string, Click>, owners: ReadonlyMap<string, string>): TransactionRow[] {
  return records.map((record) => {
    const click = record.clickId === null ? undefined : clicks.get(record.clickId);
    const nights = Math.max(1, Math.round((Date.parse(record.checkout) - Date.parse(record.checkin)) / DAY_MS));
    const aid = click?.aid ?? null;
    return {
      supplier,
      bookingId: record.bookingId,
      clickId: record.clickId,
      aid,
      partnerId: aid === null ? null : owners.get(aid) ?? null,
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

export function createTransactionSync(options: TransactionSyncOptions): TransactionSync {
  const { suppliers, store, clicks, keys } = options;
  const now = options.now ?? (() => new Date());
  const overlapMs = options.overlapMs ?? defaults.reportSyncOverlapMs;
  const firstSyncMs = (options.firstSyncDays ?? defaults.reportFirstSyncDays) * DAY_MS;
  let running: Promise<SupplierSyncResult[]> | null = null;
  let controller = new AbortController();

  async function syncSupplier(supplier: Supplier, to: Date, owners: ReadonlyMap<string, string>): Promise<SupplierSyncResult> {
    const started = performance.now();
    const state = await store.syncState(supplier.id);
    const from = new Date(state.syncedThrough === null ? to.getTime() - firstSyncMs : Math.min(to.getTime(), Date.parse(state.syncedThrough) - overlapMs));
    const result: SupplierSyncResult = {
      supplier: supplier.id, ok: false, from: from.toISOString(), to: to.toISOString(),
      received: 0, inserted: 0, updated: 0, unchanged: 0, unknownClicks: 0, ms: 0,
    };
    try {
      const records: CommissionRecord[] = [];
      for await (const page of supplier.commissionReport({ from, to, pageSize: options.pageSize, signal: controller.signal })) records.push(...page);
      const ids = [...new Set(records.map((r) => r.clickId).filter((id): id is string => id !== null))];
      const known = new Map((await clicks.get(ids)).map((click) => [click.id, click]));
      const rows = attribute(supplier.id, records, known, owners);
      const applied = await store.applyReport(supplier.id, rows, { syncedThrough: to.toISOString(), syncedAt: now().toISOString() });
      Object.assign(result, applied, { ok: true, unknownClicks: records.filter((r) => r.clickId === null || !known.has(r.clickId)).length });
    } catch (error) {
      result.error = error instanceof Error ? error.message : String(error);
      if (error instanceof SupplierError && error.kind === 'network') result.unreachable = true;
    }
    result.ms = Math.round(performance.now() - started);
    return result;
  }

  async function run(onResult?: (result: SupplierSyncResult) => void): Promise<SupplierSyncResult[]> {
    if (controller.signal.aborted) controller = new AbortController();
    const to = now();
    const owners = await aidOwners(keys);
    const results = await Promise.all(suppliers.map(async (supplier) => {
      const result = await syncSupplier(supplier, to, owners);
      onResult?.(result);
      return result;
    }));
    // Transactions of an aid whose key came after them are the key's partner's from now on.
    await store.assignPartners(owners);
    return results;
  }

  let timer: NodeJS.Timeout | null = null;
  let stopped = true;

  const sync: TransactionSync = {
    syncAll(callOptions = {}) {
      running ??= run(callOptions.onResult).finally(() => { running = null; });
      return running;
    },
    start(intervalMs, listeners = {}) {
      stopped = false;
      const tick = async () => {
        timer = null;
        try {
          listeners.onRun?.(await sync.syncAll());
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
      await running?.catch(() => undefined);
    },
  };
  return sync;
}
