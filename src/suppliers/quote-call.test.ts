import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { failureOf, gaveUp, withEveryIdAnswered } from './quote-call.ts';
import { SupplierError } from './supplier-error.ts';
import type { QuoteRequest } from './supplier.ts';

const REQUEST: QuoteRequest = {
  supplierStayIds: ['1', '2'],
  checkin: '2027-03-01',
  checkout: '2027-03-04',
  adults: 2,
  children: 0,
  childrenAges: null,
  rooms: 1,
  currency: 'USD',
};

describe('the quote call', () => {
  it('answers an id the driver left out as not available, and drops ids nobody asked for', async () => {
    const call = withEveryIdAnswered(
      async () =>
        new Map([
          ['1', { available: true, total: 10, currency: 'USD' }],
          ['9', { available: true, total: 90, currency: 'USD' }],
        ] as const),
    );
    assert.deepEqual(
      [...(await call(REQUEST, new AbortController().signal))],
      [
        ['1', { available: true, total: 10, currency: 'USD' }],
        ['2', { available: false }],
      ],
    );
  });

  it("names a SupplierError's failure by its kind, anything else `error`; a caller gave up only with its own reason", () => {
    assert.equal(failureOf(new SupplierError('supplier_a', 'network', 'refused')), 'unreachable');
    assert.equal(failureOf(new SupplierError('supplier_a', 'http', 'HTTP 500')), 'error');
    assert.equal(failureOf(new TypeError('a bug')), 'error');
    const reason = new Error('client went away');
    assert.equal(gaveUp(reason, AbortSignal.abort(reason)), true);
    assert.equal(gaveUp(new Error('another'), AbortSignal.abort(reason)), false);
    assert.equal(gaveUp(reason, new AbortController().signal), false);
  });
});
