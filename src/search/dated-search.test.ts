// Dated searches (dated-search.ts): the best-ranked candidates priced, pages over the survivors.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fakeQuoteService } from '../test-support/fake-quote-service.ts';
import { baseQuery, searchWorld, worldStays, type SearchWorld } from '../test-support/search-world.ts';
import type { Quote } from '../suppliers/supplier.ts';
import { SUPPLIER_IDS } from '../types.ts';
import { datedSearch } from './dated-search.ts';

const DATES = { checkin: '2027-05-01', checkout: '2027-05-04', nights: 3 };
/** Every supplier sells every third id out, the rest at 100 USD a night. */
const quote = (id: string): Quote => (Number(id) % 3 === 0 ? { available: false } : { available: true, total: 300, currency: 'USD' });
const quotes = new Map(SUPPLIER_IDS.map((s) => [s, fakeQuoteService(s, quote)]));
const LOCATION = { kind: 'box' as const, south: -90, west: -180, north: 90, east: 180 };

let world: SearchWorld;
before(async () => {
  world = await searchWorld(worldStays(1_000, 8), { quotes, pricedCandidates: 30, totalCap: 5 });
});
after(() => world.close());

describe('dated search', () => {
  it('prices only the best-ranked pricedCandidates, pages over the survivors, and counts them all, uncapped', async () => {
    const best = [...world.stays].sort((a, b) => a.rank - b.rank).slice(0, 30);
    const survivors = best.filter((s) => s.listings.some((l) => Number(l.supplierStayId) % 3 !== 0)).map((s) => s.idx);
    assert.ok(survivors.length > 10 && survivors.length < 30, `${survivors.length} of 30 survive`);
    for (const q of quotes.values()) q.requests.length = 0;
    const query = baseQuery({ location: LOCATION, dates: DATES, pageSize: 10, page: 2 });
    const result = await datedSearch(world.deps, query, DATES, 10);
    const asked = [...quotes.values()].flatMap((q) => q.requests.flatMap((r) => r.supplierStayIds));
    assert.equal(
      asked.length,
      best.reduce((n, s) => n + s.listings.length, 0),
      'each listing of the 30 best asked once',
    );
    assert.deepEqual(
      result.hits.map((h) => h.stay.idx),
      survivors.slice(10, 20),
    );
    assert.equal(result.total, survivors.length, 'survivors, not the static cap of 5');
    assert.equal(result.hasMore, survivors.length > 20);
    assert.equal(result.cache, 'MISS');
    const hit = result.hits[0];
    assert.deepEqual(
      [...hit.offers!],
      hit.stay.listings.filter((l) => Number(l.supplierStayId) % 3 !== 0).map((l) => [l.supplier, 300]),
    );
  });

  it('applies the price bounds per night in USD', async () => {
    const query = (minPrice: number) => baseQuery({ location: LOCATION, dates: DATES, minPrice });
    assert.ok((await datedSearch(world.deps, query(100), DATES, 0)).total > 0, 'every survivor is at 100 a night');
    assert.equal((await datedSearch(world.deps, query(100.01), DATES, 0)).total, 0);
  });
});
