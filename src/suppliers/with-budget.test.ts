import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PriceCall } from './quote-call.ts';
import type { QuoteRequest } from './supplier.ts';
import { withinBudget } from './with-budget.ts';

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

describe('withinBudget', () => {
  let calls = 0;
  const priced: PriceCall = async (request) => {
    calls++;
    return { quotes: new Map(request.supplierStayIds.map((id) => [id, { available: false }])), failure: null, asked: true };
  };

  it('asks nobody once the budget is spent: a timeout for every id', async () => {
    const outcome = await withinBudget(priced)(REQUEST, AbortSignal.abort(new DOMException('late', 'TimeoutError')));
    assert.deepEqual(outcome, {
      quotes: new Map([
        ['1', null],
        ['2', null],
      ]),
      failure: 'timeout',
      asked: false,
    });
    assert.equal(calls, 0);
  });

  it("rejects with a cancelling caller's reason, without asking", async () => {
    const reason = new Error('client went away');
    await assert.rejects(withinBudget(priced)(REQUEST, AbortSignal.abort(reason)), (error: unknown) => error === reason);
    assert.equal(calls, 0);
  });

  it('prices as asked while the budget lasts', async () => {
    const outcome = await withinBudget(priced)(REQUEST, new AbortController().signal);
    assert.equal(outcome.asked, true);
    assert.equal(calls, 1);
  });
});
