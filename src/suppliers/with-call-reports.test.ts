import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callObserver } from './call-observer.ts';
import type { QuoteCall } from './quote-call.ts';
import { createSupplierAuth } from './supplier-auth.ts';
import { SupplierError } from './supplier-error.ts';
import type { QuoteRequest } from './supplier.ts';
import { withCallReports } from './with-call-reports.ts';

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
const open = () => new AbortController().signal;

describe('withCallReports', () => {
  it("tells each call's end (answered or its failure), the credentials' verdict, and the 429 waits met inside it", async () => {
    const ends: (string | null)[] = [];
    const waits: number[] = [];
    const auth = createSupplierAuth();
    const observer = {
      call: (_s: string, ms: number, failure: string | null) => {
        assert.ok(ms >= 0, `a duration: ${ms}`);
        ends.push(failure);
      },
      rateLimitWait: (_s: string, ms: number) => waits.push(ms),
    };
    const answering: QuoteCall = async () => {
      // What fetch-json does on a 429: tell the observer of the call running now.
      callObserver()?.rateLimitWait?.('supplier_a', 250);
      return new Map([['1', { available: false }]]);
    };
    await withCallReports(answering, 'supplier_a', { observer, auth })(REQUEST, open());
    assert.deepEqual(auth.state('supplier_a'), { auth: 'ok', error: null });
    const refusing: QuoteCall = async () => {
      throw new SupplierError('supplier_a', 'auth', 'auth: key refused');
    };
    await assert.rejects(withCallReports(refusing, 'supplier_a', { observer, auth })(REQUEST, open()), SupplierError);
    assert.deepEqual(auth.state('supplier_a'), { auth: 'failed', error: 'auth: key refused' });
    const broken: QuoteCall = async () => {
      throw new SupplierError('supplier_a', 'network', 'refused');
    };
    await assert.rejects(withCallReports(broken, 'supplier_a', { observer, auth })(REQUEST, open()), SupplierError);
    assert.deepEqual(ends, [null, 'auth', 'unreachable']);
    assert.deepEqual(waits, [250]);
    assert.equal(auth.state('supplier_a').auth, 'failed', 'a network failure says nothing of the credentials');
  });

  it('tells nothing of a call its caller gave up', async () => {
    const ends: (string | null)[] = [];
    const caller = new AbortController();
    const reason = new Error('client went away');
    caller.abort(reason);
    const call = withCallReports(
      async () => {
        throw reason;
      },
      'supplier_a',
      { observer: { call: (_s, _ms, failure) => ends.push(failure) } },
    );
    await assert.rejects(call(REQUEST, caller.signal), (error: unknown) => error === reason);
    assert.deepEqual(ends, []);
  });
});
