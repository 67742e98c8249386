/**
 * The `count` best-ranked stays of `candidates` after skipping `offset`, best first.
 * `rank` gives each idx its global rank; `byRank` maps a rank back to its idx.
 * Small pages of big candidate sets are the common case (a map viewport, page 1 of 10), so a
 * bounded insertion buffer does O(n * k) with tiny k; deep pages fall back to a typed-array sort.
 */
export function selectByRank(
  candidates: readonly number[],
  rank: Uint32Array,
  byRank: Uint32Array,
  offset: number,
  count: number,
): number[] {
  const k = offset + count;
  if (k <= 0 || candidates.length === 0 || offset >= candidates.length) return [];
  let best: Uint32Array;
  if (k <= 64 && candidates.length > k * 4) {
    best = new Uint32Array(k);
    let filled = 0;
    for (const idx of candidates) {
      const r = rank[idx];
      if (filled === k && r >= best[k - 1]) continue;
      let i = filled < k ? filled++ : k - 1;
      while (i > 0 && best[i - 1] > r) {
        best[i] = best[i - 1];
        i--;
      }
      best[i] = r;
    }
    best = best.subarray(0, filled);
  } else {
    best = new Uint32Array(candidates.length);
    for (let i = 0; i < candidates.length; i++) best[i] = rank[candidates[i]];
    best.sort();
  }
  const end = Math.min(k, best.length);
  const out: number[] = [];
  for (let i = offset; i < end; i++) out.push(byRank[best[i]]);
  return out;
}
