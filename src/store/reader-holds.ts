/**
 * The versions one store handle reads (Store.holdVersions, docs/decisions.md 69), the same on both
 * engines: `record(nos)` writes this handle's holds (its rows in `content_readers`) and returns
 * those of `nos` still readable; while any are held, a heartbeat of the handle's own renews them,
 * so a reader's record lives exactly as long as the handle (a killed process stops renewing it).
 */
export function readerHolds(record: (nos: readonly number[]) => Promise<number[]>, heartbeatMs: number) {
  let held: number[] = [];
  let heartbeat: NodeJS.Timeout | null = null;
  let closed = false;
  return {
    async hold(nos: readonly number[]): Promise<number[]> {
      if (closed) throw new Error('holdVersions: the store is closed');
      held = [...new Set(nos)];
      const readable = await record(held);
      if (held.length === 0 && heartbeat !== null) {
        clearInterval(heartbeat);
        heartbeat = null;
      } else if (held.length > 0 && heartbeat === null) {
        heartbeat = setInterval(() => {
          // A failed beat (the database busy or away) is tried again at the next; a lost minute only
          // lets a publisher drop these versions, and the gateway then swaps to the one served.
          record(held).catch(() => undefined);
        }, heartbeatMs);
        heartbeat.unref(); // never keeps the process alive
      }
      return readable;
    },
    /** No more holds or beats; the caller deletes the rows. */
    stop(): void {
      closed = true;
      if (heartbeat !== null) clearInterval(heartbeat);
    },
  };
}
