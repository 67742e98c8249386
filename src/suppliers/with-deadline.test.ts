import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { QuoteCall } from './quote-call.ts';
import { SupplierError } from './supplier-error.ts';
import type { QuoteRequest } from './supplier.ts';
import { withDeadline } from './with-deadline.ts';

const REQUEST: QuoteRequest = {
  supplierStayIds: ['1'],
  checkin: '2027-03-01',
  checkout: '2027-03-04',
  adults: 2,
  children: 0,
  childrenAges: null,
  rooms: 1,
  currency: 'USD',
};

/** A call that never answers, and fails as the drivers do when its signal aborts: any TimeoutError is a `timeout`. */
const hanging: QuoteCall = (_request, signal) =>
  new Promise((_resolve, reject) =>
    signal.addEventListener('abort', () =>
      reject(
        signal.reason instanceof DOMException && signal.reason.name === 'TimeoutError'
          ? new SupplierError('supplier_a', 'timeout', 'no answer in time')
          : signal.reason,
      ),
    ),
  );

describe('withDeadline', () => {
  it("ends a call at its own deadline: the driver's `timeout` stands, the supplier's failure", async () => {
    await assert.rejects(
      withDeadline(hanging, 1)(REQUEST, new AbortController().signal),
      (error: unknown) => error instanceof SupplierError && error.kind === 'timeout',
    );
  });

  it("rejects with the caller's own reason when the caller's budget ends the call first, not with the driver's timeout", async () => {
    const budget = new AbortController();
    const reason = new DOMException('the search budget is spent', 'TimeoutError');
    const pending = withDeadline(hanging, 600_000)(REQUEST, budget.signal);
    budget.abort(reason);
    await assert.rejects(pending, (error: unknown) => error === reason);
  });

  it('passes the answer through, and refuses a deadline that is no duration', async () => {
    const answer = new Map([['1', { available: false } as const]]);
    assert.equal(await withDeadline(async () => answer, 1_000)(REQUEST, new AbortController().signal), answer);
    assert.throws(() => withDeadline(hanging, 0), RangeError);
    assert.throws(() => withDeadline(hanging, Number.NaN), RangeError);
  });
});
