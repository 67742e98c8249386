// The gateway's side of the content worker (content-worker.ts): one thread per process, jobs one
// at a time in the order asked. The worker pulls the feeds, merges, builds and publishes a version,
// and builds a version's index; what comes back is a small report, and typed arrays transferred (not
// copied), so the event loop here only ever assembles views over them.
import { Worker } from 'node:worker_threads';
import type { StoreLocation } from '../store/open-content-store.ts';
import type { SupplierConfig } from '../suppliers/supplier.ts';
import type { Settings, SupplierId } from '../types.ts';
import type { RefreshOutcome } from './refresh-content.ts';
import { assembleVersionIndex, type VersionIndex, type VersionIndexParts } from './version-index.ts';

export type WorkerRequest =
  | { op: 'refresh'; job: number; only: SupplierId[] | null; shrinkLimit: number; pageSize: number | null; index: boolean }
  | { op: 'index'; job: number; no: number }
  | { op: 'close'; job: number };

export type WorkerReply =
  | { job: number; ok: true; refresh: RefreshOutcome; index: VersionIndexParts | null }
  | { job: number; ok: true; index: VersionIndexParts }
  | { job: number; ok: false; error: string };

/**
 * The figures the worker uses (its nice value, the pyramid's finest resolution, the merge's gates,
 * the ranking prior, its store's and the drivers' figures): `config.settings` whole, plain data
 * that crosses to the thread as it is.
 */
export type ContentWorkerSettings = Settings;

/** What a refresh asks: these suppliers' feeds or every one, the shrink limit, and a page size (the adapter's default when absent). */
export interface RefreshRequest {
  only?: readonly SupplierId[];
  shrinkLimit: number;
  pageSize?: number;
}

export interface ContentWorkerOptions {
  /** The content store the worker opens a handle of its own on (SQLite file or PostgreSQL). */
  where: StoreLocation;
  /**
   * Where the worker pulls the feeds from: a module (URL) exporting `createSuppliers(configs)`, the
   * composition root's adapters (suppliers/create-suppliers.ts), and the suppliers' base URLs.
   * Adapters are objects with methods, which cannot cross threads; the worker makes its own.
   * Absent: a worker that only loads indexes (a refresh fails).
   */
  feeds?: { module: string; configs: readonly SupplierConfig[] };
  /** `config.settings`, sent to the thread. */
  settings: ContentWorkerSettings;
}

export interface ContentWorker {
  /** Pulls (these suppliers' or every) feed, then builds and publishes the version, all in the worker (the CLI: nothing to serve). */
  refresh(request: RefreshRequest): Promise<RefreshOutcome>;
  /**
   * The same, and the new version's index and cell pyramid, built in the worker from the stays it
   * has just published, in the same reply (`index` null when nothing new was published): what a
   * gateway serves next, without a second trip to read the version back.
   */
  refreshAndIndex(request: RefreshRequest): Promise<{ outcome: RefreshOutcome; index: VersionIndex | null }>;
  /** A published version's index and cell pyramid, built in the worker from the store's chunks. */
  loadIndex(no: number): Promise<VersionIndex>;
  close(): Promise<void>;
}

export function createContentWorker(options: ContentWorkerOptions): ContentWorker {
  let worker: Worker | null = null;
  let nextJob = 1;
  const waiting = new Map<number, { resolve: (reply: WorkerReply) => void; reject: (error: Error) => void }>();
  const start = (): Worker => {
    if (worker !== null) return worker;
    // The worker runs TypeScript: on Node 20 a worker inherits no module hooks, so it registers
    // tsx itself before importing its entry.
    const bootstrap = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(new URL('./content-worker.ts', import.meta.url).href)}); })`;
    const w = new Worker(bootstrap, {
      eval: true,
      workerData: { where: options.where, feeds: options.feeds, settings: options.settings } satisfies ContentWorkerOptions,
    });
    // An idle worker never keeps the process alive; a worker someone waits on does (ask, close):
    // otherwise a process with nothing else to do (the CLI) ends under the await, and Node exits 13
    // with a top-level await that never settled.
    w.unref();
    w.on('message', (reply: WorkerReply) => {
      const entry = waiting.get(reply.job);
      waiting.delete(reply.job);
      if (waiting.size === 0) w.unref();
      entry?.resolve(reply);
    });
    const fail = (error: Error) => {
      for (const entry of waiting.values()) entry.reject(error);
      waiting.clear();
      worker = null;
    };
    w.on('error', fail);
    w.on('exit', (code) => fail(new Error(`the content worker exited with code ${code}`)));
    worker = w;
    return w;
  };
  const ask = (request: WorkerRequest): Promise<WorkerReply> =>
    new Promise((resolve, reject) => {
      waiting.set(request.job, { resolve, reject });
      const w = start();
      w.ref();
      w.postMessage(request);
    });
  const refresh = async ({ only, shrinkLimit, pageSize }: RefreshRequest, index: boolean) => {
    const reply = await ask({
      op: 'refresh',
      job: nextJob++,
      only: only === undefined ? null : [...only],
      shrinkLimit,
      pageSize: pageSize ?? null,
      index,
    });
    if (!reply.ok) throw new Error(reply.error);
    if (!('refresh' in reply)) throw new Error('the content worker answered a refresh with something else');
    return reply;
  };
  return {
    async refresh(request) {
      return (await refresh(request, false)).refresh;
    },
    async refreshAndIndex(request) {
      const reply = await refresh(request, true);
      return { outcome: reply.refresh, index: reply.index === null ? null : assembleVersionIndex(reply.index) };
    },
    async loadIndex(no) {
      const reply = await ask({ op: 'index', job: nextJob++, no });
      if (!reply.ok) throw new Error(reply.error);
      if ('refresh' in reply || reply.index === null) throw new Error('the content worker answered an index with something else');
      return assembleVersionIndex(reply.index);
    },
    async close() {
      const w = worker;
      if (w === null) return;
      worker = null;
      w.ref(); // waited on until it has exited (below): it keeps the process up till then
      await new Promise<void>((resolve) => {
        const stuck = setTimeout(() => void w.terminate(), 2_000);
        w.once('exit', () => {
          clearTimeout(stuck);
          resolve();
        });
        w.postMessage({ op: 'close', job: 0 } satisfies WorkerRequest);
      });
    },
  };
}
