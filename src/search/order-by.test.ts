import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { orderBy } from './order-by.ts';

/** What orderBy must give: positions by key, ties by position. */
const expected = (keys: number[]) => keys.map((_, i) => i).sort((a, b) => keys[a] - keys[b] || a - b);
const order = (keys: number[]) => Array.from(orderBy(keys.length, (i) => keys[i]));

describe('orderBy', () => {
  it('orders positions by key, ties in position order, negative keys too', () => {
    const keys = [5, -3, 5, 0, -3, 7, 0, 5];
    assert.deepEqual(order(keys), expected(keys));
    assert.deepEqual(order([]), []);
  });

  it('gives the same order when key and position no longer fit 32 bits, nor 53', () => {
    const wide = [2 ** 31, 0, 2 ** 31, 12, 0]; // span x n above 2^32: packed in doubles
    assert.deepEqual(order(wide), expected(wide));
    const huge = [2 ** 52, -(2 ** 52), 0, 2 ** 52]; // above 2^53: by a comparator
    assert.deepEqual(order(huge), expected(huge));
  });
});
