import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRandom, createWeightedPicker, hashToUnit } from './random.ts';

describe('createRandom', () => {
  it('repeats its sequence for a seed and differs between seeds', () => {
    const a = createRandom(42);
    const b = createRandom(42);
    const c = createRandom(43);
    const seqA = Array.from({ length: 20 }, () => a.next());
    assert.deepEqual(
      seqA,
      Array.from({ length: 20 }, () => b.next()),
    );
    assert.notDeepEqual(
      seqA,
      Array.from({ length: 20 }, () => c.next()),
    );
  });

  it('stays in range and is roughly uniform', () => {
    const rng = createRandom(1);
    const buckets = new Array<number>(10).fill(0);
    for (let i = 0; i < 100_000; i++) {
      const x = rng.next();
      assert.ok(x >= 0 && x < 1, 'x >= 0 && x < 1');
      buckets[Math.floor(x * 10)]++;
    }
    for (const n of buckets) assert.ok(n > 9_500 && n < 10_500, `${n}`);
    for (let i = 0; i < 10_000; i++) {
      const k = rng.int(3, 7);
      assert.ok(Number.isInteger(k) && k >= 3 && k <= 7, 'Number.isInteger(k) && k >= 3 && k <= 7');
    }
  });

  it('draws normal and exponential values with the asked mean', () => {
    const rng = createRandom(2);
    const n = 50_000;
    let normal = 0;
    let exponential = 0;
    for (let i = 0; i < n; i++) {
      normal += rng.normal(5, 2);
      exponential += rng.exponential(3);
    }
    assert.ok(Math.abs(normal / n - 5) < 0.05, 'Math.abs(normal / n - 5) < 0.05');
    assert.ok(Math.abs(exponential / n - 3) < 0.1, 'Math.abs(exponential / n - 3) < 0.1');
  });
});

describe('createWeightedPicker', () => {
  it('picks in proportion to weights and never a zero weight', () => {
    const pick = createWeightedPicker([
      ['a', 1],
      ['b', 3],
      ['z', 0],
    ] as const);
    const rng = createRandom(3);
    const counts: Record<string, number> = { a: 0, b: 0, z: 0 };
    for (let i = 0; i < 40_000; i++) counts[pick(rng)]++;
    assert.equal(counts.z, 0);
    assert.ok(Math.abs(counts.b / counts.a - 3) < 0.2, JSON.stringify(counts));
  });

  it('refuses a table without a positive weight', () => {
    assert.throws(() => createWeightedPicker([['a', 0]]), RangeError);
  });
});

describe('hashToUnit', () => {
  it('is a stable, roughly uniform function of its key', () => {
    assert.equal(hashToUnit('sold-out', 12, '2027-03-01'), hashToUnit('sold-out', 12, '2027-03-01'));
    assert.notEqual(hashToUnit('a', 1), hashToUnit('a', 2));
    // Parts are separated: ('ab', 'c') is not ('a', 'bc').
    assert.notEqual(hashToUnit('ab', 'c'), hashToUnit('a', 'bc'));
    const buckets = new Array<number>(10).fill(0);
    for (let i = 0; i < 50_000; i++) {
      const x = hashToUnit('k', i);
      assert.ok(x >= 0 && x < 1, 'x >= 0 && x < 1');
      buckets[Math.floor(x * 10)]++;
    }
    for (const n of buckets) assert.ok(n > 4_600 && n < 5_400, `${n}`);
  });
});
