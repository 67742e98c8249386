/** The first i in [lo, hi) with a[i] >= value (a ascending there), else hi: the pyramid's and its facets' searches. */
export function lowerBound(a: Uint32Array, value: number, lo = 0, hi = a.length): number {
  while (lo < hi) {
    const m = (lo + hi) >>> 1;
    if (a[m] < value) lo = m + 1;
    else hi = m;
  }
  return lo;
}
