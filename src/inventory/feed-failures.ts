// The content service's memory of failed feeds (README, "Content refresh"): a failed pull publishes
// nothing, so each supplier's failures since its last applied feed, its last error and when it is
// due again are kept here, in the process that retries it, with backoff.
import { SUPPLIER_IDS, type SupplierId } from '../types.ts';
import type { ContentInfo, SupplierContent } from './build-content-version.ts';
import type { RefreshOutcome } from './refresh-content.ts';

export interface FeedFailures {
  /** A pull's verdicts: a failed or held-back feed counts one more failure, due again after a doubling wait; an applied one clears. */
  record(outcome: RefreshOutcome, now: number): void;
  /** A supplier to pull again at once (one the stored version lacks at a start). */
  retryNow(supplier: SupplierId, error: string, now: number): void;
  /** When the next supplier is due; null when none failed. */
  nextDueAt(): number | null;
  /** The suppliers due by `now`. */
  due(now: number): SupplierId[];
  /** Each supplier's content state: the served version's record, stale or unavailable while its feed keeps failing. */
  suppliers(served: ContentInfo | undefined): Record<SupplierId, SupplierContent>;
}

export function createFeedFailures(options: {
  /** The first wait, doubled at each failure... */
  retryMs: number;
  /** ...up to this. */
  maxRetryMs: number;
  warn(message: string): void;
}): FeedFailures {
  const failures = new Map<SupplierId, { count: number; error: string; dueAt: number }>();
  return {
    record(outcome, now) {
      for (const [supplier, feed] of Object.entries(outcome.feeds) as [SupplierId, NonNullable<RefreshOutcome['feeds'][SupplierId]>][]) {
        const verdict = outcome.result?.suppliers[supplier].verdict;
        const error = !feed.ok ? feed.error : verdict === 'held back' ? outcome.result!.suppliers[supplier].lastError! : null;
        if (error === null) {
          failures.delete(supplier);
          continue;
        }
        const count = (failures.get(supplier)?.count ?? 0) + 1;
        const wait = Math.min(options.retryMs * 2 ** (count - 1), options.maxRetryMs);
        failures.set(supplier, { count, error, dueAt: now + wait });
        options.warn(
          `${supplier}: content not applied (${error}); its previous listings are kept; retried in ${Math.round(wait / 1_000)} s`,
        );
      }
    },
    retryNow(supplier, error, now) {
      failures.set(supplier, { count: 0, error, dueAt: now });
    },
    nextDueAt() {
      return failures.size === 0 ? null : Math.min(...[...failures.values()].map((f) => f.dueAt));
    },
    due(now) {
      return [...failures].filter(([, f]) => f.dueAt <= now).map(([s]) => s);
    },
    suppliers(served) {
      return Object.fromEntries(
        SUPPLIER_IDS.map((s) => {
          const stored = served?.suppliers?.[s] ?? { state: 'unavailable', listings: 0, lastRefresh: null, lastError: null };
          const failed = failures.get(s);
          if (failed === undefined || failed.count === 0) return [s, stored];
          return [s, { ...stored, state: stored.listings > 0 ? 'stale' : 'unavailable', lastError: failed.error }];
        }),
      ) as Record<SupplierId, SupplierContent>;
    },
  };
}
