import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { latLngToCell } from 'h3-js';
import type { BoundingBox } from '../geo/bounding-box.ts';
import { cellString } from '../geo/h3-cell.ts';
import { buildCellPyramid, type CellPyramid } from '../inventory/cell-pyramid.ts';
import type { StayIndex } from '../inventory/stay-index.ts';
import { syntheticIndex, syntheticPoints } from '../test-support/synthetic-index.ts';
import { baseQuery } from '../test-support/search-world.ts';
import {
  clusterHit,
  clusterHits,
  Gathering,
  groupCells,
  pyramidCells,
  pyramidCellsSliced,
  spreadOrder,
  type CellGroups,
} from './cluster-viewport.ts';
import { facetFilterOf } from './facet-filter.ts';
import type { SearchQuery } from './search-query.ts';
import { staticFilter } from './static-filter.ts';

const VIEWS: Record<string, BoundingBox> = {
  paris: { north: 48.9, east: 2.42, south: 48.82, west: 2.27 },
  westernEurope: { north: 55, east: 15, south: 40, west: -10 },
  fijiAcross180: { north: -17, east: -179.5, south: -18.5, west: 179.5 },
  world: { north: 90, east: 180, south: -90, west: -180 },
  empty: { north: 10, east: -30, south: 9, west: -31 },
  thinStrip: { north: 52, east: 13.41, south: 40, west: 13.4 },
};

/** The reference: the stays in the box by a plain scan, grouped by h3-js latLngToCell of their coordinates. */
function bruteForce(index: StayIndex, view: BoundingBox, r: number, keep: (idx: number) => boolean = () => true) {
  const cells = new Map<string, { members: number[]; best: number }>();
  for (let idx = 0; idx < index.size; idx++) {
    if (!keep(idx)) continue;
    const y = index.lat[idx],
      x = index.lng[idx];
    const inLng = view.west <= view.east ? x >= view.west && x <= view.east : x >= view.west || x <= view.east;
    if (y < view.south || y > view.north || !inLng) continue;
    const cell = latLngToCell(y, x, r);
    const c = cells.get(cell) ?? { members: [], best: idx };
    c.members.push(idx);
    if (index.rank[idx] < index.rank[c.best]) c.best = idx;
    cells.set(cell, c);
  }
  return cells;
}

function assertMatches(
  groups: CellGroups,
  index: StayIndex,
  view: BoundingBox,
  r: number,
  label: string,
  keep?: (idx: number) => boolean,
): void {
  const expected = bruteForce(index, view, r, keep);
  const got = new Map(groups.cells.map((c) => [cellString(c.hi, c.lo), c]));
  assert.equal(got.size, groups.cells.length, `${label}: each cell once`);
  assert.deepEqual([...got.keys()].sort(), [...expected.keys()].sort(), `${label}: cells`);
  let total = 0;
  for (const [id, want] of expected) {
    const cell = got.get(id)!;
    total += want.members.length;
    assert.equal(cell.count, want.members.length, `${label} ${id}: count`);
    assert.equal(cell.best, want.best, `${label} ${id}: best`);
    assert.deepEqual(
      groups.members(cell).sort((a, b) => a - b),
      want.members.sort((a, b) => a - b),
      `${label} ${id}: members`,
    );
    const hit = clusterHit(cell);
    for (const idx of want.members) {
      const y = index.lat[idx],
        x = index.lng[idx];
      assert.ok(
        y >= hit.bounds.sw.lat && y <= hit.bounds.ne.lat && x >= hit.bounds.sw.lng && x <= hit.bounds.ne.lng,
        `${label} ${id}: bounds hold the stays`,
      );
    }
    assert.ok(hit.lat >= hit.bounds.sw.lat && hit.lat <= hit.bounds.ne.lat, `${label} ${id}: centre inside`);
  }
  assert.equal(groups.total, total, `${label}: total`);
}

for (const cellOrder of [true, false]) {
  describe(`viewport cells (index ${cellOrder ? 'in cell order' : 'in another order'})`, () => {
    let index: StayIndex;
    let pyramid: CellPyramid;
    before(async () => {
      index = await syntheticIndex(syntheticPoints(5_000, 4), { cellOrder });
      pyramid = buildCellPyramid(index, { maxResolution: 8 });
    });

    test('the pyramid walk finds exactly the cells, counts, best stays and members a brute-force scan finds', () => {
      for (const [name, view] of Object.entries(VIEWS)) {
        for (const r of [0, 1, 3, 5, 8, 9, 11, 15]) assertMatches(pyramidCells(index, pyramid, view, r), index, view, r, `${name} r${r}`);
      }
      // The walk's table of cells starts at 512 slots and doubles at half full: the world at r8 makes it grow twice.
      assert.ok(pyramidCells(index, pyramid, VIEWS.world, 8).cells.length > 512, 'a view of more cells than the first table holds');
    });

    test('random viewports agree with the brute force too', () => {
      let s = 17;
      const rand = () => (s = (s * 1_103_515_245 + 12_345) >>> 0) / 2 ** 32;
      for (let i = 0; i < 40; i++) {
        const [lat, lng] = [
          [48.85, 2.35],
          [51.5, -0.12],
          [-17.75, 179.9],
          [40.4, -3.7],
        ][i % 4];
        const h = 0.01 + rand() * (i % 3 === 0 ? 5 : 0.3);
        const w = 0.01 + rand() * (i % 3 === 0 ? 8 : 0.5);
        let west = lng - w * rand(),
          east = west + w;
        if (west < -180) west += 360;
        if (east > 180) east -= 360;
        const view = { south: lat - h * rand(), north: lat + h, west, east };
        const r = Math.floor(rand() * 12);
        assertMatches(pyramidCells(index, pyramid, view, r), index, view, r, `random ${i} r${r}`);
      }
    });

    test('with a filter, the walk scans the runs of stays in view and still agrees', () => {
      const keep = (idx: number) => index.rank[idx] % 3 === 0;
      for (const [name, view] of Object.entries(VIEWS)) {
        for (const r of [0, 3, 8, 10])
          assertMatches(pyramidCells(index, pyramid, view, r, keep), index, view, r, `${name} filtered r${r}`, keep);
      }
    });

    test('grouping any candidate list gives the same cells as the walk', () => {
      for (const [name, view] of Object.entries(VIEWS)) {
        const candidates = index.inBox(view.south, view.west, view.north, view.east);
        for (const r of [2, 8, 10]) assertMatches(groupCells(index, pyramid, candidates, r), index, view, r, `${name} grouped r${r}`);
      }
    });
  });
}

describe("viewport cells through a filter of one attribute (the pyramid's facet entries)", () => {
  let index: StayIndex;
  let pyramid: CellPyramid;
  before(async () => {
    index = await syntheticIndex(syntheticPoints(5_000, 5), { cellOrder: true, varied: true });
    // Entries from 16 stays a piece: views add up big pieces and scan small ones both.
    pyramid = buildCellPyramid(index, { maxResolution: 8, facetMinStays: 16 });
  });
  const FILTERS: Record<string, Partial<SearchQuery>> = {
    hotels: { types: ['hotel'] },
    twoTypes: { types: ['palace', 'riad'] },
    supplierB: { providers: ['supplier_b'] },
    twoSuppliers: { providers: ['supplier_a', 'supplier_d'] },
    rating8: { minGuestRating: 8 },
    rating10: { minGuestRating: 10 },
    stars3: { minStars: 3 },
    // Codes by tenth and by half star (cell-facets.ts): entries too.
    rating85: { minGuestRating: 8.5 },
    stars35: { minStars: 3.5 },
  };

  test('every kind of one-attribute filter agrees with the brute force at every resolution, sliced or not', async () => {
    for (const [filterName, fields] of Object.entries(FILTERS)) {
      const query = baseQuery(fields);
      const keep = staticFilter(index, query, null, null);
      const facets = facetFilterOf(index, query);
      assert.ok(facets !== null, `${filterName}: one attribute`);
      for (const [name, view] of Object.entries(VIEWS)) {
        for (const r of [0, 2, 3, 5, 8, 10]) {
          const label = `${name} ${filterName} r${r}`;
          assertMatches(pyramidCells(index, pyramid, view, r, keep, facets), index, view, r, label, keep);
          const sliced = await pyramidCellsSliced(index, pyramid, view, r, keep, () => undefined, facets);
          assertMatches(sliced, index, view, r, `${label} sliced`, keep);
        }
      }
    }
  });
});

describe('spread order of cluster=top', () => {
  test('the first page takes the best cell of each square of a sqrt(pageSize) grid before any second cell', async () => {
    const index = await syntheticIndex(syntheticPoints(5_000, 8), { cellOrder: true });
    const pyramid = buildCellPyramid(index, { maxResolution: 8 });
    const view = VIEWS.westernEurope;
    const cells = pyramidCells(index, pyramid, view, 5).cells;
    for (const pageSize of [4, 9, 10, 25]) {
      const ordered = spreadOrder(cells, view, pageSize, index);
      assert.equal(ordered.length, cells.length);
      assert.equal(new Set(ordered).size, cells.length, 'a permutation');
      const g = Math.floor(Math.sqrt(pageSize));
      const square = (idx: number) => {
        const col = Math.min(g - 1, Math.floor(((index.lng[idx] - view.west) / (view.east - view.west)) * g));
        const row = Math.min(g - 1, Math.floor(((index.lat[idx] - view.south) / (view.north - view.south)) * g));
        return row * g + col;
      };
      const occupied = new Set(cells.map((c) => square(c.best)));
      const firstRound = ordered.slice(0, occupied.size);
      assert.equal(new Set(firstRound.map((c) => square(c.best))).size, occupied.size, `pageSize ${pageSize}: one cell per square first`);
      for (const sq of occupied) {
        const inSquare = cells.filter((c) => square(c.best) === sq);
        const bestRank = Math.min(...inSquare.map((c) => index.rank[c.best]));
        assert.ok(
          firstRound.some((c) => index.rank[c.best] === bestRank),
          "the square's best cell leads it",
        );
      }
      for (let i = 1; i < firstRound.length; i++)
        assert.ok(index.rank[firstRound[i - 1].best] < index.rank[firstRound[i].best], 'best first within a round');
    }
  });
});

describe('clusters of dense cells (clusterHits)', () => {
  test('biggest first, each as clusterHit builds it; a cell with the same figures gets the hit built before, one cut otherwise a new one', async () => {
    const index = await syntheticIndex(syntheticPoints(5_000, 4), { cellOrder: true });
    const pyramid = buildCellPyramid(index, { maxResolution: 8 });
    const whole = pyramidCells(index, pyramid, VIEWS.world, 5).cells;
    const hits = clusterHits(pyramid, whole);
    assert.deepEqual(
      hits,
      [...whole].sort((a, b) => b.count - a.count || a.hi - b.hi || a.lo - b.lo).map(clusterHit),
      'the cells biggest first, then by id, as clusterHit builds them',
    );
    assert.ok(Object.isFrozen(hits[0]) && Object.isFrozen(hits[0].bounds.ne), 'a kept hit is frozen: an answer cannot change the next one');
    const again = clusterHits(pyramid, pyramidCells(index, pyramid, VIEWS.world, 5).cells);
    assert.ok(
      again.every((hit, i) => hit === hits[i]),
      'the same cells again: the hits built before',
    );
    // Half of the biggest cell cut off by the view: the same id, other figures, so another hit.
    const big = whole.reduce((a, b) => (b.count > a.count ? b : a));
    const half = { ...VIEWS.world, east: (big.west + big.east) / 2 };
    const cut = pyramidCells(index, pyramid, half, 5).cells.find((c) => c.hi === big.hi && c.lo === big.lo)!;
    assert.ok(cut.count < big.count, 'the view cuts the biggest cell');
    const [cutHit] = clusterHits(pyramid, [cut]);
    assert.deepEqual(cutHit, clusterHit(cut), 'the cut cell as it is now');
    assert.notEqual(cutHit.count, hits.find((h) => h.id === cutHit.id)!.count, 'not the whole cell kept before');
    // Each figure the hit is built from, changed alone: a new hit, as clusterHit builds it now.
    for (const figure of ['count', 'south', 'west', 'north', 'east', 'lat', 'lng'] as const) {
      const [kept] = clusterHits(pyramid, [big]);
      assert.equal(clusterHits(pyramid, [{ ...big }])[0], kept, `${figure}: a copy of the same figures gets the kept hit`);
      const changed = { ...big, [figure]: big[figure] + (figure === 'count' ? 1 : 1e-3) };
      const [hit] = clusterHits(pyramid, [changed]);
      assert.notEqual(hit, kept, `${figure} changed: not the kept hit`);
      assert.deepEqual(hit, clusterHit(changed), `${figure} changed: the hit of the figures now`);
    }
    const other = buildCellPyramid(index, { maxResolution: 8 });
    assert.ok(
      clusterHits(other, whole).every((hit, i) => hit !== hits[i]),
      'another pyramid (another content version) keeps its own hits',
    );
  });
});

describe("a viewport's cells being gathered (Gathering)", () => {
  test('level numbers by the table: every key found again however its bits fall, the cells in key order, the table grown as it fills', () => {
    const gathering = new Gathering(true);
    // Runs of numbers, and numbers a table's size apart (the same low bits at 512, 1024, 2048 slots).
    const keys = [...Array.from({ length: 700 }, (_, i) => i), ...Array.from({ length: 700 }, (_, i) => 100_005 + i * 2048), 2 ** 31 - 2];
    const cells = keys.map((key) => gathering.at(key, key % 1000, key));
    assert.equal(new Set(cells).size, keys.length, 'a cell per key');
    keys.forEach((key, i) => assert.equal(gathering.at(key, 0, 0), cells[i], `key ${key} finds its cell`));
    for (const cell of cells) cell.count = 1;
    assert.deepEqual(
      gathering.cells().map((c) => c.lo),
      [...keys].sort((a, b) => a - b),
      'the cells in key order',
    );
  });

  test('cellKeys (finer than the pyramid) by a Map, in key order', () => {
    const gathering = new Gathering(false);
    const keys = [2 ** 40 + 3, 7, 2 ** 33, 2 ** 40 + 3];
    const cells = keys.map((key) => gathering.at(key, 0, key));
    assert.equal(cells[0], cells[3], 'the same key, the same cell');
    for (const cell of cells) cell.count = 1;
    assert.deepEqual(
      gathering.cells().map((c) => c.lo),
      [7, 2 ** 33, 2 ** 40 + 3],
    );
  });
});
