// The gateway's side of the content worker (content-worker.ts): a thread while there are jobs
// (started by the first, closed once none is left), jobs in the order asked. The worker pulls the
// feeds, merges, builds and publishes a version, and builds a version's index; what comes back is
// a small report, and typed arrays transferred (not copied), so the event loop here only ever
// assembles views over them.
import { Worker } from 'node:worker_threads';
import type { StoreLocation } from '../store/open-content-store.ts';
import type { SupplierConfig } from '../suppliers/supplier.ts';
import type { Settings, SupplierId } from '../types.ts';
import { contentHeapLimitMb } from './content-heap-limit.ts';
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
  /** How long a thread with no job left is kept for the next before it is closed; default IDLE_MS. */
  idleMs?: number;
}

/** A thread idle this long is closed: refreshes come hours apart, a test's or a swap's jobs within it. */
export const IDLE_MS = 10_000;

/** The thread's name (`worker.threadName`, `top -H`): what tells it from Node's own threads, such as its module hooks' thread. */
export const CONTENT_WORKER_NAME = 'staygate-content';

export interface ContentWorker {
  /** Pulls (these suppliers' or every) feed, then builds and publishes the version, all in the worker (the CLI: nothing to serve). */
  refresh(request: RefreshRequest): Promise<RefreshOutcome>;
  /**
   * The same, and the new version's index and cell pyramid, built in the worker from the chunks it
   * has just published, in the same reply (`index` null when nothing new was published): what a
   * gateway serves next, without a second trip.
   */
  refreshAndIndex(request: RefreshRequest): Promise<{ outcome: RefreshOutcome; index: VersionIndex | null }>;
  /** A published version's index and cell pyramid, built in the worker from the store's chunks. */
  loadIndex(no: number): Promise<VersionIndex>;
  close(): Promise<void>;
}

/** A worker thread and the jobs it owes answers to. */
interface Thread {
  w: Worker;
  idle: NodeJS.Timeout | null;
  waiting: Map<number, { resolve: (reply: WorkerReply) => void; reject: (error: Error) => void }>;
  exited: Promise<void>;
}

export function createContentWorker(options: ContentWorkerOptions): ContentWorker {
  /** The thread jobs go to; null when none runs. */
  let live: Thread | null = null;
  /** Threads told to close, until they have exited. */
  const closing = new Set<Thread>();
  let nextJob = 1;
  const start = (): Thread => {
    if (live !== null) return live;
    // The worker runs TypeScript: on Node 20 a worker inherits no module hooks, so it registers
    // tsx itself before importing its entry.
    const bootstrap = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(new URL('./content-worker.ts', import.meta.url).href)}); })`;
    const w = new Worker(bootstrap, {
      eval: true,
      name: CONTENT_WORKER_NAME,
      // V8's default cap (~4 GB) would kill a 10M-listing pull and merge (content-heap-limit.ts).
      resourceLimits: { maxOldGenerationSizeMb: contentHeapLimitMb() },
      workerData: { where: options.where, feeds: options.feeds, settings: options.settings } satisfies ContentWorkerOptions,
    });
    // An idle worker never keeps the process alive; a worker someone waits on does (ask, close):
    // otherwise a process with nothing else to do (the CLI) ends under the await, and Node exits 13
    // with a top-level await that never settled.
    w.unref();
    const thread: Thread = { w, idle: null, waiting: new Map(), exited: new Promise((resolve) => w.once('exit', () => resolve())) };
    w.on('message', (reply: WorkerReply) => {
      const entry = thread.waiting.get(reply.job);
      thread.waiting.delete(reply.job);
      if (thread.waiting.size === 0) {
        w.unref();
        thread.idle = setTimeout(() => retire(thread), options.idleMs ?? IDLE_MS);
        thread.idle.unref(); // never what keeps a process alive
      }
      entry?.resolve(reply);
    });
    const fail = (error: Error) => {
      for (const entry of thread.waiting.values()) entry.reject(error);
      thread.waiting.clear();
      if (live === thread) live = null;
    };
    w.on('error', fail);
    w.on('exit', (code) => fail(new Error(`the content worker exited with code ${code}`)));
    live = thread;
    return thread;
  };
  /**
   * A thread idle for idleMs is told to close, and the next job starts a new one: a refresh's
   * pull and merge leave the worker's heap at its peak (GBs at 1M stays, docs/decisions.md 204), which
   * V8 keeps until it needs the room; a thread that exits gives it all back.
   */
  const retire = (thread: Thread): void => {
    if (thread.idle !== null) clearTimeout(thread.idle);
    if (live === thread) live = null;
    closing.add(thread);
    void thread.exited.then(() => closing.delete(thread));
    thread.w.unref();
    thread.w.postMessage({ op: 'close', job: 0 } satisfies WorkerRequest);
  };
  const ask = (request: WorkerRequest): Promise<WorkerReply> =>
    new Promise((resolve, reject) => {
      const thread = start();
      if (thread.idle !== null) clearTimeout(thread.idle);
      thread.idle = null;
      thread.waiting.set(request.job, { resolve, reject });
      thread.w.ref();
      thread.w.postMessage(request);
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
      if (live !== null) retire(live);
      // Waited on until they have exited (a stuck one is terminated): they keep the process up till then.
      await Promise.all(
        [...closing].map((thread) => {
          thread.w.ref();
          const stuck = setTimeout(() => void thread.w.terminate(), 2_000);
          return thread.exited.finally(() => clearTimeout(stuck));
        }),
      );
    },
  };
}
