export const BREAKER_STATES = ['closed', 'open', 'half-open'] as const;
export type BreakerState = (typeof BREAKER_STATES)[number];

export interface CircuitBreakerOptions {
  /** Consecutive failures that open the breaker (the quote service gives `settings.breakerFailureThreshold`). */
  failureThreshold: number;
  /** How long an open breaker refuses calls before it lets one trial through (`settings.breakerOpenMs`). */
  openMs: number;
  /** Milliseconds clock (injected so that tests move time by hand; default Date.now). */
  now?: () => number;
  /**
   * Told of every change of state, with why: an operator reads in the log when a supplier was
   * cut off, when a trial went and how it ended.
   */
  onTransition?: (to: BreakerState, cause: string) => void;
}

/**
 * One supplier's circuit breaker. Each call asks `tryAcquire()` first and, when let through,
 * reports exactly once: `success()`, `failure()`, or `cancel()` when the call ended without a
 * verdict on the supplier (the caller gave up). A result reported while the breaker is open
 * is ignored: it comes from a call let through before the breaker opened.
 */
export interface CircuitBreaker {
  /** Whether a call may go now. In half-open, true once (the trial) until the trial reports. */
  tryAcquire(): boolean;
  success(): void;
  /** `cause` says what failed (for the log of a transition it causes). */
  failure(cause?: string): void;
  /** The call let through said nothing about the supplier: a half-open trial slot is freed. */
  cancel(): void;
  /** The state now (an open breaker whose time is up reads as half-open). */
  state(): BreakerState;
  /**
   * Milliseconds until a trial may go: > 0 while open, 0 otherwise (in half-open with a trial
   * running, its verdict comes within one call's deadline).
   */
  retryAfterMs(): number;
}

/**
 * closed -> open after `failureThreshold` consecutive failures; open -> half-open after `openMs`;
 * half-open lets exactly one trial through (concurrent callers are refused while it runs); the
 * trial's success closes the breaker, its failure opens it for another `openMs`. Hand-written
 * rather than opossum because the clock must be injectable and there are no timers at all: the
 * state is computed from the clock when asked.
 */
export function createCircuitBreaker(options: CircuitBreakerOptions): CircuitBreaker {
  const { failureThreshold, openMs } = options;
  const now = options.now ?? Date.now;
  const tell = options.onTransition ?? (() => undefined);
  if (!(Number.isInteger(failureThreshold) && failureThreshold >= 1))
    throw new RangeError(`failureThreshold must be a positive integer, got ${failureThreshold}`);
  if (!(openMs >= 0)) throw new RangeError(`openMs must be >= 0, got ${openMs}`);

  let consecutiveFailures = 0;
  /** When the breaker last opened; meaningful while open or half-open. */
  let openedAt = 0;
  let opened = false;
  let trialRunning = false;

  const state = (): BreakerState => {
    if (!opened) return 'closed';
    return trialRunning || now() - openedAt >= openMs ? 'half-open' : 'open';
  };

  const open = (cause: string): void => {
    opened = true;
    openedAt = now();
    trialRunning = false;
    tell('open', `${cause}; calls refused for ${openMs} ms`);
  };

  const close = (): void => {
    opened = false;
    trialRunning = false;
    consecutiveFailures = 0;
    tell('closed', 'the trial call succeeded');
  };

  return {
    tryAcquire() {
      switch (state()) {
        case 'closed':
          return true;
        case 'open':
          return false;
        case 'half-open':
          if (trialRunning) return false;
          trialRunning = true;
          tell('half-open', `${openMs} ms since it opened: one trial call let through`);
          return true;
      }
    },
    success() {
      const current = state();
      if (current === 'closed') consecutiveFailures = 0;
      else if (current === 'half-open' && trialRunning) close();
    },
    failure(cause = 'a failed call') {
      const current = state();
      if (current === 'closed') {
        consecutiveFailures++;
        if (consecutiveFailures >= failureThreshold) open(`${consecutiveFailures} consecutive failures, the last: ${cause}`);
      } else if (current === 'half-open' && trialRunning) {
        open(`the trial call failed: ${cause}`);
      }
    },
    cancel() {
      if (state() === 'half-open') trialRunning = false;
    },
    state,
    retryAfterMs() {
      return state() === 'open' ? Math.max(0, openedAt + openMs - now()) : 0;
    },
  };
}
