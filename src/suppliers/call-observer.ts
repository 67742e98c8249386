// What happens inside a supplier call that its caller cannot see from the result: a 429 that was
// waited out and retried returns a normal answer. The drivers call fetch-json without knowing who
// counts (the quote service on the main thread, the content pull in the worker), so the counter is
// carried by the async context of the call rather than by every driver's arguments.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { SupplierId } from '../types.ts';

export interface CallObserver {
  /** A 429 from `supplier`: the call now waits `ms` before sending again (a wait, not a failure). */
  rateLimitWait?(supplier: SupplierId, ms: number): void;
}

const current = new AsyncLocalStorage<CallObserver>();

/** Runs `work` (and every call it starts, across awaits) with `observer` told of what those calls meet. */
export function observeCalls<T>(observer: CallObserver, work: () => T): T {
  return current.run(observer, work);
}

/** The observer of the call running now, if its caller set one. */
export function callObserver(): CallObserver | undefined {
  return current.getStore();
}
