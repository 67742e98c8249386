import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCircuitBreaker } from './circuit-breaker.ts';
import type { PriceCall, QuoteCall } from './quote-call.ts';
import { SupplierError, type SupplierErrorKind } from './supplier-error.ts';
import type { QuoteRequest } from './supplier.ts';
import { BreakerOpenError, refuseWhileOpen, withBreaker } from './with-breaker.ts';

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
const open = () => new AbortController().signal;
const failing =
  (kind: SupplierErrorKind): QuoteCall =>
  async () => {
    throw new SupplierError('supplier_a', kind, `simulated ${kind}`);
  };
const answering: QuoteCall = async (request) => new Map(request.supplierStayIds.map((id) => [id, { available: false }]));
const breakerAt = (t: { now: number }, failureThreshold = 1) => createCircuitBreaker({ failureThreshold, openMs: 1_000, now: () => t.now });

describe('withBreaker', () => {
  it("counts the supplier's failures, and once open refuses with BreakerOpenError, making no call", async () => {
    const t = { now: 0 };
    const breaker = breakerAt(t, 2);
    let calls = 0;
    const call = withBreaker(async (request, signal) => {
      calls++;
      return failing('http')(request, signal);
    }, breaker);
    for (let i = 0; i < 2; i++) await assert.rejects(call(REQUEST, open()), SupplierError);
    assert.equal(breaker.state(), 'open');
    t.now += 400;
    await assert.rejects(call(REQUEST, open()), (error: unknown) => error instanceof BreakerOpenError && error.retryAfterMs === 600);
    assert.equal(calls, 2);
  });

  it('a refused credential, a rate limit and a caller that gave up are no verdict: a half-open trial is freed', async () => {
    const t = { now: 0 };
    const breaker = breakerAt(t);
    await assert.rejects(withBreaker(failing('network'), breaker)(REQUEST, open()));
    t.now += 1_000;
    for (const kind of ['auth', 'rate_limited'] as const) {
      await assert.rejects(withBreaker(failing(kind), breaker)(REQUEST, open()), SupplierError);
      assert.equal(breaker.state(), 'half-open', kind);
    }
    const caller = new AbortController();
    const reason = new Error('client went away');
    caller.abort(reason);
    await assert.rejects(
      withBreaker(async () => {
        throw reason;
      }, breaker)(REQUEST, caller.signal),
      (error: unknown) => error === reason,
    );
    assert.equal(breaker.state(), 'half-open');
    await withBreaker(answering, breaker)(REQUEST, open());
    assert.equal(breaker.state(), 'closed', 'the next call was the trial, and it closed the breaker');
  });

  it("counts a driver's bug (not a SupplierError) as a failure", async () => {
    const breaker = breakerAt({ now: 0 });
    await assert.rejects(
      withBreaker(async () => {
        throw new TypeError('a bug');
      }, breaker)(REQUEST, open()),
      TypeError,
    );
    assert.equal(breaker.state(), 'open');
  });
});

describe('refuseWhileOpen', () => {
  it('refuses every id at once while open, with the time until a trial; asks as usual otherwise', async () => {
    const t = { now: 0 };
    const breaker = breakerAt(t);
    let calls = 0;
    const priced: PriceCall = async (request) => {
      calls++;
      return { quotes: new Map(request.supplierStayIds.map((id) => [id, { available: false }])), failure: null, asked: true };
    };
    const refused: number[] = [];
    const guarded = refuseWhileOpen(priced, breaker, (ids) => refused.push(ids));
    assert.equal((await guarded(REQUEST, open())).asked, true);
    breaker.failure('down');
    t.now += 250;
    assert.deepEqual(await guarded(REQUEST, open()), {
      quotes: new Map([
        ['1', null],
        ['2', null],
      ]),
      failure: 'open',
      asked: false,
      retryAfterMs: 750,
    });
    assert.deepEqual(refused, [2]);
    assert.equal(calls, 1);
  });
});
