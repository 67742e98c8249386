// The gateway's content over its life (README, "Content refresh"): the first version (first
// start, with whatever suppliers answer), the refresh schedule, retries of failed suppliers with
// backoff, versions published by someone else (`staygate content refresh`) picked up by polling,
// and each supplier's content state for /health. A refresh is one trip to the worker, which
// publishes the version and brings its index back; a version published elsewhere is loaded once.
import type { Store } from '../store/store.ts';
import type { SupplierAuth } from '../suppliers/supplier-auth.ts';
import { SUPPLIER_IDS, type SupplierId } from '../types.ts';
import type { SupplierContent } from './build-content-version.ts';
import type { ContentWorker } from './content-worker-client.ts';
import { createFeedFailures } from './feed-failures.ts';
import { describeRefresh, type RefreshOutcome } from './refresh-content.ts';
import { createVersionSwap, type ServedVersion } from './version-swap.ts';

export type { ServedVersion } from './version-swap.ts';

export interface ContentServiceOptions {
  store: Store;
  /** Pulls, builds, publishes and indexes in its own thread (content-worker-client.ts). */
  worker: Pick<ContentWorker, 'refreshAndIndex' | 'loadIndex'>;
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
  /**
   * Swaps what searches read to a version, given held and with its index loaded: one assignment
   * (the composition root's search over it). Told, not asked: nothing is loaded through it.
   */
  serve(version: ServedVersion): void;
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

/** Timers that never keep the process up, all cleared by stop(); none is set after it. */
function createTimers(): { later(ms: number, run: () => void): void; stop(): void } {
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  return {
    later(ms, run) {
      if (stopped) return;
      const timer = setTimeout(() => {
        timers.delete(timer);
        run();
      }, ms);
      timer.unref();
      timers.add(timer);
    },
    stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

/** The store's size on disk, measured now and then; a failure (the database away) keeps the last figure. */
function createStoreSize(store: Store): { measure(): Promise<void>; bytes(): number | null; olderThan(ms: number): boolean } {
  let measured: { bytes: number; at: number } | null = null;
  return {
    async measure() {
      try {
        measured = { bytes: await store.diskBytes(), at: Date.now() };
      } catch {
        // The next refresh, swap or poll measures again.
      }
    },
    bytes: () => measured?.bytes ?? null,
    olderThan: (ms) => measured === null || Date.now() - measured.at > ms,
  };
}

/** A first start: a version from whatever answers, or the one another process publishes; suppliers that did not answer are retried. */
async function makeFirstVersion(
  signal: AbortSignal,
  {
    refresh,
    serveCurrent,
    wait,
    pollMs,
    retryMs,
    log,
  }: Pick<ContentServiceOptions, 'pollMs' | 'retryMs' | 'log'> & {
    refresh(): Promise<RefreshOutcome>;
    serveCurrent(): Promise<boolean>;
    wait(ms: number): Promise<void>;
  },
): Promise<void> {
  for (;;) {
    signal.throwIfAborted();
    const outcome = await refresh();
    if (outcome.result !== null) return;
    if (outcome.elsewhere) {
      // Another gateway (or the CLI) makes the first version: serve it once it is published.
      await wait(pollMs);
      if (await serveCurrent()) return;
      continue;
    }
    log(`no supplier answered; trying again in ${retryMs / 1_000} s`);
    await wait(retryMs);
  }
}

/** The schedule: a refresh every refreshMs (none when 0), and a poll for versions published elsewhere every pollMs. */
function schedule({
  later,
  refresh,
  enqueue,
  serveCurrent,
  size,
  refreshMs,
  pollMs,
  warn,
}: Pick<ContentServiceOptions, 'refreshMs' | 'pollMs' | 'warn'> & {
  later(ms: number, run: () => void): void;
  refresh(): Promise<RefreshOutcome>;
  enqueue(work: () => Promise<void>): Promise<void>;
  serveCurrent(): Promise<boolean>;
  size: ReturnType<typeof createStoreSize>;
}): void {
  if (refreshMs > 0) {
    const tick = () =>
      later(
        refreshMs,
        () =>
          void refresh()
            .catch((error: unknown) => warn(`content refresh failed: ${(error as Error).message}`))
            .finally(tick),
      );
    tick();
  }
  // Versions published by another process (the CLI): served within a poll and an index load.
  const poll = () =>
    later(
      pollMs,
      () =>
        void enqueue(async () => {
          const swapped = await serveCurrent();
          if (!swapped && size.olderThan(STORE_BYTES_MAX_AGE_MS)) await size.measure();
        })
          .catch(() => undefined)
          .finally(poll),
    );
  poll();
}

export function createContentService(options: ContentServiceOptions): ContentService {
  const { store, log } = options;
  const swap = createVersionSwap({ store, worker: options.worker, serve: options.serve, log });
  const failures = createFeedFailures({
    retryMs: options.retryMs,
    maxRetryMs: options.refreshMs > 0 ? options.refreshMs : 3_600_000,
    warn: options.warn,
  });
  const size = createStoreSize(store);
  const { later, stop } = createTimers();
  let queue: Promise<unknown> = Promise.resolve();
  /** Serves the store's current version if it is new (with the index a refresh brought, if it is that one); a swap measures the store. */
  const serveCurrent = async (fresh?: Parameters<typeof swap.serveCurrent>[0]): Promise<boolean> => {
    const swapped = await swap.serveCurrent(fresh);
    if (swapped) await size.measure();
    return swapped;
  };
  /** Runs work after everything queued before it: refreshes and polls take turns. */
  const enqueue = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work);
    queue = run.catch(() => undefined);
    return run;
  };

  function scheduleRetry(): void {
    const next = failures.nextDueAt();
    if (next === null) return;
    later(Math.max(0, next - Date.now()), () => {
      const due = failures.due(Date.now());
      if (due.length === 0) return scheduleRetry();
      log(`retrying the content feed of ${due.join(', ')}`);
      void refresh(due).catch((error: unknown) => options.warn(`content retry failed: ${(error as Error).message}`));
    });
  }

  /** What the pull says of each supplier's credentials and 429s, told on. */
  function tellPull(outcome: RefreshOutcome): void {
    for (const [supplier, feed] of Object.entries(outcome.feeds) as [SupplierId, NonNullable<RefreshOutcome['feeds'][SupplierId]>][]) {
      if (feed.auth === 'ok') options.auth?.answered(supplier);
      else if (feed.auth === 'failed' && !feed.ok) options.auth?.refused(supplier, feed.error);
      if (feed.rateLimitWaits > 0) options.onRateLimitWaits?.(supplier, feed.rateLimitWaits);
    }
  }

  function refresh(only?: readonly SupplierId[]): Promise<RefreshOutcome> {
    return enqueue(async () => {
      const pull = () => options.worker.refreshAndIndex({ only, shrinkLimit: options.shrinkLimit });
      const held = options.exclusive ? await options.exclusive(pull) : { ran: true as const, value: await pull() };
      if (!held.ran) {
        log(`another process is refreshing the content (${held.holder ?? 'unknown'}): its version is served once published`);
        return { feeds: {}, result: null, elsewhere: true };
      }
      const { outcome, index } = held.value;
      for (const line of describeRefresh(outcome)) log(line);
      // A swap measures the store's size; without one (nothing changed, nothing pulled) it is measured here.
      if (!(outcome.result !== null && (await serveCurrent(index)))) await size.measure();
      tellPull(outcome);
      failures.record(outcome, Date.now());
      scheduleRetry();
      return outcome;
    });
  }

  return {
    async start(signal) {
      const wait = (ms: number) => new Promise<void>((resolve) => later(ms, resolve));
      if (!(await serveCurrent())) await makeFirstVersion(signal, { ...options, refresh, serveCurrent, wait });
      else {
        // A later start: suppliers the stored version lacks are retried at once.
        const stored = swap.served()!.info.suppliers;
        for (const s of SUPPLIER_IDS)
          if (stored?.[s]?.state !== 'ok') failures.retryNow(s, stored?.[s]?.lastError ?? 'not in the stored content', Date.now());
        scheduleRetry();
      }
      schedule({ ...options, later, refresh, enqueue, serveCurrent, size });
    },
    refresh,
    suppliers: () => failures.suppliers(swap.served()?.info),
    storeBytes: () => size.bytes(),
    stop,
  };
}
