import assert from 'node:assert/strict';
import { test } from 'node:test';
import { selectByRank } from './select-by-rank.ts';

// 1,000 stays with a shuffled ranking; the reference answer is a plain sort.
const n = 1000;
const rank = new Uint32Array(n);
const order = Array.from({ length: n }, (_, i) => i);
for (let i = n - 1; i > 0; i--) {
  const j = (i * 7919) % (i + 1);
  [order[i], order[j]] = [order[j], order[i]];
}
order.forEach((idx, r) => {
  rank[idx] = r;
});
const byRank = new Uint32Array(n);
for (let i = 0; i < n; i++) byRank[rank[i]] = i;

function reference(candidates: number[], offset: number, count: number): number[] {
  return [...candidates].sort((a, b) => rank[a] - rank[b]).slice(offset, offset + count);
}

test('selectByRank returns the best-ranked page for small and deep pages alike', () => {
  const candidates = Array.from({ length: 600 }, (_, i) => (i * 13) % n);
  for (const [offset, count] of [
    [0, 10],
    [10, 10],
    [0, 1],
    [50, 14],
    [300, 100],
    [590, 20],
    [600, 10],
  ]) {
    assert.deepEqual(
      selectByRank(candidates, rank, byRank, offset, count),
      reference(candidates, offset, count),
      `offset ${offset} count ${count}`,
    );
  }
});

test('selectByRank handles empty and tiny candidate sets', () => {
  assert.deepEqual(selectByRank([], rank, byRank, 0, 10), []);
  assert.deepEqual(selectByRank([5, 3], rank, byRank, 0, 10), reference([5, 3], 0, 10));
});
