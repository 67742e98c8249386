// `cluster=top` (top-search.ts): one representative per cell, pages over cells; dated, the cells share the priced budget.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { latLngToCell } from 'h3-js';
import { fakeQuoteService } from '../test-support/fake-quote-service.ts';
import { baseQuery, searchWorld, worldStays, type SearchWorld } from '../test-support/search-world.ts';
import { SUPPLIER_IDS } from '../types.ts';
import { boxCentre } from './candidates.ts';
import type { SearchQuery } from './search-query.ts';
import type { Clustering } from './search-result.ts';
import { topSearch } from './top-search.ts';

/** Listings (`supplier:id`) sold out for any dates; the others at 100 USD. */
const soldOut = new Set<string>();
const quotes = new Map(
  SUPPLIER_IDS.map((s) => [
    s,
    fakeQuoteService(s, (id) => (soldOut.has(`${s}:${id}`) ? { available: false } : { available: true, total: 100, currency: 'USD' })),
  ]),
);
let world: SearchWorld;
before(async () => {
  world = await searchWorld(worldStays(2_000, 9), { quotes, pricedCandidates: 12 });
});
after(() => world.close());

const VIEW = { south: 40, west: -10, north: 56, east: 15 };
const R = 4;
const DATES = { checkin: '2027-05-01', checkout: '2027-05-02', nights: 1 };
const clustering: Clustering = { strategy: 'h3', precision: R, mode: 'top' };
const run = (fields: Partial<SearchQuery>) => {
  const query = baseQuery({ location: { kind: 'box', ...VIEW }, cluster: 'top', ...fields });
  return topSearch(world.deps, query, VIEW, R, clustering, boxCentre(VIEW), (query.page - 1) * query.pageSize);
};
/** The view's stays by their r4 cell, best-ranked first. */
function cellsOfView(): Map<string, number[]> {
  const cells = new Map<string, number[]>();
  const inView = world.stays.filter((s) => s.lat >= VIEW.south && s.lat <= VIEW.north && s.lng >= VIEW.west && s.lng <= VIEW.east);
  for (const s of inView.sort((a, b) => a.rank - b.rank)) {
    const id = latLngToCell(s.lat, s.lng, R);
    cells.set(id, [...(cells.get(id) ?? []), s.idx]);
  }
  return cells;
}
const sellOut = (idx: number) => {
  for (const l of world.stays[idx].listings) soldOut.add(`${l.supplier}:${l.supplierStayId}`);
};

describe('cluster=top', () => {
  it("shows each cell's best-ranked stay with its cell id, pages over every cell once, counts cells", async () => {
    const cells = cellsOfView();
    assert.ok(cells.size > 20, `${cells.size} cells`);
    const seen: string[] = [];
    for (let page = 1; page <= Math.ceil(cells.size / 9); page++) {
      const result = await run({ page, pageSize: 9 });
      assert.equal(result.total, cells.size);
      assert.equal(result.hasMore, page * 9 < cells.size);
      for (const hit of result.hits) {
        assert.equal(hit.stay.idx, cells.get(hit.cellId!)?.[0], `the best stay of ${hit.cellId}`);
        seen.push(hit.cellId!);
      }
    }
    assert.deepEqual(seen.sort(), [...cells.keys()].sort());
  });

  it('dated: the first cells in spread order share the budget; the best survivor represents a cell, a cell without one drops out', async () => {
    soldOut.clear();
    const cells = cellsOfView();
    const firstPage = (await run({ pageSize: 100 })).hits.map((h) => h.cellId!);
    const priced = firstPage.slice(0, 12);
    // 12 cells for a budget of 12: one stay each, its best. Selling it out drops the cell.
    sellOut(cells.get(priced[0])![0]);
    const dated = await run({ pageSize: 100, dates: DATES });
    assert.deepEqual(
      dated.hits.map((h) => h.cellId),
      priced.slice(1),
    );
    assert.equal(dated.total, 11);
    assert.ok(
      dated.hits.every((h) => h.offers !== null && h.stay.idx === cells.get(h.cellId!)![0]),
      'each cell is represented by its best stay, priced',
    );
    // With fewer cells than the budget each cell prices its best few: the next best stands in.
    const few = { south: 48.7, west: 2.1, north: 49, east: 2.6 };
    const query = baseQuery({ location: { kind: 'box', ...few }, cluster: 'top', pageSize: 10, dates: DATES });
    const inFew = async (r: number) => topSearch(world.deps, query, few, r, { ...clustering, precision: r }, boxCentre(few), 0);
    // The finest resolution at which the box holds at most 6 cells: each of them prices 2 stays or more.
    let r = 8;
    while ((await inFew(r)).total > 6) r--;
    const before = await inFew(r);
    assert.ok(before.total >= 2, `${before.total} cells at r${r}`);
    const [first] = before.hits;
    sellOut(first.stay.idx);
    const after = await inFew(r);
    const standIn = after.hits.find((h) => h.cellId === first.cellId);
    assert.ok(standIn !== undefined && standIn.stay.idx !== first.stay.idx, 'the cell is still shown, by another of its stays');
    assert.ok(world.stays[standIn.stay.idx].rank > world.stays[first.stay.idx].rank, 'the next best');
  });
});
