import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nameKey } from './name-property.ts';
import { createRandom } from './random.ts';
import { varyName } from './vary-name.ts';

describe('varyName', () => {
  it('always returns a different, non-empty name', () => {
    const rng = createRandom(5);
    for (const name of ['Hotel Lumière', 'Rose & Crown', 'Ibis Paris Centre', 'The Savoy', 'Villa Luna', 'X']) {
      for (let i = 0; i < 200; i++) {
        const varied = varyName(name, 'Paris', rng);
        assert.notEqual(varied, name);
        assert.ok(varied.trim().length > 0, 'varied.trim().length > 0');
      }
    }
  });

  it('keeps the name recognisable: most of its words survive', () => {
    const rng = createRandom(6);
    for (let i = 0; i < 500; i++) {
      const name = 'Grand Hôtel de la Comète & Spa';
      const words = new Set(nameKey(name).split(' '));
      // nameKey folds case and accents, so only dropped words count as lost.
      const kept = nameKey(varyName(name, 'Lyon', rng))
        .split(' ')
        .filter((w) => words.has(w));
      assert.ok(kept.length >= words.size - 2, `${kept.join(' ')}`);
    }
  });

  it('produces each kind of variation', () => {
    const rng = createRandom(7);
    const seen = new Set(Array.from({ length: 400 }, () => varyName('Hôtel Rose & Crown', 'Nice', rng)));
    for (const expected of [
      'HÔTEL ROSE & CROWN',
      'hôtel rose & crown',
      'Rose & Crown Hotel',
      'Hôtel Rose & Crown Nice',
      'Hotel Rose & Crown',
      'Hôtel Rose and Crown',
      'Rose & Crown',
    ]) {
      assert.ok(seen.has(expected), `${expected} among ${[...seen].slice(0, 20).join(' | ')}`);
    }
  });
});
