// createSearch picks the path (search.ts): clustered when asked and useful, else dated, else flat.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fakeQuoteService } from '../test-support/fake-quote-service.ts';
import { baseQuery, searchWorld, worldStays, type SearchWorld } from '../test-support/search-world.ts';
import { SUPPLIER_IDS } from '../types.ts';
import { createSearch } from './search.ts';

const quotes = new Map(SUPPLIER_IDS.map((s) => [s, fakeQuoteService(s, () => ({ available: true, total: 100, currency: 'USD' }))]));
let world: SearchWorld;
before(async () => {
  world = await searchWorld(worldStays(2_000, 13), { quotes, pricedCandidates: 20 });
});
after(() => world.close());

const PARIS = { kind: 'box' as const, south: 48.75, west: 2.2, north: 48.95, east: 2.5 };
const SMALL = { kind: 'box' as const, south: 48.85, west: 2.34, north: 48.86, east: 2.36 };
const DATES = { checkin: '2027-05-01', checkout: '2027-05-02', nights: 1 };

describe('createSearch', () => {
  it('answers clustered when asked and useful, flat when auto finds a flat list better, and page N at offset (N - 1) x pageSize', async () => {
    const search = createSearch(world.deps);
    const clustered = await search(baseQuery({ location: PARIS, cluster: 'auto', pageSize: 2 }));
    assert.equal(clustered.clustering?.mode, 'auto');
    const flat = await search(baseQuery({ location: SMALL, cluster: 'auto', pageSize: 2, page: 2 }));
    const plain = await search(baseQuery({ location: SMALL, pageSize: 2, page: 2 }));
    assert.deepEqual(flat, plain, 'auto under 5 km is the flat answer');
    assert.equal(flat.clusters, null);
    const first = await search(baseQuery({ location: SMALL, pageSize: 4 }));
    assert.deepEqual(
      plain.hits.map((h) => h.stay.idx),
      first.hits.slice(2, 4).map((h) => h.stay.idx),
    );
  });

  it('prices a dated search, clustered or flat', async () => {
    const search = createSearch(world.deps);
    const dated = await search(baseQuery({ location: SMALL, cluster: 'auto', dates: DATES }));
    assert.equal(dated.clustering, null);
    assert.ok(dated.hits.length > 0 && dated.hits.every((h) => h.offers !== null), 'every hit priced');
    assert.equal(dated.cache, 'MISS');
    const top = await search(baseQuery({ location: PARIS, cluster: 'top', dates: DATES }));
    assert.equal(top.clustering?.mode, 'top');
    assert.ok(
      top.hits.every((h) => h.offers !== null && h.cellId !== undefined),
      'priced representatives',
    );
  });
});
