import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { splitAddress } from './split-address.ts';

describe('splitAddress', () => {
  it('splits from the right, so a comma in the street survives', () => {
    assert.deepEqual(splitAddress('12 Rue Lafayette, Paris, FR'), { line1: '12 Rue Lafayette', city: 'Paris', countryCode: 'FR' });
    assert.deepEqual(splitAddress('3 Main Street, Unit 4, New York City, US'), {
      line1: '3 Main Street, Unit 4',
      city: 'New York City',
      countryCode: 'US',
    });
  });

  it('refuses a string that is not a canonical address', () => {
    assert.throws(() => splitAddress('Paris, FR'));
  });
});
