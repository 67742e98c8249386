// The gateway's content over its life (README, "Content refresh"): the first version (first
// start, with whatever suppliers answer), the refresh schedule, retries of failed suppliers with
// backoff, versions published by someone else (`staygate content refresh`) picked up by polling,
// and each supplier's content state for /health.
import type { Store } from '../store/store.ts';
import type { SupplierAuth } from '../suppliers/supplier-auth.ts';
import { SUPPLIER_IDS, type SupplierId } from '../types.ts';
import type { ContentInfo, SupplierContent } from './build-content-version.ts';
import type { ContentWorker } from './content-worker-client.ts';
import { describeRefresh, type RefreshOutcome } from './refresh-content.ts';

export interface ContentServiceOptions {
  store: Store;
  /** Pulls, builds and indexes in its own thread (content-worker-client.ts). */
  worker: ContentWorker;
  shrinkLimit: number;
  /** 0 = never on a schedule. */
  refreshMs: number;
  retryMs: number;
  pollMs: number;
  /**
   * Runs a refresh only while this process alone may refresh the database's content (a lease:
   * docs/decisions.md 76); `ran: false` when another process is refreshing, whose version this
   * one then serves by polling. Absent: always runs (a store of this process alone).
   */
  exclusive?: <T>(work: () => Promise<T>) => Promise<{ ran: true; value: T } | { ran: false; holder: string | null }>;
  /** Loads and serves a published version (index built in the worker, then one swap). */
  serve(no: number, label: string): Promise<void>;
  log(message: string): void;
  warn(message: string): void;
  /** Told whether each pull's credentials were accepted or refused (/health's `auth`, shared with the quotes). */
  auth?: SupplierAuth;
  /** Told of the 429s each pull waited out (metrics). */
  onRateLimitWaits?: (supplier: SupplierId, waits: number) => void;
}

export interface ContentService {
  /** Serves the stored version, or makes the first one; resolves once a version is served. */
  start(signal: AbortSignal): Promise<void>;
  /** Pulls (these suppliers' or every) feed now; one refresh at a time. */
  refresh(only?: readonly SupplierId[]): Promise<RefreshOutcome>;
  suppliers(): Record<SupplierId, SupplierContent>;
  /** Bytes the store takes on disk (Store.diskBytes), measured after each refresh and swap, and on the poll at most every 30 s; null before the first. */
  storeBytes(): number | null;
  stop(): void;
}

/** How old the store's measured size may get on the poll: a refresh or a swap measures it at once. */
const STORE_BYTES_MAX_AGE_MS = 30_000;

export function createContentService(options: ContentServiceOptions): ContentService {
  const { store, log } = options;
  let served: { no: number; info: ContentInfo } | null = null;
  /** Failures since a supplier's last applied feed, and the last error, kept here: a failed pull publishes nothing. */
  const failures = new Map<SupplierId, { count: number; error: string; dueAt: number }>();
  let queue: Promise<unknown> = Promise.resolve();
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  let storeBytes: { bytes: number; at: number } | null = null;
  /** Measures the store's size; a failure (the database away) keeps the last figure. */
  const measure = async (): Promise<void> => {
    try {
      storeBytes = { bytes: await store.diskBytes(), at: Date.now() };
    } catch {
      // The next refresh, swap or poll measures again.
    }
  };
  const cap = options.refreshMs > 0 ? options.refreshMs : 3_600_000;

  const later = (ms: number, run: () => void): void => {
    if (stopped) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timer.unref();
    timers.add(timer);
  };

  /**
   * Serves the store's current version if it is not the one served. Both versions are held while
   * the new one loads, then only the new one (docs/decisions.md 69): no publisher, in this process
   * or another, drops a version this gateway reads. One published and pruned between the read of
   * the pointer and the hold is not loaded: the pointer is read again.
   */
  async function serveCurrent(): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      const current = await store.currentContent();
      if (current === null) return false;
      if (current.no === served?.no) {
        // A refresh that changed no stay records the suppliers' states on the served version (docs/decisions.md 80).
        served.info = current.info as ContentInfo;
        return false;
      }
      const readable = await store.holdVersions(served === null ? [current.no] : [served.no, current.no]);
      if (!readable.includes(current.no)) {
        if (attempt === 3) throw new Error(`content version ${current.no} was dropped before it could be loaded, three times`);
        continue;
      }
      try {
        await options.serve(current.no, current.label);
      } catch (error) {
        await store.holdVersions(served === null ? [] : [served.no]).catch(() => undefined);
        throw error;
      }
      served = { no: current.no, info: current.info as ContentInfo };
      // Releasing the old one may fail (the database away): the heartbeat then keeps both a while longer.
      await store.holdVersions([current.no]).catch(() => undefined);
      await measure();
      return true;
    }
  }

  function scheduleRetry(): void {
    if (failures.size === 0) return;
    const next = Math.min(...[...failures.values()].map((f) => f.dueAt));
    later(Math.max(0, next - Date.now()), () => {
      const due = [...failures].filter(([, f]) => f.dueAt <= Date.now()).map(([s]) => s);
      if (due.length === 0) return scheduleRetry();
      log(`retrying the content feed of ${due.join(', ')}`);
      void refresh(due).catch((error: unknown) => options.warn(`content retry failed: ${(error as Error).message}`));
    });
  }

  function refresh(only?: readonly SupplierId[]): Promise<RefreshOutcome> {
    const run = queue.then(async () => {
      const pull = () => options.worker.refresh({ only, shrinkLimit: options.shrinkLimit });
      const held = options.exclusive ? await options.exclusive(pull) : { ran: true as const, value: await pull() };
      if (!held.ran) {
        log(`another process is refreshing the content (${held.holder ?? 'unknown'}): its version is served once published`);
        return { feeds: {}, result: null, elsewhere: true };
      }
      const outcome = held.value;
      for (const line of describeRefresh(outcome)) log(line);
      // A swap measures the store's size; without one (nothing changed, nothing pulled) it is measured here.
      if (!(outcome.result !== null && (await serveCurrent()))) await measure();
      for (const [supplier, feed] of Object.entries(outcome.feeds) as [SupplierId, NonNullable<RefreshOutcome['feeds'][SupplierId]>][]) {
        if (feed.auth === 'ok') options.auth?.answered(supplier);
        else if (feed.auth === 'failed' && !feed.ok) options.auth?.refused(supplier, feed.error);
        if (feed.rateLimitWaits > 0) options.onRateLimitWaits?.(supplier, feed.rateLimitWaits);
        const verdict = outcome.result?.suppliers[supplier].verdict;
        const error = !feed.ok ? feed.error : verdict === 'held back' ? outcome.result!.suppliers[supplier].lastError! : null;
        if (error === null) failures.delete(supplier);
        else {
          const count = (failures.get(supplier)?.count ?? 0) + 1;
          const wait = Math.min(options.retryMs * 2 ** (count - 1), cap);
          failures.set(supplier, { count, error, dueAt: Date.now() + wait });
          options.warn(
            `${supplier}: content not applied (${error}); its previous listings are kept; retried in ${Math.round(wait / 1_000)} s`,
          );
        }
      }
      scheduleRetry();
      return outcome;
    });
    queue = run.catch(() => undefined);
    return run;
  }

  return {
    async start(signal) {
      if (!(await serveCurrent())) {
        // First start: a version from whatever answers; suppliers that did not are retried.
        for (;;) {
          signal.throwIfAborted();
          const outcome = await refresh();
          if (outcome.result !== null) break;
          if (outcome.elsewhere) {
            // Another gateway (or the CLI) makes the first version: serve it once it is published.
            await new Promise((resolve) => later(options.pollMs, () => resolve(undefined)));
            if (await serveCurrent()) break;
            continue;
          }
          log(`no supplier answered; trying again in ${options.retryMs / 1_000} s`);
          await new Promise((resolve) => later(options.retryMs, () => resolve(undefined)));
        }
      } else {
        // A later start: suppliers the stored version lacks are retried at once.
        const missing = SUPPLIER_IDS.filter((s) => served!.info.suppliers?.[s]?.state !== 'ok');
        for (const s of missing)
          failures.set(s, { count: 0, error: served!.info.suppliers?.[s]?.lastError ?? 'not in the stored content', dueAt: Date.now() });
        scheduleRetry();
      }
      if (options.refreshMs > 0) {
        const tick = () =>
          later(
            options.refreshMs,
            () =>
              void refresh()
                .catch((error: unknown) => options.warn(`content refresh failed: ${(error as Error).message}`))
                .finally(tick),
          );
        tick();
      }
      // Versions published by another process (the CLI): served within a poll and an index build.
      const poll = () =>
        later(
          options.pollMs,
          () =>
            void (queue = queue.then(async () => {
              const swapped = await serveCurrent();
              if (!swapped && (storeBytes === null || Date.now() - storeBytes.at > STORE_BYTES_MAX_AGE_MS)) await measure();
            }))
              .catch(() => undefined)
              .finally(poll),
        );
      poll();
    },
    refresh,
    suppliers() {
      return Object.fromEntries(
        SUPPLIER_IDS.map((s) => {
          const stored = served?.info.suppliers?.[s] ?? { state: 'unavailable', listings: 0, lastRefresh: null, lastError: null };
          const failed = failures.get(s);
          if (failed === undefined || failed.count === 0) return [s, stored];
          return [s, { ...stored, state: stored.listings > 0 ? 'stale' : 'unavailable', lastError: failed.error }];
        }),
      ) as Record<SupplierId, SupplierContent>;
    },
    storeBytes() {
      return storeBytes?.bytes ?? null;
    },
    stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
