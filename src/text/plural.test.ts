import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { count } from './plural.ts';

describe('count', () => {
  it('one is singular; none, many and fractions are plural', () => {
    assert.equal(count(1, 'record'), '1 record');
    assert.equal(count(0, 'record'), '0 records');
    assert.equal(count(2, 'record'), '2 records');
    assert.equal(count(1.5, 'day'), '1.5 days');
    assert.equal(count(1, 'malformed or repeated record'), '1 malformed or repeated record');
  });

  it('takes the plural of a noun that does not end in -s', () => {
    assert.equal(count(1, 'property', 'properties'), '1 property');
    assert.equal(count(3, 'property', 'properties'), '3 properties');
  });
});
