import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Stay } from '../types.ts';
import { createStayCache } from './stay-cache.ts';

/** A store of stays 0..size-1 that records every getStays call. */
function countingStore(size: number) {
  const calls: number[][] = [];
  return {
    calls,
    async getStays(idxs: readonly number[]): Promise<Stay[]> {
      calls.push([...idxs]);
      return idxs.filter((idx) => idx >= 0 && idx < size).map((idx) => ({ idx, id: `st${idx}` }) as unknown as Stay);
    },
  };
}

describe('stay cache', () => {
  it('answers in the order asked, skips unknown idx, and reads only what it does not hold, in one call', async () => {
    const store = countingStore(100);
    const cache = createStayCache(store, { capacity: 10 });
    assert.deepEqual(
      (await cache.get([3, 1, 999, 2])).map((s) => s.idx),
      [3, 1, 2],
    );
    assert.deepEqual(store.calls, [[3, 1, 999, 2]]);
    assert.deepEqual(
      (await cache.get([2, 4, 3, 4])).map((s) => s.idx),
      [2, 4, 3, 4],
      'a repeated idx comes back each time',
    );
    assert.deepEqual(store.calls[1], [4], 'only the stay not held is read, once');
    const first = (await cache.get([1]))[0];
    assert.equal((await cache.get([1]))[0], first, 'the same object while held');
    assert.equal(store.calls.length, 2);
  });

  it('holds at most `capacity` stays, dropping the least recently used', async () => {
    const store = countingStore(100);
    const cache = createStayCache(store, { capacity: 3 });
    await cache.get([0, 1, 2]);
    await cache.get([0]); // 0 is now more recent than 1 and 2
    await cache.get([5]); // evicts 1, the least recently used
    store.calls.length = 0;
    await cache.get([0, 2, 5]);
    assert.deepEqual(store.calls, [], '0, 2 and 5 are held');
    await cache.get([1]);
    assert.deepEqual(store.calls, [[1]], '1 was dropped');
  });

  it('returns a page larger than its capacity whole', async () => {
    const store = countingStore(100);
    const cache = createStayCache(store, { capacity: 2 });
    assert.deepEqual(
      (await cache.get([9, 8, 7, 6])).map((s) => s.idx),
      [9, 8, 7, 6],
    );
  });
});
