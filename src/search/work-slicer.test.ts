// The work slicer's order of turns (issue 25, item 11): heavy tasks one at a time, the event loop
// served between any two of them, and a search's own steps before the steps of searches that
// started after it. Slices of 0 ms (pause at every chance) or of an hour (never): the order is
// certain, not a matter of the machine's speed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createWorkSlicer } from './work-slicer.ts';

describe('work slicer', () => {
  it('runs heavy tasks one at a time', async () => {
    const one = createWorkSlicer({ sliceMs: 0 });
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 5 }, () =>
        one.run(async (pause) => {
          inside++;
          most = Math.max(most, inside);
          for (let i = 0; i < 5; i++) await pause();
          inside--;
        }),
      ),
    );
    assert.equal(most, 1);
  });

  it('lets the event loop run between two tasks, even tasks that never pause', async () => {
    // A slice of an hour: no task ever pauses. Before, the next task started in the same turn as
    // the last one ended, so a queue of short heavy steps held the loop for all of them.
    const slicer = createWorkSlicer({ sliceMs: 3_600_000 });
    const events: string[] = [];
    await Promise.all(
      ['a', 'b', 'c'].map((name) =>
        slicer.run(async () => {
          events.push(name);
          setImmediate(() => events.push(`loop after ${name}`));
        }),
      ),
    );
    assert.deepEqual(events, ['a', 'loop after a', 'b', 'loop after b', 'c']);
  });

  it("serves a search's later steps before the steps of searches that started after it", async () => {
    const slicer = createWorkSlicer({ sliceMs: 0 });
    const steps: string[] = [];
    /** A search of three heavy steps, each pausing a few times, with a cheap part between them. */
    const search = async (name: string) => {
      const own = slicer.session();
      for (let step = 1; step <= 3; step++) {
        await own.run(async (pause) => {
          for (let i = 0; i < 3; i++) await pause();
        });
        steps.push(`${name}${step}`);
      }
    };
    await Promise.all([search('a'), search('b'), search('c')]);
    // Before, each step queued behind every step already waiting: a1 b1 c1 a2 b2 c2 a3 b3 c3.
    assert.deepEqual(steps, ['a1', 'a2', 'a3', 'b1', 'b2', 'b3', 'c1', 'c2', 'c3']);
  });

  it('passes a task’s failure to its caller and goes on with the next', async () => {
    const slicer = createWorkSlicer({ sliceMs: 0 });
    const failing = slicer.run(async () => {
      throw new Error('broken step');
    });
    const next = slicer.run(async () => 'next ran');
    await assert.rejects(failing, /broken step/);
    assert.equal(await next, 'next ran');
  });
});
