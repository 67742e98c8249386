import pLimit from 'p-limit';

/** Offered by a long loop now and then: a promise to await when the loop's time slice is spent. */
export type Pause = () => Promise<void> | undefined;

export interface WorkSlicer {
  /**
   * Runs a CPU-heavy task that calls `pause()` every few hundred steps. Tasks run one at a time
   * (a burst of them queues here without CPU), and a task gives the event loop back whenever it
   * has held it for `sliceMs`: however many heavy requests arrive at once, the loop is never held
   * much longer than one slice, so health checks and cheap searches keep being answered.
   */
  run<T>(task: (pause: Pause) => Promise<T>): Promise<T>;
}

export function createWorkSlicer(options: { sliceMs: number }): WorkSlicer {
  const oneAtATime = pLimit(1);
  return {
    run: (task) =>
      oneAtATime(() => {
        let since = performance.now();
        const resume = () => {
          since = performance.now();
        };
        return task(() => {
          if (performance.now() - since < options.sliceMs) return undefined;
          return new Promise<void>((resolve) => setImmediate(resolve)).then(resume);
        });
      }),
  };
}
