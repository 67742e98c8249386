// Counts map searches per token and month for the partner's hub (docs/decisions.md 91): in memory,
// added to the key store every `flushMs` and at close, so a search costs no database write and the
// counts of several gateways add up in the store. A crash loses at most one interval's counts.
import type { KeyStore, MapSearchCount } from './key-store.ts';

export interface MapSearchCounter {
  /** One search made with `token` at `at`. */
  count(token: string, at: Date): void;
  /** Adds what is held to the store now. */
  flush(): Promise<void>;
  /** Stops the timer and flushes. */
  close(): Promise<void>;
}

export function createMapSearchCounter(options: {
  store: Pick<KeyStore, 'countMapSearches'>;
  flushMs: number;
  onError?: (error: unknown) => void;
}): MapSearchCounter {
  let held = new Map<string, MapSearchCount>();
  let flushing: Promise<void> = Promise.resolve();

  function flush(): Promise<void> {
    flushing = flushing.then(async () => {
      if (held.size === 0) return;
      const counts = [...held.values()];
      held = new Map();
      try {
        await options.store.countMapSearches(counts);
      } catch (error) {
        // Kept for the next flush: a database blip loses no count.
        for (const c of counts) add(c.token, c.month, c.searches);
        options.onError?.(error);
      }
    });
    return flushing;
  }

  function add(token: string, month: string, searches: number): void {
    const id = `${token}|${month}`;
    const entry = held.get(id);
    if (entry === undefined) held.set(id, { token, month, searches });
    else entry.searches += searches;
  }

  const timer = setInterval(() => void flush(), options.flushMs);
  timer.unref(); // the schedule never keeps a process alive; close() flushes what is left

  return {
    count(token, at) {
      add(token, at.toISOString().slice(0, 7), 1);
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
