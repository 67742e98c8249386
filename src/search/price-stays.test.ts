// The spec's pricing rules (price-stays.ts) over fake quote services of our own interface.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fakeQuoteService, type FakeQuoteService } from '../test-support/fake-quote-service.ts';
import { baseQuery, worldStays } from '../test-support/search-world.ts';
import type { Quote } from '../suppliers/supplier.ts';
import type { Stay, SupplierId } from '../types.ts';
import { cacheStatus, priceStays, type PricingOutcome } from './price-stays.ts';
import type { SearchQuery } from './search-query.ts';

const DATES = { checkin: '2027-05-01', checkout: '2027-05-03', nights: 2 };

/** Stays sold by the given suppliers, each listing's id `<idx>`. */
function staysSoldBy(...sellers: SupplierId[][]): Stay[] {
  const stays = worldStays(sellers.length, 5);
  return stays.map((stay, i) => ({
    ...stay,
    listings: sellers[i].map((supplier) => ({ ...stay.listings[0], supplier, supplierStayId: String(i) })),
  }));
}

/** Each supplier's quote per listing id. */
function services(answers: Partial<Record<SupplierId, Record<string, Quote | null>>>): Map<SupplierId, FakeQuoteService> {
  return new Map(
    Object.entries(answers).map(([s, byId]) => [s as SupplierId, fakeQuoteService(s as SupplierId, (id) => byId![id] ?? null)]),
  );
}

const usd = (total: number): Quote => ({ available: true, total, currency: 'USD' });
const SOLD_OUT: Quote = { available: false };

function price(stays: Stay[], svc: Map<SupplierId, FakeQuoteService>, fields: Partial<SearchQuery> = {}, currency = 'USD') {
  return priceStays(stays, baseQuery({ dates: DATES, ...fields }), DATES, { services: svc, budgetMs: 1_000, currency });
}

const offersOf = (outcome: PricingOutcome) => outcome.priced.map((p) => [p.stay.idx, [...p.offers]]);

describe('pricing rules', () => {
  it('asks each wanted supplier once for all its listings, with the dates, party and currency', async () => {
    const stays = staysSoldBy(['supplier_a', 'supplier_b'], ['supplier_a'], ['supplier_c']);
    const svc = services({ supplier_a: { 0: usd(100), 1: usd(120) }, supplier_b: { 0: usd(90) } });
    const occupancy = { adults: 3, children: 1, childrenAges: [7], rooms: 2 };
    const outcome = await price(stays, svc, { occupancy }, 'EUR');
    assert.deepEqual(svc.get('supplier_a')!.requests, [
      { supplierStayIds: ['0', '1'], checkin: DATES.checkin, checkout: DATES.checkout, ...occupancy, currency: 'EUR' },
    ]);
    assert.equal(svc.get('supplier_b')!.requests.length, 1);
    // supplier_c has no quote service: its listing is not priced, and the stay it alone sells drops out.
    assert.deepEqual(
      outcome.priced.map((p) => p.stay.idx),
      [0, 1],
    );
  });

  it('asks only the requested providers, and shows only their offers', async () => {
    const stays = staysSoldBy(['supplier_a', 'supplier_b']);
    const svc = services({ supplier_a: { 0: usd(100) }, supplier_b: { 0: usd(90) } });
    const outcome = await price(stays, svc, { providers: ['supplier_b'] });
    assert.equal(svc.get('supplier_a')!.requests.length, 0);
    assert.deepEqual(offersOf(outcome), [[0, [['supplier_b', 90]]]]);
  });

  it('drops a stay sold out at every supplier that answered, keeps one any supplier sells', async () => {
    const stays = staysSoldBy(['supplier_a', 'supplier_b'], ['supplier_a', 'supplier_b']);
    const svc = services({ supplier_a: { 0: SOLD_OUT, 1: SOLD_OUT }, supplier_b: { 0: SOLD_OUT, 1: usd(80) } });
    assert.deepEqual(offersOf(await price(stays, svc)), [[1, [['supplier_b', 80]]]]);
  });

  it('keeps a stay with a null price when a supplier fails, even when price bounds exclude every known price', async () => {
    const stays = staysSoldBy(['supplier_a', 'supplier_b'], ['supplier_a']);
    const svc = new Map<SupplierId, FakeQuoteService>([
      ['supplier_a', fakeQuoteService('supplier_a', () => usd(1_000))],
      ['supplier_b', fakeQuoteService('supplier_b', () => usd(1), { failure: 'open', retryAfterMs: 2_500 })],
    ]);
    const outcome = await price(stays, svc, { maxPrice: 100 });
    assert.deepEqual(offersOf(outcome), [
      [
        0,
        [
          ['supplier_a', 1_000],
          ['supplier_b', null],
        ],
      ],
    ]);
    assert.deepEqual(outcome.failures, { supplier_b: { failure: 'open', retryAfterMs: 2_500 } });
  });

  it('applies min and max to the per-night USD price of any supplier, inclusive', async () => {
    // 300 USD for two nights is 150 a night; 172.4 EUR is 200 USD, 100 a night.
    const stays = staysSoldBy(['supplier_a'], ['supplier_a', 'supplier_b']);
    const svc = services({
      supplier_a: { 0: usd(300), 1: usd(800) },
      supplier_b: { 1: { available: true, total: 172.4, currency: 'EUR' } },
    });
    const kept = async (minPrice: number | null, maxPrice: number | null) =>
      (await price(stays, svc, { minPrice, maxPrice })).priced.map((p) => p.stay.idx);
    assert.deepEqual(await kept(150, 150), [0], 'bounds are inclusive');
    assert.deepEqual(await kept(90, 110), [1], 'stay 1 through its supplier_b price, converted to USD');
    assert.deepEqual(await kept(151, null), [1], 'stay 1 at 400 a night at supplier_a');
    assert.deepEqual(await kept(null, 99), []);
    assert.deepEqual(await kept(null, null), [0, 1]);
  });

  it('shows a price in a currency without a rate as unknown (null), and keeps the stay under bounds', async () => {
    const stays = staysSoldBy(['supplier_a']);
    const svc = services({ supplier_a: { 0: { available: true, total: 5, currency: 'XTS' } } });
    assert.deepEqual(offersOf(await price(stays, svc, { minPrice: 1_000 })), [[0, [['supplier_a', null]]]]);
  });

  it("keeps a supplier's own figure in the search currency, converts others through USD to the currency's minor unit", async () => {
    const stays = staysSoldBy(['supplier_a', 'supplier_b', 'supplier_c']);
    const svc = services({
      supplier_a: { 0: { available: true, total: 123.456, currency: 'JPY' } },
      supplier_b: { 0: usd(100.333) },
      supplier_c: { 0: { available: true, total: 86.2, currency: 'EUR' } },
    });
    assert.deepEqual(offersOf(await price(stays, svc, {}, 'JPY')), [
      [
        0,
        [
          ['supplier_a', 123.456],
          ['supplier_b', 15_371],
          ['supplier_c', 15_320],
        ],
      ],
    ]);
  });

  it('is a cache HIT only when no supplier was asked and none failed', async () => {
    const stays = staysSoldBy(['supplier_a']);
    const cached = new Map([['supplier_a' as SupplierId, fakeQuoteService('supplier_a', () => usd(1), { asked: false })]]);
    const asked = services({ supplier_a: { 0: usd(1) } });
    const refused = new Map([['supplier_a' as SupplierId, fakeQuoteService('supplier_a', () => null, { failure: 'open' })]]);
    assert.equal(cacheStatus(await price(stays, cached)), 'HIT');
    assert.equal(cacheStatus(await price(stays, asked)), 'MISS');
    const open = await price(stays, refused);
    assert.equal(open.asked, false, 'an open breaker asks nobody');
    assert.equal(cacheStatus(open), 'MISS', 'but its prices are unknown, not cached');
  });
});
