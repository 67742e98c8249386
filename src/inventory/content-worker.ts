// The content worker's thread: merging, building and writing a content version, and building a
// version's index and cell pyramid, all off the gateway's event loop (README, "Content refresh":
// /health answers within 250 ms at every moment of a refresh). content-worker-client.ts drives it.
import { parentPort, workerData } from 'node:worker_threads';
import { defaults } from '../defaults.ts';
import { openContentStore, type StoreLocation } from '../store/open-content-store.ts';
import type { Listing, SupplierId } from '../types.ts';
import { buildContentVersion, type FeedOutcome } from './build-content-version.ts';
import { cellPyramidParts } from './cell-pyramid.ts';
import { buildStayIndexColumns, stayIndexFromColumns } from './stay-index.ts';
import type { WorkerReply, WorkerRequest } from './content-worker-client.ts';

const port = parentPort!;
const store = openContentStore((workerData as { where: StoreLocation }).where);
const pages = new Map<number, Map<SupplierId, Listing[]>>();

/** Every typed array's buffer in a value, to transfer rather than copy. */
function buffersOf(value: unknown, into: Set<ArrayBuffer>): Set<ArrayBuffer> {
  if (ArrayBuffer.isView(value)) into.add(value.buffer as ArrayBuffer);
  else if (value instanceof ArrayBuffer) into.add(value);
  else if (Array.isArray(value)) for (const v of value) buffersOf(v, into);
  else if (typeof value === 'object' && value !== null) for (const v of Object.values(value)) buffersOf(v, into);
  return into;
}

port.on('message', (request: WorkerRequest) => {
  void handle(request).then(
    (reply) => {
      if (reply !== undefined) port.postMessage(reply, [...buffersOf(reply, new Set())]);
    },
    (error: unknown) => port.postMessage({ job: request.job, ok: false, error: (error as Error).message ?? String(error) } satisfies WorkerReply),
  );
});

async function handle(request: WorkerRequest): Promise<WorkerReply | undefined> {
  switch (request.op) {
    case 'page': {
      let byJob = pages.get(request.job);
      if (byJob === undefined) pages.set(request.job, byJob = new Map());
      const list = byJob.get(request.supplier);
      if (list === undefined) byJob.set(request.supplier, request.listings);
      else for (const l of request.listings) list.push(l);
      return undefined;
    }
    case 'build': {
      const byJob = pages.get(request.job) ?? new Map<SupplierId, Listing[]>();
      pages.delete(request.job);
      const feeds: Partial<Record<SupplierId, FeedOutcome>> = {};
      for (const [supplier, outcome] of Object.entries(request.feeds) as [SupplierId, { ok: boolean; skipped: number; error?: string }][]) {
        feeds[supplier] = outcome.ok ? { ok: true, listings: byJob.get(supplier) ?? [], skipped: outcome.skipped } : { ok: false, error: outcome.error ?? 'failed' };
      }
      const result = await buildContentVersion({ store, feeds, shrinkLimit: request.shrinkLimit });
      return { job: request.job, ok: true, result };
    }
    case 'index': {
      const columns = await buildStayIndexColumns(store.version(request.no).indexRows());
      const pyramid = cellPyramidParts(stayIndexFromColumns(columns), { maxResolution: defaults.clusterMaxResolution });
      return { job: request.job, ok: true, index: { columns, pyramid } };
    }
    case 'close':
      await store.close();
      process.exit(0);
  }
}
