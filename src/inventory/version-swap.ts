// How a gateway moves to the store's current content version (docs/decisions.md 69): both versions
// held while the new one loads, then only the new one, so no publisher, in this process or another,
// drops a version this gateway reads; the index loaded once, or taken as the refresh brought it.
import type { Store, VersionReader } from '../store/store.ts';
import type { ContentInfo } from './build-content-version.ts';
import type { ContentWorker } from './content-worker-client.ts';
import type { VersionIndex } from './version-index.ts';

/** A version ready to serve: held, its index and pyramid loaded. */
export interface ServedVersion extends VersionIndex {
  label: string;
  /** The version's stays and ids (Store.version). */
  version: VersionReader;
}

export interface VersionSwap {
  /** The served version's number and what its refresh recorded; null before the first. */
  served(): { no: number; info: ContentInfo } | null;
  /**
   * Serves the store's current version if it is not the one served; true when it swapped. `fresh`,
   * a version's index a refresh has just brought, is used when that version is the current one;
   * any other is loaded by the worker from the store.
   */
  serveCurrent(fresh?: VersionIndex | null): Promise<boolean>;
}

export function createVersionSwap(options: {
  store: Store;
  worker: Pick<ContentWorker, 'loadIndex'>;
  /** Swaps what searches read to this version: one assignment, the version already held and loaded. */
  serve(version: ServedVersion): void;
  log(message: string): void;
}): VersionSwap {
  const { store } = options;
  let served: { no: number; info: ContentInfo } | null = null;
  return {
    served: () => served,
    async serveCurrent(fresh) {
      // One published and pruned between the read of the pointer and the hold is not loaded: the pointer is read again.
      for (let attempt = 1; ; attempt++) {
        const current = await store.currentContent();
        if (current === null) return false;
        if (current.no === served?.no) {
          // A refresh that changed no stay records the suppliers' states on the served version (docs/decisions.md 80).
          served.info = current.info as ContentInfo;
          return false;
        }
        const readable = await store.holdVersions(served === null ? [current.no] : [served.no, current.no]);
        if (!readable.includes(current.no)) {
          if (attempt === 3) throw new Error(`content version ${current.no} was dropped before it could be loaded, three times`);
          continue;
        }
        const loading = performance.now();
        const brought = fresh?.no === current.no ? fresh : null;
        let loaded: VersionIndex;
        try {
          loaded = brought ?? (await options.worker.loadIndex(current.no));
          options.serve({ ...loaded, label: current.label, version: store.version(current.no) });
        } catch (error) {
          await store.holdVersions(served === null ? [] : [served.no]).catch(() => undefined);
          throw error;
        }
        served = { no: current.no, info: current.info as ContentInfo };
        options.log(
          `serving content version ${current.no} (${current.label}): index of ${loaded.index.size} stays ` +
            (brought !== null ? 'built with the refresh' : `loaded in ${Math.round(performance.now() - loading)} ms`),
        );
        // Releasing the old one may fail (the database away): the heartbeat then keeps both a while longer.
        await store.holdVersions([current.no]).catch(() => undefined);
        return true;
      }
    },
  };
}
