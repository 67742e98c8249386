/** The outcome of one request against its bucket. */
export interface RateDecision {
  allowed: boolean;
  /** The bucket's limit per window. */
  limit: number;
  /** Requests still allowed in the window after this one (0 when refused). */
  remaining: number;
  /** Milliseconds until a request will be allowed again: 0 while `remaining` > 0. */
  resetMs: number;
}

/**
 * An exact sliding-window limit (a log of accepted requests' times, not an approximation): a
 * request is allowed when fewer than `limit` requests were accepted in the `windowMs` before it.
 * Refused requests are not counted, so a client that keeps retrying is let in as soon as its
 * oldest accepted request leaves the window. Checking and counting are one atomic step, also
 * across processes for a shared implementation. Every implementation runs the contract suite in
 * rate-limiter-contract.ts.
 */
export interface RateLimiter {
  hit(bucket: string, limit: number): Promise<RateDecision>;
  close(): Promise<void>;
}
