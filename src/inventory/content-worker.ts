// The content worker's thread: pulling the suppliers' feeds, merging, building and writing a
// content version, and building a version's index and cell pyramid, all off the gateway's event
// loop (README, "Content refresh": /health answers within 250 ms at every moment of a refresh).
// content-worker-client.ts drives it. A refresh is one trip: the version is published and, when
// the gateway asks, its index built from its chunks read back, both sent back in one reply.
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { openContentStore } from '../store/open-content-store.ts';
import type { Store } from '../store/store.ts';
import type { Supplier, SupplierConfig } from '../suppliers/supplier.ts';
import type { Settings } from '../types.ts';
import type { ContentWorkerOptions, WorkerReply, WorkerRequest } from './content-worker-client.ts';
import { refreshContent } from './refresh-content.ts';
import { buildVersionIndexParts } from './version-index.ts';

const options = workerData as ContentWorkerOptions;
const { settings } = options;

// Searches first when the CPU is short (docs/decisions.md 67). On Linux a nice value is a
// thread's own, and 0 names the calling thread; elsewhere it would slow the whole process.
if (process.platform === 'linux') {
  try {
    setPriority(0, settings.contentWorkerNice);
  } catch {
    // Refused (a sandbox): the worker runs at the loop's priority, as it did before.
  }
}

const port = parentPort!;
// The worker's own handle on the gateway's content store (SQLite file or PostgreSQL), opened by
// the first job; a failed open (the database away) is tried again by the next job.
let opening: Promise<Store> | null = null;
const openStore = (): Promise<Store> => {
  opening ??= openContentStore(options.where, { settings }).catch((error: unknown) => {
    opening = null;
    throw error;
  });
  return opening;
};
let suppliers: Promise<readonly Supplier[]> | null = null;
/** The adapters, made here from the module the composition root named (they cannot be sent over). */
const feedSuppliers = (): Promise<readonly Supplier[]> => {
  const feeds = options.feeds;
  if (feeds === undefined) return Promise.reject(new Error('this content worker was started without feeds: it only loads indexes'));
  return (suppliers ??= import(feeds.module).then(
    (m: { createSuppliers(configs: readonly SupplierConfig[], settings: Settings): Supplier[] }) =>
      m.createSuppliers(feeds.configs, settings),
  ));
};

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
    (error: unknown) =>
      port.postMessage({ job: request.job, ok: false, error: (error as Error).message ?? String(error) } satisfies WorkerReply),
  );
});

async function handle(request: WorkerRequest): Promise<WorkerReply | undefined> {
  if (request.op === 'close') {
    await (await opening?.catch(() => null))?.close();
    process.exit(0);
  }
  const store = await openStore();
  switch (request.op) {
    case 'refresh': {
      const outcome = await refreshContent({
        suppliers: await feedSuppliers(),
        store,
        shrinkLimit: request.shrinkLimit,
        settings,
        only: request.only ?? undefined,
        pageSize: request.pageSize ?? undefined,
      });
      // The new version's index from its chunks read back, the pull's listings and stays let go
      // first: built beside them, at 10M stays a build marked ~10 GB of live objects at every
      // collection (575 s against the warm start's 33, docs/decisions.md 211). Null when nothing
      // new was published, or when the version is gone already (two more published meanwhile):
      // the gateway then loads what is current, held (version-swap.ts).
      const index =
        request.index && outcome.result !== null && !outcome.result.unchanged
          ? await buildVersionIndexParts(outcome.result.no, store.version(outcome.result.no).indexChunks(), settings).catch(() => null)
          : null;
      return { job: request.job, ok: true, refresh: outcome, index };
    }
    case 'index': {
      const index = await buildVersionIndexParts(request.no, store.version(request.no).indexChunks(), settings);
      return { job: request.job, ok: true, index };
    }
  }
}
