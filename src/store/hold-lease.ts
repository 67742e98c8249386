// Holding a lease while work runs (docs/decisions.md 76): take it, renew it every ttl/3, and tell
// the work through its AbortSignal when it is lost (another process took it over after a renewal
// failed for longer than the ttl), so that a singleton never runs twice at once for long.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { LeaseStore } from './lease-store.ts';

/** A holder name unique to this process and call: "<host>:<pid>:<random>", readable in the table. */
export function leaseHolder(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

export interface LeaseOptions {
  leases: LeaseStore;
  name: string;
  /** How long the lease lasts without a renewal: a dead holder's work is taken over after it. */
  ttlMs: number;
  holder?: string;
  /** The lease was lost while held (the work's signal is aborted too). */
  onLost?(reason: string): void;
  /** A renewal went through (tests wait on it). */
  onRenewed?(): void;
}

/**
 * The lease, renewed every ttl/3 until `stop()`; lost when a renewal is refused, or when none has
 * gone through for a ttl (the database away, or a renewal hanging): by then another process may hold it.
 */
function renewing(options: LeaseOptions, holder: string, onLost: (reason: string) => void) {
  const { leases, name, ttlMs } = options;
  let lastRenewed = performance.now();
  let renewal: Promise<void> | null = null;
  let stopped = false;
  const lose = (reason: string) => {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    onLost(reason);
  };
  const timer = setInterval(
    () => {
      if (performance.now() - lastRenewed >= ttlMs) {
        lose(`lease ${name} was not renewed for ${ttlMs} ms`);
        return;
      }
      if (renewal !== null) return; // the previous renewal is still on its way
      renewal = leases
        .acquire(name, holder, ttlMs)
        .then(
          (held) => {
            if (stopped) return;
            if (!held) lose(`lease ${name} was taken over by another process`);
            else {
              lastRenewed = performance.now();
              options.onRenewed?.();
            }
          },
          () => undefined, // the database is away: the lease may still be ours until a ttl has passed
        )
        .finally(() => {
          renewal = null;
        });
    },
    Math.max(1, Math.floor(ttlMs / 3)),
  );
  return {
    /** Stops renewing; waits (at most a ttl) for a renewal on its way, so a release after it is the last word. */
    async stop() {
      stopped = true;
      clearInterval(timer);
      if (renewal === null) return;
      let timeout: NodeJS.Timeout | undefined;
      await Promise.race([
        renewal,
        new Promise<void>((resolve) => {
          timeout = setTimeout(resolve, ttlMs);
        }),
      ]);
      clearTimeout(timeout);
    },
  };
}

/**
 * Runs `work` while holding the lease: `{ ran: false, holder }` at once when another process holds
 * it; else the work's value, the lease renewed meanwhile and released after (also when it throws).
 * If the lease is lost, `signal` aborts: the work should stop, and nothing it does after is safe.
 */
export async function withLease<T>(
  options: LeaseOptions,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<{ ran: true; value: T } | { ran: false; holder: string | null }> {
  const holder = options.holder ?? leaseHolder();
  if (!(await options.leases.acquire(options.name, holder, options.ttlMs))) {
    return { ran: false, holder: (await options.leases.holder(options.name))?.holder ?? null };
  }
  const controller = new AbortController();
  const renewer = renewing(options, holder, (reason) => {
    controller.abort(new Error(reason));
    options.onLost?.(reason);
  });
  try {
    return { ran: true, value: await work(controller.signal) };
  } finally {
    await renewer.stop();
    await options.leases.release(options.name, holder).catch(() => undefined);
  }
}

export interface KeptLease {
  /** Whether this process holds the lease now. */
  held(): boolean;
  /** Stops competing and releases the lease if held. */
  stop(): Promise<void>;
}

/**
 * Competes for the lease for as long as the process runs (a singleton role, such as the scheduled
 * report sync): tries every ttl/3 to take it; once held, renews it; `onAcquired` and `onLost` tell
 * the role to start and stop. A holder that dies is replaced within ttl + ttl/3.
 */
export function keepLease(options: LeaseOptions & { onAcquired(): void; onError?(error: unknown): void }): KeptLease {
  const holder = options.holder ?? leaseHolder();
  let held = false;
  let stopped = false;
  let renewer: ReturnType<typeof renewing> | null = null;
  let attempt: Promise<void> = Promise.resolve();
  const period = Math.max(1, Math.floor(options.ttlMs / 3));
  const tryTake = () => {
    if (held || stopped) return;
    attempt = options.leases.acquire(options.name, holder, options.ttlMs).then(
      (taken) => {
        if (!taken || stopped) {
          if (taken) void options.leases.release(options.name, holder).catch(() => undefined);
          return;
        }
        held = true;
        renewer = renewing(options, holder, (reason) => {
          held = false;
          renewer = null;
          options.onLost?.(reason);
        });
        options.onAcquired();
      },
      (error: unknown) => options.onError?.(error),
    );
  };
  const timer = setInterval(tryTake, period);
  tryTake();
  return {
    held: () => held,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await attempt;
      if (renewer !== null) await renewer.stop();
      if (held) {
        held = false;
        await options.leases.release(options.name, holder).catch(() => undefined);
      }
    },
  };
}
