// A small seeded PRNG: the simulated world must be the same for the same seed on every machine,
// so nothing in sim/ may use Math.random.

export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** Uniform in [min, max). */
  float(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Gaussian (Box-Muller). */
  normal(mean: number, sd: number): number;
  exponential(mean: number): number;
}

/** splitmix32: spreads a small integer seed over the 128 bits sfc32 needs. */
function splitmix32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** sfc32: fast, passes PractRand to 2^41+, and unlike mulberry32 has a 128-bit state. */
export function createRandom(seed: number): Random {
  const init = splitmix32(Math.trunc(seed) | 0);
  let a = init();
  let b = init();
  let c = init();
  let d = init();
  const next = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  // Warm up: the first outputs of sfc32 still correlate with the seed.
  for (let i = 0; i < 12; i++) next();

  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    float: (min, max) => min + next() * (max - min),
    chance: (probability) => next() < probability,
    pick: (items) => items[Math.floor(next() * items.length)],
    normal: (mean, sd) => {
      const u = 1 - next(); // (0, 1]: log(0) would be -Infinity
      return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
    },
    exponential: (mean) => -mean * Math.log(1 - next()),
  };
}

/** Picks among entries in proportion to their weights; builds the cumulative table once. */
export function createWeightedPicker<T>(entries: readonly (readonly [T, number])[]): (rng: Random) => T {
  const values = entries.filter(([, w]) => w > 0).map(([v]) => v);
  const cumulative: number[] = [];
  let total = 0;
  for (const [, w] of entries) {
    if (w > 0) cumulative.push((total += w));
  }
  if (values.length === 0) throw new RangeError('createWeightedPicker: no entry has a positive weight');
  return (rng) => {
    const x = rng.next() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] > x) hi = mid;
      else lo = mid + 1;
    }
    return values[lo];
  };
}

/**
 * A uniform value in [0, 1) from a key: for properties of the world that must not depend on the
 * order of calls (a city's price level, whether a stay is sold out on a date), where a PRNG stream
 * would. FNV-1a over the key, then murmur3's finaliser to spread nearby keys apart.
 */
export function hashToUnit(...parts: readonly (string | number)[]): number {
  const text = parts.join('\u0001');
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}
