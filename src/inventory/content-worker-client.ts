// The gateway's side of the content worker (content-worker.ts): one thread per process, jobs one
// at a time in the order asked. Listings are handed over page by page as they arrive, so no single
// copy of 200k listings ever blocks the event loop.
import { Worker } from 'node:worker_threads';
import type { StoreLocation } from '../store/open-content-store.ts';
import type { Listing, SupplierId } from '../types.ts';
import type { ContentBuildResult } from './build-content-version.ts';
import { assembleCellPyramid, type CellPyramid, type CellPyramidParts } from './cell-pyramid.ts';
import { stayIndexFromColumns, type StayIndex, type StayIndexColumns } from './stay-index.ts';

export type FeedReport = { ok: true; skipped: number } | { ok: false; error: string };

export type WorkerRequest =
  | { op: 'page'; job: number; supplier: SupplierId; listings: Listing[] }
  | { op: 'build'; job: number; feeds: Partial<Record<SupplierId, FeedReport>>; shrinkLimit: number }
  | { op: 'index'; job: number; no: number }
  | { op: 'close'; job: number };

export type WorkerReply =
  | { job: number; ok: true; result: ContentBuildResult }
  | { job: number; ok: true; index: { columns: StayIndexColumns; pyramid: CellPyramidParts } }
  | { job: number; ok: false; error: string };

export interface ContentWorker {
  /** A new job's id, to hand its pages to. */
  begin(): number;
  page(job: number, supplier: SupplierId, listings: Listing[]): void;
  /** Builds and publishes the version from the job's pages and the suppliers' outcomes. */
  build(job: number, feeds: Partial<Record<SupplierId, FeedReport>>, shrinkLimit: number): Promise<ContentBuildResult>;
  /** A published version's index and cell pyramid, built in the worker. */
  loadIndex(no: number): Promise<{ index: StayIndex; pyramid: CellPyramid }>;
  close(): Promise<void>;
}

/** `where`: the gateway's database, which the worker opens on a handle of its own. */
export function createContentWorker(options: { where: StoreLocation }): ContentWorker {
  let worker: Worker | null = null;
  let nextJob = 1;
  const waiting = new Map<number, { resolve: (reply: WorkerReply) => void; reject: (error: Error) => void }>();
  const start = (): Worker => {
    if (worker !== null) return worker;
    // The worker runs TypeScript: on Node 20 a worker inherits no module hooks, so it registers
    // tsx itself before importing its entry.
    const bootstrap = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(new URL('./content-worker.ts', import.meta.url).href)}); })`;
    const w = new Worker(bootstrap, { eval: true, workerData: { where: options.where } });
    w.unref(); // an idle worker never keeps the process alive
    w.on('message', (reply: WorkerReply) => {
      const entry = waiting.get(reply.job);
      waiting.delete(reply.job);
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
  const ask = (request: WorkerRequest): Promise<WorkerReply> => new Promise((resolve, reject) => {
    waiting.set(request.job, { resolve, reject });
    start().postMessage(request);
  });
  return {
    begin: () => nextJob++,
    page(job, supplier, listings) {
      start().postMessage({ op: 'page', job, supplier, listings } satisfies WorkerRequest);
    },
    async build(job, feeds, shrinkLimit) {
      const reply = await ask({ op: 'build', job, feeds, shrinkLimit });
      if (!reply.ok) throw new Error(reply.error);
      if (!('result' in reply)) throw new Error('the content worker answered a build with something else');
      return reply.result;
    },
    async loadIndex(no) {
      const reply = await ask({ op: 'index', job: nextJob++, no });
      if (!reply.ok) throw new Error(reply.error);
      if (!('index' in reply)) throw new Error('the content worker answered an index with something else');
      const index = stayIndexFromColumns(reply.index.columns);
      return { index, pyramid: assembleCellPyramid(index, reply.index.pyramid) };
    },
    async close() {
      const w = worker;
      if (w === null) return;
      worker = null;
      await new Promise<void>((resolve) => {
        w.once('exit', () => resolve());
        w.postMessage({ op: 'close', job: 0 } satisfies WorkerRequest);
        setTimeout(() => void w.terminate(), 2_000).unref();
      });
    },
  };
}
