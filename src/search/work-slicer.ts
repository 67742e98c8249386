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
  /**
   * The slicer for one search: its tasks go before the tasks of searches that started after it,
   * so a burst of heavy searches is served one search after another rather than one step of each
   * in turn. Each then holds its lists of candidates for its own duration only, not for the
   * whole burst's (20 whole-world searches at once held 20 times the memory, and the garbage
   * collector's pauses grew with it), and the first answers come first.
   */
  session(): WorkSlicer;
}

interface Queued {
  /** The search's start order (a task outside any session: its own). */
  ticket: number;
  start: () => void;
}

export function createWorkSlicer(options: { sliceMs: number }): WorkSlicer {
  const { sliceMs } = options;
  let tickets = 0;
  /** Waiting tasks by ticket, first come first within one (a session's tasks come one at a time). */
  const queue: Queued[] = [];
  let running = false;

  /**
   * The next task starts after the event loop has had a turn: a task's end is not a pause, and
   * without this, tasks shorter than a slice (or the last slice of one and the first of the next)
   * ran back to back without the loop seeing any I/O in between.
   */
  const next = () => {
    setImmediate(() => {
      const task = queue.shift();
      if (task === undefined) running = false;
      else task.start();
    });
  };

  function run<T>(ticket: number, task: (pause: Pause) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        let since = performance.now();
        const resume = () => {
          since = performance.now();
        };
        const pause: Pause = () => {
          if (performance.now() - since < sliceMs) return undefined;
          return new Promise<void>((done) => setImmediate(done)).then(resume);
        };
        // The task's caller continues first (its next step is queued before the next task is chosen).
        void (async () => task(pause))().then(resolve, reject).finally(next);
      };
      let at = queue.length;
      while (at > 0 && queue[at - 1].ticket > ticket) at--;
      queue.splice(at, 0, { ticket, start });
      if (!running) {
        running = true;
        next();
      }
    });
  }

  return {
    run: (task) => run(tickets++, task),
    session() {
      const ticket = tickets++;
      const own: WorkSlicer = { run: (task) => run(ticket, task), session: () => own };
      return own;
    },
  };
}
