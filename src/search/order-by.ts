/**
 * Positions 0..n-1 ordered by the integer `key(i)`, ties in position order. Sorted as numbers,
 * key and position packed in one: a comparator over the cells took a fifth of a clustered
 * search. In a Uint32Array when they fit (it sorts three times faster than a Float64Array), else
 * in a double (exact below 2^53), else, for huge spans, by a comparator after all.
 */
export function orderBy(n: number, key: (i: number) => number): ArrayLike<number> {
  const keys = new Float64Array(n);
  let min = Infinity,
    max = -Infinity;
  for (let i = 0; i < n; i++) {
    const k = (keys[i] = key(i));
    if (k < min) min = k;
    if (k > max) max = k;
  }
  const span = max - min + 1;
  if (span * n <= 2 ** 32) {
    const packed = new Uint32Array(n);
    for (let i = 0; i < n; i++) packed[i] = (keys[i] - min) * n + i;
    packed.sort();
    for (let i = 0; i < n; i++) packed[i] %= n;
    return packed;
  }
  if (span * n <= 2 ** 53) {
    for (let i = 0; i < n; i++) keys[i] = (keys[i] - min) * n + i;
    keys.sort();
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = keys[i] % n;
    return order;
  }
  return Array.from({ length: n }, (_, i) => i).sort((a, b) => keys[a] - keys[b] || a - b);
}
