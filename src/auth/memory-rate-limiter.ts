import type { RateDecision, RateLimiter } from './rate-limiter.ts';

export interface MemoryRateLimiterOptions {
  windowMs: number;
  /** Milliseconds; monotonic by default, so a wall-clock step cannot stretch or shrink a window. */
  clock?: () => number;
}

/**
 * The per-process limiter: a sorted log of accepted times per bucket. JavaScript runs one hit at
 * a time, so check-and-count is atomic. A log holds at most `limit` entries, and buckets whose
 * log has emptied are swept once per window, so idle clients cost nothing for long.
 */
/** Accepted times of one bucket, oldest first, with their ids; the live ones start at `start`. */
interface Log {
  times: number[];
  ids: number[];
  start: number;
}

/** A request accepted within the window, as `acceptedInWindow` lists it. */
export interface AcceptedHit {
  bucket: string;
  /** When it was accepted, on the limiter's clock. */
  at: number;
  /** The id given to `hit` or `record` (0 when none was). */
  id: number;
}

export interface MemoryRateLimiter extends RateLimiter {
  /** Check and count, remembering `id` with the request when it is accepted. */
  hit(bucket: string, limit: number, id?: number): Promise<RateDecision>;
  /**
   * Counts a request that was accepted elsewhere (by the shared limiter), without checking: so
   * that, should the shared limiter fail, this process goes on from what it really let through.
   */
  record(bucket: string, id: number): void;
  /** Every request of every bucket accepted within the window, oldest first per bucket. */
  acceptedInWindow(): AcceptedHit[];
  /** The limiter's clock, in ms. */
  now(): number;
  /** Buckets held (for tests of the sweep). */
  readonly bucketCount: number;
}

export function createMemoryRateLimiter(options: MemoryRateLimiterOptions): MemoryRateLimiter {
  const { windowMs } = options;
  const clock = options.clock ?? (() => performance.now());
  const buckets = new Map<string, Log>();
  let sweptAt = clock();

  /**
   * Drops the times that left the window. The log only grows at its end and shrinks at its start,
   * so a start offset does it in O(1); the array is compacted once the dead part is half of it.
   * (Splicing the start on every hit would move the whole log each time: a busy key's log holds
   * tens of thousands of times.)
   */
  function prune(log: Log, now: number): void {
    const { times } = log;
    while (log.start < times.length && times[log.start] <= now - windowMs) log.start++;
    if (log.start > 64 && log.start * 2 > times.length) {
      log.times = times.slice(log.start);
      log.ids = log.ids.slice(log.start);
      log.start = 0;
    }
  }

  function sweep(now: number): void {
    sweptAt = now;
    for (const [bucket, log] of buckets) {
      prune(log, now);
      if (log.times.length === log.start) buckets.delete(bucket);
    }
  }

  function logOf(bucket: string, now: number): Log {
    if (now - sweptAt >= windowMs) sweep(now);
    let log = buckets.get(bucket);
    if (log === undefined) buckets.set(bucket, (log = { times: [], ids: [], start: 0 }));
    prune(log, now);
    return log;
  }

  return {
    get bucketCount() {
      return buckets.size;
    },
    now: clock,
    record(bucket, id) {
      const now = clock();
      const log = logOf(bucket, now);
      log.times.push(now);
      log.ids.push(id);
    },
    acceptedInWindow() {
      const now = clock();
      const out: AcceptedHit[] = [];
      for (const [bucket, log] of buckets) {
        prune(log, now);
        for (let i = log.start; i < log.times.length; i++) out.push({ bucket, at: log.times[i], id: log.ids[i] });
      }
      return out;
    },
    async hit(bucket, limit, id = 0): Promise<RateDecision> {
      const now = clock();
      const log = logOf(bucket, now);
      const { times, start } = log;
      const count = times.length - start;
      if (count < limit) {
        times.push(now);
        log.ids.push(id);
        const remaining = limit - count - 1;
        return { allowed: true, limit, remaining, resetMs: remaining > 0 ? 0 : times[start] + windowMs - now };
      }
      // A lowered limit can leave more entries than it allows: the next slot frees when enough leave.
      return { allowed: false, limit, remaining: 0, resetMs: times[times.length - limit] + windowMs - now };
    },
    async close() {
      buckets.clear();
    },
  };
}
