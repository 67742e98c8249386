import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SupplierId } from '../types.ts';
import { createCircuitBreaker } from './circuit-breaker.ts';
import { fetchJson } from './fetch-json.ts';
import { startFixtureServer, type FixtureResponse, type FixtureServer } from '../test-support/fixture-server.ts';
import { createQuoteService, type QuoteSettings } from './quote-service.ts';
import { createHotelbedsDriver } from './hotelbeds.ts';
import { createExpediaRapidDriver } from './expedia-rapid.ts';
import { createSupplierAuth } from './supplier-auth.ts';
import { SupplierError, type SupplierErrorKind } from './supplier-error.ts';
import type { Quote, QuoteRequest, Supplier } from './supplier.ts';
import { testSupplierConfig } from '../test-support/supplier-config.ts';
import { defaults } from '../defaults.ts';

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
const ids = (n: number, from = 1): string[] => Array.from({ length: n }, (_, i) => String(from + i));
/** The service's figures: defaults.ts', these changed. */
const figures = (changed: Partial<QuoteSettings> = {}): QuoteSettings => ({ ...defaults, ...changed });
const price = (id: string): Quote => ({ available: true, total: Number(id), currency: 'USD' });

function clock(): { now: () => number; advance: (ms: number) => void } {
  let t = 1_000_000;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
  };
}

type Behaviour = (ids: string[], signal: AbortSignal) => Promise<Map<string, Quote>>;

interface FakeSupplier {
  supplier: Supplier;
  /** The ids of every call made, in order. */
  calls: string[][];
  maxInFlight: number;
  behaviour: Behaviour;
}

/** An in-memory Supplier: the service is tested against the interface, the adapters over HTTP. */
function fakeSupplier(maxIdsPerQuote = 100, id: SupplierId = 'supplier_a'): FakeSupplier {
  let inFlight = 0;
  const fake: FakeSupplier = {
    calls: [],
    maxInFlight: 0,
    /** Default: every id priced at its own number, at once. */
    behaviour: async (asked) => new Map(asked.map((x) => [x, price(x)])),
    supplier: {
      id,
      maxIdsPerQuote,
      contentPages: () => {
        throw new Error('not in these tests');
      },
      commissionReport: () => {
        throw new Error('not in these tests');
      },
      quote: async (request: QuoteRequest, signal: AbortSignal): Promise<Map<string, Quote>> => {
        fake.calls.push(request.supplierStayIds);
        inFlight++;
        fake.maxInFlight = Math.max(fake.maxInFlight, inFlight);
        try {
          return await fake.behaviour(request.supplierStayIds, signal);
        } finally {
          inFlight--;
        }
      },
    },
  };
  return fake;
}

const failWith =
  (kind: SupplierErrorKind): Behaviour =>
  async () => {
    throw new SupplierError('supplier_a', kind, `simulated ${kind}`);
  };
/** Answers after `ms`, or fails as the adapters do when the signal aborts first. */
const slow =
  (ms: number): Behaviour =>
  async (asked, signal) => {
    try {
      await sleep(ms, undefined, { signal });
    } catch {
      if (signal.reason instanceof DOMException && signal.reason.name === 'TimeoutError')
        throw new SupplierError('supplier_a', 'timeout', 'late');
      throw signal.reason;
    }
    return new Map(asked.map((x) => [x, price(x)]));
  };

describe('quote service', () => {
  it('dedupes, batches to the cap and answers every asked id in asked order', async () => {
    const fake = fakeSupplier(50);
    const service = createQuoteService({ supplier: fake.supplier, settings: figures(), now: clock().now });
    const asked = [...ids(120), '7', '8'];
    const outcome = await service.quote({ ...REQUEST, supplierStayIds: asked }, AbortSignal.timeout(5_000));
    assert.deepEqual(
      fake.calls.map((call) => call.length),
      [50, 50, 20],
    );
    assert.deepEqual([...outcome.quotes.keys()], ids(120));
    assert.deepEqual(outcome.quotes.get('120'), price('120'));
    assert.equal(outcome.failure, null);
    assert.equal(outcome.asked, true);
    assert.equal(outcome.supplier, 'supplier_a');
    assert.equal('retryAfterMs' in outcome, false);
  });

  it('answers an id the adapter left out of its map as not available', async () => {
    const fake = fakeSupplier();
    fake.behaviour = async () => new Map([['1', price('1')]]);
    const outcome = await createQuoteService({ supplier: fake.supplier, settings: figures() }).quote(
      { ...REQUEST, supplierStayIds: ['1', '2'] },
      AbortSignal.timeout(5_000),
    );
    assert.deepEqual(outcome.quotes.get('2'), { available: false });
  });

  it('keeps at most `concurrency` calls in flight, across concurrent searches', async () => {
    const fake = fakeSupplier(10);
    fake.behaviour = slow(20);
    const service = createQuoteService({ supplier: fake.supplier, settings: figures({ quoteConcurrency: 2 }) });
    const [first, second] = await Promise.all([
      service.quote({ ...REQUEST, supplierStayIds: ids(50) }, AbortSignal.timeout(5_000)),
      service.quote({ ...REQUEST, supplierStayIds: ids(30, 1_000) }, AbortSignal.timeout(5_000)),
    ]);
    assert.equal(fake.calls.length, 8);
    assert.equal(fake.maxInFlight, 2);
    assert.equal(first.failure, null);
    assert.equal(second.failure, null);
    assert.equal([...first.quotes.values()].filter((q) => q === null).length, 0);
  });

  it('gives every call its own deadline on top of the caller signal', async () => {
    const fake = fakeSupplier();
    fake.behaviour = slow(5_000);
    const service = createQuoteService({ supplier: fake.supplier, settings: figures({ quoteCallTimeoutMs: 50 }) });
    // The call's deadline, not the caller's 10 s, ended it: a timeout. How soon: bench/timings.ts.
    const outcome = await service.quote({ ...REQUEST, supplierStayIds: ['1'] }, AbortSignal.timeout(10_000));
    assert.equal(outcome.failure, 'timeout');
    assert.equal(outcome.quotes.get('1'), null);
  });

  it('maps adapter failures to null quotes and failure kinds, and never caches a failure', async () => {
    const cases: Array<[SupplierErrorKind, string]> = [
      ['http', 'error'],
      ['network', 'unreachable'],
      ['malformed', 'malformed'],
      ['timeout', 'timeout'],
    ];
    for (const [kind, failure] of cases) {
      const fake = fakeSupplier();
      const service = createQuoteService({ supplier: fake.supplier, settings: figures() });
      fake.behaviour = failWith(kind);
      const outcome = await service.quote({ ...REQUEST, supplierStayIds: ['1', '2'] }, AbortSignal.timeout(5_000));
      assert.equal(outcome.failure, failure, kind);
      assert.deepEqual(
        [...outcome.quotes],
        [
          ['1', null],
          ['2', null],
        ],
      );
      assert.equal(outcome.asked, true);
      fake.behaviour = async (asked) => new Map(asked.map((x) => [x, price(x)]));
      const retried = await service.quote({ ...REQUEST, supplierStayIds: ['1', '2'] }, AbortSignal.timeout(5_000));
      assert.equal(fake.calls.length, 2, 'asked again after a failure');
      assert.equal(retried.failure, null);
    }
  });

  it('fails only the batches that failed, and reports the first failure met', async () => {
    const fake = fakeSupplier(2);
    fake.behaviour = async (asked) => {
      if (asked.includes('3')) throw new SupplierError('supplier_a', 'malformed', 'bad');
      if (asked.includes('5')) {
        await sleep(30);
        throw new SupplierError('supplier_a', 'http', 'HTTP 500');
      }
      return new Map(asked.map((x) => [x, price(x)]));
    };
    const outcome = await createQuoteService({ supplier: fake.supplier, settings: figures() }).quote(
      { ...REQUEST, supplierStayIds: ids(6) },
      AbortSignal.timeout(5_000),
    );
    assert.equal(outcome.failure, 'malformed');
    assert.deepEqual([...outcome.quotes.values()], [price('1'), price('2'), null, null, null, null]);
  });

  it('serves the cache without asking, until the TTL runs out; a partial hit asks for the rest only', async () => {
    const time = clock();
    const fake = fakeSupplier();
    fake.behaviour = async (asked) => new Map(asked.filter((x) => x !== '2').map((x) => [x, price(x)]));
    const service = createQuoteService({
      supplier: fake.supplier,
      now: time.now,
      settings: figures({ quoteCacheTtlMs: 60_000, quoteCacheMaxEntries: 1_000 }),
    });
    const first = await service.quote({ ...REQUEST, supplierStayIds: ['1', '2'] }, AbortSignal.timeout(5_000));
    assert.equal(first.asked, true);

    time.advance(59_000);
    const cached = await service.quote({ ...REQUEST, supplierStayIds: ['2', '1'] }, AbortSignal.timeout(5_000));
    assert.equal(cached.asked, false);
    assert.equal(fake.calls.length, 1);
    assert.deepEqual(
      [...cached.quotes],
      [
        ['2', { available: false }],
        ['1', price('1')],
      ],
      'sold out is cached too',
    );

    const partial = await service.quote({ ...REQUEST, supplierStayIds: ['1', '3'] }, AbortSignal.timeout(5_000));
    assert.equal(partial.asked, true);
    assert.deepEqual(fake.calls.at(-1), ['3']);

    const otherDates = await service.quote({ ...REQUEST, checkout: '2027-03-05', supplierStayIds: ['1'] }, AbortSignal.timeout(5_000));
    assert.equal(otherDates.asked, true);

    time.advance(1_001);
    const expired = await service.quote({ ...REQUEST, supplierStayIds: ['1', '2'] }, AbortSignal.timeout(5_000));
    assert.equal(expired.asked, true);
    assert.deepEqual(fake.calls.at(-1), ['1', '2']);
  });

  it('opens the breaker after consecutive failures, refuses without calls, then lets one trial through', async () => {
    const time = clock();
    const fake = fakeSupplier(1);
    const service = createQuoteService({
      supplier: fake.supplier,
      now: time.now,
      settings: figures({ breakerFailureThreshold: 2, breakerOpenMs: 30_000 }),
    });
    fake.behaviour = failWith('http');
    await service.quote({ ...REQUEST, supplierStayIds: ['1'] }, AbortSignal.timeout(5_000));
    assert.equal(service.breakerState(), 'closed');
    await service.quote({ ...REQUEST, supplierStayIds: ['1'] }, AbortSignal.timeout(5_000));
    assert.equal(service.breakerState(), 'open');

    time.advance(10_000);
    const refused = await service.quote({ ...REQUEST, supplierStayIds: ['1', '2'] }, AbortSignal.timeout(5_000));
    assert.equal(fake.calls.length, 2, 'no call while open');
    assert.deepEqual(refused, {
      supplier: 'supplier_a',
      quotes: new Map([
        ['1', null],
        ['2', null],
      ]),
      failure: 'open',
      asked: false,
      retryAfterMs: 20_000,
    });

    time.advance(20_000);
    assert.equal(service.breakerState(), 'half-open');
    fake.behaviour = async (asked) => new Map(asked.map((x) => [x, price(x)]));
    // Three batches in half-open: the first is the one trial, the others are refused.
    const trial = await service.quote({ ...REQUEST, supplierStayIds: ['1', '2', '3'] }, AbortSignal.timeout(5_000));
    assert.equal(fake.calls.length, 3);
    assert.deepEqual([...trial.quotes.values()], [price('1'), null, null]);
    assert.equal(trial.failure, 'open');
    assert.equal(trial.asked, true);
    assert.equal(service.breakerState(), 'closed');

    const after = await service.quote({ ...REQUEST, supplierStayIds: ['2', '3'] }, AbortSignal.timeout(5_000));
    assert.equal(after.failure, null);
    assert.equal(fake.calls.length, 5);
  });

  it('counts timeouts as breaker failures', async () => {
    const fake = fakeSupplier();
    fake.behaviour = slow(5_000);
    const breaker = createCircuitBreaker({ failureThreshold: 2, openMs: defaults.breakerOpenMs, now: clock().now });
    const service = createQuoteService({ supplier: fake.supplier, breaker, settings: figures({ quoteCallTimeoutMs: 20 }) });
    await service.quote({ ...REQUEST, supplierStayIds: ['1'] }, AbortSignal.timeout(5_000));
    await service.quote({ ...REQUEST, supplierStayIds: ['1'] }, AbortSignal.timeout(5_000));
    assert.equal(breaker.state(), 'open');
  });

  it('rejects with the reason when the caller cancels, without blaming the supplier', async () => {
    const fake = fakeSupplier();
    fake.behaviour = slow(5_000);
    const breaker = createCircuitBreaker({ failureThreshold: 1, openMs: defaults.breakerOpenMs, now: clock().now });
    const service = createQuoteService({ supplier: fake.supplier, breaker, settings: figures() });
    const controller = new AbortController();
    const reason = new Error('client went away');
    setTimeout(() => controller.abort(reason), 20);
    await assert.rejects(service.quote({ ...REQUEST, supplierStayIds: ['1'] }, controller.signal), reason);
    await sleep(10);
    assert.equal(breaker.state(), 'closed');
    // Already past the deadline: no call at all.
    const late = await service.quote({ ...REQUEST, supplierStayIds: ['9'] }, AbortSignal.abort(new DOMException('late', 'TimeoutError')));
    assert.deepEqual(late, { supplier: 'supplier_a', quotes: new Map([['9', null]]), failure: 'timeout', asked: false });
    assert.equal(fake.calls.length, 1);
  });
});

describe('quote service over HTTP', () => {
  let server: FixtureServer;
  let reply: (url: URL) => FixtureResponse = () => ({ body: {} });
  before(async () => {
    server = await startFixtureServer((url) => reply(url));
  });
  after(() => server.close());

  it('asks an Expedia Rapid supplier_d for 600 ids in 3 calls of at most 250', async () => {
    reply = (url) => ({
      body: url.searchParams.getAll('property_id').map((id) => ({
        property_id: id,
        status: 'available',
        rooms: [
          {
            id: 'r1',
            rates: [
              {
                id: 'a',
                status: 'available',
                occupancy_pricing: {
                  [url.searchParams.get('occupancy')!]: {
                    totals: { inclusive: { request_currency: { value: '10.00', currency: 'USD' } } },
                  },
                },
              },
            ],
          },
        ],
      })),
    });
    const service = createQuoteService({
      supplier: createExpediaRapidDriver(testSupplierConfig('supplier_d', server.baseUrl), defaults),
      settings: figures(),
    });
    const before = server.requests.length;
    const outcome = await service.quote({ ...REQUEST, supplierStayIds: ids(600) }, AbortSignal.timeout(5_000));
    const calls = server.requests.slice(before).map((path) => new URL(path, 'http://x').searchParams.getAll('property_id').length);
    assert.deepEqual(
      calls.sort((a, b) => b - a),
      [250, 250, 100],
    );
    assert.equal(outcome.quotes.size, 600);
    assert.ok(
      [...outcome.quotes.values()].every((q) => q !== null && q.available && q.total === 10),
      'every id priced at 10',
    );
  });

  it('returns nulls within the budget when the supplier hangs, queued batches included', async () => {
    // The budget runs out once the first batch hangs at the supplier: an event, not a duration (a
    // fixed 150 ms could pass before a loaded machine, running test files side by side, sent it).
    const budget = new AbortController();
    reply = () => {
      setImmediate(() => budget.abort(new DOMException('the search budget is spent', 'TimeoutError')));
      return { hang: true, body: null };
    };
    const service = createQuoteService({
      supplier: createHotelbedsDriver(testSupplierConfig('supplier_b', server.baseUrl), defaults),
      settings: figures({ quoteConcurrency: 1 }),
    });
    const before = server.requests.length;
    // Answered when the caller's budget ran out (how soon: bench/timings.ts), with a null for every id.
    // Hotelbeds takes 2,000 codes a call: 5,000 are three batches, two of them queued.
    const outcome = await service.quote({ ...REQUEST, supplierStayIds: ids(5_000) }, budget.signal);
    assert.equal(outcome.failure, 'timeout');
    assert.equal(outcome.asked, true);
    assert.equal(outcome.quotes.size, 5_000);
    assert.ok(
      [...outcome.quotes.values()].every((q) => q === null),
      'every quote null',
    );
    assert.equal(server.requests.length - before, 1, 'the queued batches were never sent');
  });

  it('reports a supplier answering garbage as malformed, and a 500 as error', async () => {
    const service = createQuoteService({
      supplier: createHotelbedsDriver(testSupplierConfig('supplier_b', server.baseUrl), defaults),
      settings: figures(),
    });
    reply = () => ({ body: 'not json' });
    assert.equal((await service.quote({ ...REQUEST, supplierStayIds: ['1'] }, AbortSignal.timeout(5_000))).failure, 'malformed');
    reply = () => ({ status: 500, body: { error: 'Internal Server Error' } });
    assert.equal((await service.quote({ ...REQUEST, supplierStayIds: ['1'] }, AbortSignal.timeout(5_000))).failure, 'error');
  });
});

describe('quote service: refused credentials and rate limits', () => {
  it('maps auth and rate_limited to their failures, and a storm of either never opens the breaker', async () => {
    for (const kind of ['auth', 'rate_limited'] as const) {
      const fake = fakeSupplier();
      const calls: (string | null)[] = [];
      const breaker = createCircuitBreaker({ failureThreshold: 2, openMs: defaults.breakerOpenMs, now: clock().now });
      const service = createQuoteService({
        supplier: fake.supplier,
        breaker,
        settings: figures(),
        observer: { call: (_s, _ms, failure) => calls.push(failure) },
      });
      fake.behaviour = failWith(kind);
      for (let i = 0; i < 20; i++) {
        const outcome = await service.quote({ ...REQUEST, supplierStayIds: [String(i)] }, AbortSignal.timeout(5_000));
        assert.equal(outcome.failure, kind);
        assert.deepEqual([...outcome.quotes.values()], [null]);
      }
      assert.equal(breaker.state(), 'closed', kind);
      assert.equal(fake.calls.length, 20, 'every search asked: no breaker refused');
      assert.deepEqual(new Set(calls), new Set([kind]));
    }
  });

  it('frees a half-open trial that met auth or rate_limited: the next call is the trial', async () => {
    const time = clock();
    const fake = fakeSupplier(1);
    const breaker = createCircuitBreaker({ failureThreshold: 1, openMs: 1_000, now: time.now });
    const service = createQuoteService({ supplier: fake.supplier, breaker, now: time.now, settings: figures() });
    fake.behaviour = failWith('http');
    await service.quote({ ...REQUEST, supplierStayIds: ['1'] }, AbortSignal.timeout(5_000));
    assert.equal(breaker.state(), 'open');
    time.advance(1_000);
    fake.behaviour = failWith('auth');
    await service.quote({ ...REQUEST, supplierStayIds: ['2'] }, AbortSignal.timeout(5_000));
    assert.equal(breaker.state(), 'half-open', 'neither reopened nor closed');
    fake.behaviour = async (asked) => new Map(asked.map((x) => [x, price(x)]));
    const trial = await service.quote({ ...REQUEST, supplierStayIds: ['3'] }, AbortSignal.timeout(5_000));
    assert.equal(trial.failure, null);
    assert.equal(breaker.state(), 'closed');
  });

  it('tells the auth state: unknown before any call, failed with the message, ok once a call is answered', async () => {
    const fake = fakeSupplier();
    const refusals: string[] = [];
    const auth = createSupplierAuth({ onRefused: (supplier, error) => refusals.push(`${supplier} ${error}`) });
    const service = createQuoteService({ supplier: fake.supplier, auth, settings: figures() });
    assert.deepEqual(auth.state('supplier_a'), { auth: 'unknown', error: null });
    fake.behaviour = failWith('auth');
    await service.quote({ ...REQUEST, supplierStayIds: ['1'] }, AbortSignal.timeout(5_000));
    assert.deepEqual(auth.state('supplier_a'), { auth: 'failed', error: 'simulated auth' });
    assert.deepEqual(refusals, ['supplier_a simulated auth']);
    // Other failures say nothing of the credentials.
    fake.behaviour = failWith('http');
    await service.quote({ ...REQUEST, supplierStayIds: ['2'] }, AbortSignal.timeout(5_000));
    assert.equal(auth.state('supplier_a').auth, 'failed');
    fake.behaviour = async (asked) => new Map(asked.map((x) => [x, price(x)]));
    await service.quote({ ...REQUEST, supplierStayIds: ['3'] }, AbortSignal.timeout(5_000));
    assert.deepEqual(auth.state('supplier_a'), { auth: 'ok', error: null });
    assert.deepEqual(auth.state('supplier_b'), { auth: 'unknown', error: null });
  });
});

describe('quote service over HTTP: 429', () => {
  let server: FixtureServer;
  let reply: () => FixtureResponse = () => ({ body: {} });
  before(async () => {
    server = await startFixtureServer(() => reply());
  });
  after(() => server.close());

  /** A driver as the real ones are: one fetchJson per quote, under the service's signal, without a deadline of its own. */
  const driver = (): Supplier => ({
    ...fakeSupplier().supplier,
    quote: async (request, signal) => {
      const body = (await fetchJson(`${server.baseUrl}/quote`, {
        supplier: 'supplier_a',
        settings: defaults,
        signal,
        timeoutMs: null,
        backoffMs: 5,
      })) as {
        prices: Record<string, number>;
      };
      return new Map(request.supplierStayIds.map((id) => [id, { available: true, total: body.prices[id] ?? 0, currency: 'USD' }]));
    },
  });

  it('waits out a 429 that fits the call deadline, and the call is answered: no failure, the wait counted', async () => {
    let answered = 0;
    reply = () => (answered++ === 0 ? { status: 429, body: {}, headers: { 'retry-after': '0' } } : { body: { prices: { '7': 70 } } });
    const waits: number[] = [];
    const service = createQuoteService({
      supplier: driver(),
      settings: figures(),
      observer: { rateLimitWait: (_s, ms) => waits.push(ms) },
    });
    const outcome = await service.quote({ ...REQUEST, supplierStayIds: ['7'] }, AbortSignal.timeout(5_000));
    assert.equal(outcome.failure, null);
    assert.deepEqual(outcome.quotes.get('7'), { available: true, total: 70, currency: 'USD' });
    assert.deepEqual(waits, [0]);
  });

  it('fails as rate_limited at once when the 429 asks for more than the call deadline, and a storm never opens the breaker', async () => {
    reply = () => ({ status: 429, body: {}, headers: { 'retry-after': '30' } });
    const breaker = createCircuitBreaker({ failureThreshold: 2, openMs: defaults.breakerOpenMs, now: clock().now });
    const waits: number[] = [];
    const service = createQuoteService({
      supplier: driver(),
      breaker,
      settings: figures({ quoteCallTimeoutMs: 10_000 }),
      observer: { rateLimitWait: (_s, ms) => waits.push(ms) },
    });
    const before = server.requests.length;
    for (let i = 0; i < 10; i++) {
      const outcome = await service.quote({ ...REQUEST, supplierStayIds: [String(i)] }, AbortSignal.timeout(60_000));
      assert.equal(outcome.failure, 'rate_limited');
    }
    assert.equal(server.requests.length - before, 10, 'one request per call: no wait into the deadline');
    assert.deepEqual(waits, []);
    assert.equal(breaker.state(), 'closed');
  });
});
