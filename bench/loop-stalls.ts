// The event loop's stalls split in two: how long a timer was late (what monitorEventLoopDelay
// sees), and how much of that the thread could not run because every CPU was busy with other
// threads and processes (its run-queue wait in /proc/<pid>/task/<tid>/schedstat, Linux). What is
// left, the "own" stall, is the loop held by this process's code (on a CPU or blocked in a call).
// On the shared 2-core machine the benchmarks run on, other work makes the late-timer figure swing
// by 100+ ms from one run to the next; the own figure says whether a stall is ours to fix.
import { readFileSync } from 'node:fs';

export interface Stall {
  /** How late a 5 ms timer fired. */
  lateMs: number;
  /** Of that, time the thread waited for a CPU. */
  waitMs: number;
}

export interface StallWatch {
  /** Starts over (the longest stalls since now). */
  reset(): void;
  /** The stall with the longest lateness, and the longest own stall (late minus waiting for a CPU); own is null off Linux. */
  longest(): { late: Stall; ownMs: number | null };
  stop(): void;
}

/** Run-queue wait of the main thread so far, in ms (schedstat's 2nd field, ns); null where there is none. */
function runQueueWaitMs(): number | null {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[1]) / 1e6;
  } catch {
    return null;
  }
}

export function watchStalls(intervalMs = 5): StallWatch {
  let late: Stall = { lateMs: 0, waitMs: 0 };
  let own: number | null = runQueueWaitMs() === null ? null : 0;
  let lastAt = performance.now();
  let lastWait = runQueueWaitMs() ?? 0;
  const timer = setInterval(() => {
    const at = performance.now();
    const wait = runQueueWaitMs() ?? 0;
    const lateMs = Math.max(0, at - lastAt - intervalMs);
    const waitMs = wait - lastWait;
    if (lateMs > late.lateMs) late = { lateMs, waitMs };
    if (own !== null) own = Math.max(own, lateMs - waitMs);
    lastAt = at;
    lastWait = wait;
  }, intervalMs);
  timer.unref();
  return {
    reset() {
      late = { lateMs: 0, waitMs: 0 };
      own = own === null ? null : 0;
    },
    longest: () => ({ late, ownMs: own }),
    stop: () => clearInterval(timer),
  };
}
