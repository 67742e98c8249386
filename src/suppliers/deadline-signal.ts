/** One call's deadline combined with its caller's signal. */
export interface DeadlineSignal {
  /** Aborts when the caller's signal aborts (with its reason) or when the deadline passes (a TimeoutError). */
  readonly signal: AbortSignal;
  /** Whether it was this deadline, not the caller, that aborted `signal`. */
  readonly timedOut: boolean;
  /** The call is over: stop the timer and stop listening to the caller. */
  clear(): void;
}

/**
 * `AbortSignal.any([parent, AbortSignal.timeout(ms)])`, with a timer that holds the signal
 * strongly. Why not that one-liner: in Node 20 a timeout signal that only AbortSignal.any()
 * refers to can be garbage-collected before it fires, so a call could outlive its deadline
 * (nodejs/node#57736; deadline-signal.test.ts forces a collection to show it). The timer is
 * cleared when the call ends, so nothing is left behind per call.
 */
export function deadlineSignal(ms: number, parent?: AbortSignal): DeadlineSignal {
  const controller = new AbortController();
  deadlines.set(controller.signal, Math.min(performance.now() + ms, deadlineOf(parent) ?? Infinity));
  let timedOut = false;
  const onParentAbort = (): void => {
    clear();
    controller.abort(parent!.reason);
  };
  const timer = setTimeout(() => {
    timedOut = true;
    parent?.removeEventListener('abort', onParentAbort);
    controller.abort(new DOMException(`no answer within ${ms} ms`, 'TimeoutError'));
  }, ms);
  function clear(): void {
    clearTimeout(timer);
    parent?.removeEventListener('abort', onParentAbort);
  }
  if (parent?.aborted) onParentAbort();
  else parent?.addEventListener('abort', onParentAbort, { once: true });
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    clear,
  };
}

/** When each deadline signal's deadline passes (performance.now() time), the earlier of its own and its parent's. */
const deadlines = new WeakMap<AbortSignal, number>();

/**
 * When `signal` will abort for lack of time (performance.now() time), if it is a deadline signal
 * (or under one); undefined for any other signal, whose end cannot be known. fetch-json.ts reads
 * it to tell at once whether a supplier's "wait and retry" (429) fits the call's deadline.
 */
export function deadlineOf(signal: AbortSignal | undefined): number | undefined {
  return signal === undefined ? undefined : deadlines.get(signal);
}
