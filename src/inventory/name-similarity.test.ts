import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createNameFeatures } from './name-similarity.ts';

const ADDRESS = '12 Rue Lafayette, Paris, FR';

function similarity(a: string, b: string, addressA = ADDRESS, addressB = ADDRESS): { name: number; address: number } {
  const features = createNameFeatures([
    { name: a, address: addressA },
    { name: b, address: addressB },
  ]);
  return { name: features.nameSimilarity(0, 1), address: features.addressSimilarity(0, 1) };
}

describe('name similarity', () => {
  it('ignores case, accents, punctuation, word order, generic words and the city', () => {
    for (const variant of ['HOTEL LUMIERE', 'Lumière Hotel', 'Hôtel Lumière - Paris', 'lumiere paris', 'The Lumière']) {
      assert.equal(similarity('Hôtel Lumière', variant).name, 1, variant);
    }
    assert.equal(similarity('Amber & Capitol', 'Amber and Capitol').name, 1);
  });

  it('scores a dropped word high, a different property low', () => {
    const dropped = similarity('Hotel Aurora Imperial', 'Hotel Aurora').name;
    assert.ok(dropped >= 0.5 && dropped < 1, `${dropped}`);
    assert.ok(similarity('Hotel Aurora', 'Sunrise Suites').name < 0.2, "similarity('Hotel Aurora', 'Sunrise Suites').name < 0.2");
    assert.ok(similarity('Bellavista', 'Bella Vista').name > 0.3, 'trigrams soften a split word');
  });

  it('compares the streets of addresses, however the feeds write them', () => {
    for (const variant of ['12 rue lafayette, PARIS, FR', 'R. Lafayette 12, Paris, FR', 'Rue Lafayette, Paris, FR']) {
      assert.equal(similarity('A', 'A', ADDRESS, variant).address, 1, variant);
    }
    assert.equal(similarity('A', 'A', ADDRESS, '80 Boulevard Voltaire, Paris, FR').address, 0, 'another street');
    assert.equal(similarity('A', 'A', ADDRESS, '14 Rue Lafayette, Paris, FR').address, 0, 'another door');
    assert.equal(similarity('A', 'A', ADDRESS, '12 Rue Lafayette Bis, Paris, FR').address, 2 / 3);
    assert.equal(similarity('A', 'A', ADDRESS, 'Paris, FR').address, 0.5, 'no street: no evidence');
  });

  it('falls back to the words themselves when a name is only generic words and city', () => {
    assert.equal(similarity('Hotel Paris', 'HOTEL PARIS').name, 1);
    assert.ok(similarity('Hotel Paris', 'Hotel Lyon').name < 0.5, "similarity('Hotel Paris', 'Hotel Lyon').name < 0.5");
  });
});
