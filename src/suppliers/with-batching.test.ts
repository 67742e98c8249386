// Every step here is driven by promises and explicit aborts, never by the wall clock.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { QuoteCall } from './quote-call.ts';
import { SupplierError } from './supplier-error.ts';
import type { Quote, QuoteRequest } from './supplier.ts';
import { BreakerOpenError } from './with-breaker.ts';
import { withBatching } from './with-batching.ts';

const REQUEST: QuoteRequest = {
  supplierStayIds: [],
  checkin: '2027-03-01',
  checkout: '2027-03-04',
  adults: 2,
  children: 0,
  childrenAges: null,
  rooms: 1,
  currency: 'USD',
};
const open = () => new AbortController().signal;
const price = (id: string): Quote => ({ available: true, total: Number(id), currency: 'USD' });
const ids = (n: number): string[] => Array.from({ length: n }, (_, i) => String(i + 1));
const budgetOver = () => new DOMException('the search budget is spent', 'TimeoutError');
/** Resolves once `condition` holds, looking after each turn of the event loop. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

/** A call held until `release()`d (or its signal aborts), recording the ids of each call. */
function heldCalls() {
  const calls: string[][] = [];
  const releases: (() => void)[] = [];
  const call: QuoteCall = (request) =>
    new Promise((resolve) => {
      calls.push(request.supplierStayIds);
      releases.push(() => resolve(new Map(request.supplierStayIds.map((id) => [id, price(id)]))));
    });
  return { call, calls, release: () => releases.shift()?.() };
}

describe('withBatching', () => {
  it('sends distinct ids in batches of at most the cap, at most `concurrency` at once, and answers every id in asked order', async () => {
    const held = heldCalls();
    const priced = withBatching(held.call, { maxIds: 2, concurrency: 2, onRefused: () => undefined });
    const pending = priced({ ...REQUEST, supplierStayIds: ['5', '4', '5', '3', '2', '1'] }, open());
    await until(() => held.calls.length === 2);
    assert.deepEqual(held.calls, [
      ['5', '4'],
      ['3', '2'],
    ]);
    held.release();
    await until(() => held.calls.length === 3);
    assert.deepEqual(held.calls[2], ['1'], 'the third batch went out once a slot came free');
    held.release();
    held.release();
    const outcome = await pending;
    assert.deepEqual([...outcome.quotes.keys()], ['5', '4', '3', '2', '1']);
    assert.deepEqual(outcome.quotes.get('3'), price('3'));
    assert.deepEqual([outcome.failure, outcome.asked], [null, true]);
  });

  it('fails only the failed batches, keeps the first failure met in time, and carries a refusal as `open`', async () => {
    const refused: number[] = [];
    const call: QuoteCall = async (request) => {
      if (request.supplierStayIds.includes('3')) throw new SupplierError('supplier_a', 'malformed', 'bad');
      if (request.supplierStayIds.includes('5')) throw new BreakerOpenError(7);
      return new Map(request.supplierStayIds.map((id) => [id, price(id)]));
    };
    const outcome = await withBatching(call, { maxIds: 2, concurrency: 1, onRefused: (n) => refused.push(n) })(
      { ...REQUEST, supplierStayIds: ids(6) },
      open(),
    );
    assert.deepEqual([...outcome.quotes.values()], [price('1'), price('2'), null, null, null, null]);
    assert.equal(outcome.failure, 'malformed');
    assert.equal('retryAfterMs' in outcome, false, 'the time until a trial comes with an `open` failure only');
    assert.deepEqual(refused, [2]);

    const shut = await withBatching(
      async () => {
        throw new BreakerOpenError(7);
      },
      { maxIds: 2, concurrency: 1, onRefused: () => undefined },
    )({ ...REQUEST, supplierStayIds: ids(1) }, open());
    assert.deepEqual(shut, { quotes: new Map([['1', null]]), failure: 'open', asked: false, retryAfterMs: 7 });
  });

  it('when the budget ends: a batch out is a `timeout`, one queued for a slot is `busy` and never sent', async () => {
    const held = heldCalls();
    const priced = withBatching(held.call, { maxIds: 1, concurrency: 1, onRefused: () => undefined });
    const budget = new AbortController();
    const pending = priced({ ...REQUEST, supplierStayIds: ids(1) }, budget.signal);
    await until(() => held.calls.length === 1);
    const queuedBudget = new AbortController();
    const queued = priced({ ...REQUEST, supplierStayIds: ['q'] }, queuedBudget.signal);
    queuedBudget.abort(budgetOver());
    budget.abort(budgetOver());
    assert.deepEqual(await pending, { quotes: new Map([['1', null]]), failure: 'timeout', asked: true });
    assert.deepEqual(await queued, { quotes: new Map([['q', null]]), failure: 'busy', asked: false });
    held.release();
    const next = priced({ ...REQUEST, supplierStayIds: ['next'] }, open());
    await until(() => held.calls.length === 2);
    held.release();
    await next;
    assert.deepEqual(held.calls, [['1'], ['next']], 'the queued batch was never sent: its turn passed to the next');
  });

  it("rejects with a cancelling caller's reason", async () => {
    const held = heldCalls();
    const caller = new AbortController();
    const reason = new Error('client went away');
    const pending = withBatching(held.call, { maxIds: 1, concurrency: 1, onRefused: () => undefined })(
      { ...REQUEST, supplierStayIds: ids(2) },
      caller.signal,
    );
    caller.abort(reason);
    await assert.rejects(pending, (error: unknown) => error === reason);
  });
});
