// The JavaScript heap a simulator process needs for a world of `stays`: a plain-object world holds
// ~640 bytes a listing (~820 a stay at 1.28 listings a stay, bench/world-scale.ts and
// docs/decisions, issue 22), more while generating (each city's names and points) and once serving
// (the lookups and per-country indexes the routes build on first use). Node's default heap (~4 GB on
// a 64-bit machine) holds about 4M stays; a larger world is given what it needs by whoever forks the
// simulator, rather than dying three minutes in. A columnar world is the lasting fix (README).
import { getHeapStatistics } from 'node:v8';

/** Heap bytes asked per stay: the ~820 a stay held, with headroom for generation and serving. */
export const SIM_HEAP_BYTES_PER_STAY = 1_200;
/** Asked on top, for the gazetteer of cities, code and the servers. */
const SIM_HEAP_BASE_MB = 1_024;

/**
 * `--max-old-space-size` (MB) for a simulator of `stays`, or null when the default heap (this
 * process's own limit, the same machine's default) is enough: the default world forks as before.
 */
export function simHeapLimitMb(stays: number, defaultLimitBytes = getHeapStatistics().heap_size_limit): number | null {
  const mb = Math.ceil((stays * SIM_HEAP_BYTES_PER_STAY) / 2 ** 20) + SIM_HEAP_BASE_MB;
  return mb * 2 ** 20 > defaultLimitBytes ? mb : null;
}
