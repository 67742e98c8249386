import type { RankedStay } from './store.ts';

/** Throws unless idx and rank each run 0..n-1 exactly once: the store addresses stays by idx and the index ranks by rank. */
export function checkDense(stays: readonly RankedStay[]): void {
  const n = stays.length;
  const seenIdx = new Uint8Array(n);
  const seenRank = new Uint8Array(n);
  for (const stay of stays) {
    if (!Number.isInteger(stay.idx) || stay.idx < 0 || stay.idx >= n || seenIdx[stay.idx]) {
      throw new Error(`publishContent: idx must be dense 0..${n - 1}, got ${stay.idx} (stay ${stay.id})`);
    }
    if (!Number.isInteger(stay.rank) || stay.rank < 0 || stay.rank >= n || seenRank[stay.rank]) {
      throw new Error(`publishContent: rank must be dense 0..${n - 1}, got ${stay.rank} (stay ${stay.id})`);
    }
    seenIdx[stay.idx] = 1;
    seenRank[stay.rank] = 1;
  }
}

/** The stays in idx order, once checked dense: the order every store writes a version in. */
export function denseByIdx(stays: readonly RankedStay[]): RankedStay[] {
  checkDense(stays);
  const byIdx: RankedStay[] = new Array(stays.length);
  for (const stay of stays) byIdx[stay.idx] = stay;
  return byIdx;
}
