// Under a burst only a supplier's own failures may count against its breaker (issue 13, defect 1).
// Every step here is driven by promises and explicit aborts, never by the wall clock.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCircuitBreaker, type BreakerState } from './circuit-breaker.ts';
import { createQuoteService } from './quote-service.ts';
import { defaults } from '../defaults.ts';
import { SupplierError } from './supplier-error.ts';
import type { Quote, QuoteRequest, Supplier } from './supplier.ts';

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
const budgetOver = () => new DOMException('the search budget is spent', 'TimeoutError');

/** A supplier whose calls hang until their signal aborts, then fail as the adapters do; `sent` resolves per call. */
function hangingSupplier(maxIdsPerQuote = 100) {
  const waiters: (() => void)[] = [];
  let calls = 0;
  const supplier: Supplier = {
    id: 'supplier_b',
    maxIdsPerQuote,
    contentPages: () => {
      throw new Error('not in these tests');
    },
    commissionReport: () => {
      throw new Error('not in these tests');
    },
    quote: (_request, signal) =>
      new Promise<Map<string, Quote>>((_resolve, reject) => {
        calls++;
        waiters.shift()?.();
        signal.addEventListener('abort', () => reject(new SupplierError('supplier_b', 'timeout', 'aborted')), { once: true });
      }),
  };
  return {
    supplier,
    calls: () => calls,
    /** Resolves when the next call goes out. */
    nextCall: () => new Promise<void>((resolve) => waiters.push(resolve)),
  };
}

describe('quote service under a burst', () => {
  it("a search's budget ending a call in flight before the call's own deadline is no failure of the supplier", async () => {
    const fake = hangingSupplier();
    const breaker = createCircuitBreaker({ failureThreshold: 2, openMs: defaults.breakerOpenMs, now: () => 0 });
    const service = createQuoteService({ supplier: fake.supplier, breaker, settings: { ...defaults, quoteCallTimeoutMs: 600_000 } });
    for (let i = 0; i < 4; i++) {
      const budget = new AbortController();
      const sent = fake.nextCall();
      const pending = service.quote({ ...REQUEST, supplierStayIds: [String(i)] }, budget.signal);
      await sent;
      budget.abort(budgetOver());
      const outcome = await pending;
      assert.equal(outcome.failure, 'timeout');
      assert.equal(outcome.quotes.get(String(i)), null);
    }
    assert.equal(breaker.state(), 'closed');
  });

  it('a batch whose budget ends while it waits for a slot is `busy`, never sent, and not counted', async () => {
    const fake = hangingSupplier(1);
    const transitions: BreakerState[] = [];
    const service = createQuoteService({
      supplier: fake.supplier,
      settings: { ...defaults, quoteConcurrency: 1, quoteCallTimeoutMs: 600_000, breakerFailureThreshold: 1 },
      onBreakerTransition: (to) => transitions.push(to),
    });
    const first = new AbortController();
    const sent = fake.nextCall();
    const holding = service.quote({ ...REQUEST, supplierStayIds: ['1'] }, first.signal);
    await sent;
    // Five searches queue behind the one holding the only slot; their budgets run out there.
    const queued = Array.from({ length: 5 }, (_, i) => {
      const budget = new AbortController();
      return { budget, outcome: service.quote({ ...REQUEST, supplierStayIds: [`q${i}`, `r${i}`] }, budget.signal) };
    });
    for (const q of queued) q.budget.abort(budgetOver());
    for (const q of queued) {
      const outcome = await q.outcome;
      assert.equal(outcome.failure, 'busy');
      assert.equal(outcome.asked, false);
      assert.deepEqual([...outcome.quotes.values()], [null, null]);
    }
    first.abort(budgetOver());
    await holding;
    assert.equal(fake.calls(), 1, 'the queued batches were never sent');
    assert.equal(service.breakerState(), 'closed');
    assert.deepEqual(transitions, []);
  });

  it("the call's own deadline is the supplier's failure, and each breaker transition is told with its cause", async () => {
    let t = 0;
    const told: string[] = [];
    const fake = hangingSupplier();
    const service = createQuoteService({
      supplier: fake.supplier,
      now: () => t,
      settings: { ...defaults, quoteCallTimeoutMs: 1, breakerFailureThreshold: 2, breakerOpenMs: 1_000 },
      onBreakerTransition: (to, cause) => told.push(`${to}: ${cause}`),
    });
    const ask = (id: string) => service.quote({ ...REQUEST, supplierStayIds: [id] }, new AbortController().signal);
    assert.equal((await ask('1')).failure, 'timeout');
    assert.equal((await ask('2')).failure, 'timeout');
    assert.equal(service.breakerState(), 'open');
    assert.equal((await ask('3')).failure, 'open');
    t += 1_000;
    await ask('4'); // the trial, which times out too
    assert.deepEqual(
      told.map((line) => line.split(':')[0]),
      ['open', 'half-open', 'open'],
    );
    assert.match(told[0], /2 consecutive failures, the last: .*aborted/);
    assert.match(told[2], /the trial call failed/);
  });
});
