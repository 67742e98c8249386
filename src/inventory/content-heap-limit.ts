// The JavaScript heap a content pull and merge may grow to. V8 caps a heap at ~4 GB by default on
// a 64-bit machine, whatever the machine holds; a world of ~10M listings needs ~10 GB while it is
// pulled, merged and built (620 bytes a listing held, the stays built beside them: bench/README.md,
// issue 22), so the worker died with ERR_WORKER_OUT_OF_MEMORY and the refresh never landed. The peak
// lasts minutes of a refresh that comes hours apart; between refreshes the thread is closed
// (content-worker-client.ts), so a high cap costs nothing while nothing uses it.
import os from 'node:os';
import { getHeapStatistics } from 'node:v8';

/** The share of the memory the process may use that a content build may take. */
const CONTENT_HEAP_SHARE = 0.75;

/**
 * The heap limit (MB) for the content worker's thread, or the stages of a benchmark: three
 * quarters of the memory this process may use (the cgroup's limit when there is one, else the
 * machine's), never less than V8's own default, so a small machine keeps what it had.
 */
export function contentHeapLimitMb(memoryBytes = usableMemoryBytes(), defaultLimitBytes = getHeapStatistics().heap_size_limit): number {
  return Math.floor(Math.max(defaultLimitBytes, memoryBytes * CONTENT_HEAP_SHARE) / 2 ** 20);
}

/** The cgroup's memory limit when one is set (constrainedMemory: 0, or a huge number, when none), else the machine's memory. */
export function usableMemoryBytes(constrained = process.constrainedMemory?.() ?? 0, total = os.totalmem()): number {
  return constrained > 0 && constrained < total ? constrained : total;
}
