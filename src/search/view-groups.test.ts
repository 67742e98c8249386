// The view's stays by cell for the clustering modes, and which dense cells a `cell` filter lets be clusters (view-groups.ts).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { latLngToCell } from 'h3-js';
import { cellString } from '../geo/h3-cell.ts';
import { baseQuery, searchWorld, worldStays, type SearchWorld } from '../test-support/search-world.ts';
import type { SearchQuery } from './search-query.ts';
import { createSearch } from './search.ts';
import { linkable, viewGroups } from './view-groups.ts';

let world: SearchWorld;
/** Two points a metre apart in one r10 cell but two r8 cells (H3 cells do not nest), walking east from central Paris. */
function acrossAnEdge(): [{ lat: number; lng: number }, { lat: number; lng: number }] {
  for (let lng = 2.35; ; lng += 1e-5) {
    const [a, b] = [
      { lat: 48.8566, lng },
      { lat: 48.8566, lng: lng + 1e-5 },
    ];
    if (
      latLngToCell(a.lat, a.lng, 10) === latLngToCell(b.lat, b.lng, 10) &&
      latLngToCell(a.lat, a.lng, 8) !== latLngToCell(b.lat, b.lng, 8)
    )
      return [a, b];
  }
}

before(async () => {
  const stays = worldStays(3_000, 12);
  // Stays 0 and 1 placed on both sides of such an edge.
  acrossAnEdge().forEach((p, i) => Object.assign(stays[i], p, { h3: latLngToCell(p.lat, p.lng, 15) }));
  world = await searchWorld(stays);
});
after(() => world.close());

const VIEW = { south: 48.7, west: 2.1, north: 49, east: 2.6 };
const R = 8;
const query = (fields: Partial<SearchQuery>) => baseQuery({ location: { kind: 'box', ...VIEW }, cluster: 'true', ...fields });
const inView = (fields: Partial<SearchQuery> = {}) =>
  world.stays.filter(
    (s) =>
      s.lat >= VIEW.south &&
      s.lat <= VIEW.north &&
      s.lng >= VIEW.west &&
      s.lng <= VIEW.east &&
      (fields.types === undefined || fields.types!.includes(s.type)) &&
      (fields.cell == null || latLngToCell(s.lat, s.lng, parseInt(fields.cell[1], 16)) === fields.cell),
  );
/** Cell id -> idx of its stays, for the stays given. */
function byCell(stays: { idx: number; lat: number; lng: number }[], r: number): Map<string, number[]> {
  const cells = new Map<string, number[]>();
  for (const s of stays) {
    const id = latLngToCell(s.lat, s.lng, r);
    cells.set(id, [...(cells.get(id) ?? []), s.idx]);
  }
  return cells;
}

describe('view groups', () => {
  it('group the stays of the view by their cell, unfiltered, through attribute filters, and under a cell filter', async () => {
    const centre = latLngToCell(48.8566, 2.3522, 6);
    for (const fields of [{}, { types: ['hotel'] }, { cell: centre }, { types: ['hotel'], cell: centre }] as Partial<SearchQuery>[]) {
      const groups = await viewGroups(world.deps, query(fields), VIEW, R);
      const want = byCell(inView(fields), R);
      assert.ok(want.size > 5, `${want.size} cells`);
      const got = new Map(groups.cells.map((c) => [cellString(c.hi, c.lo), groups.members(c).sort((a, b) => a - b)]));
      assert.deepEqual(got, new Map([...want].map(([id, m]) => [id, m.sort((a, b) => a - b)])), JSON.stringify(fields));
      assert.equal(groups.total, inView(fields).length);
    }
  });

  it('under a coarser cell filter, a dense cell is a cluster only when none of its stays in view lies outside the filter cell', async () => {
    const filter = latLngToCell(48.8566, 2.3522, 7);
    const q = query({ cell: filter });
    const groups = await viewGroups(world.deps, q, VIEW, R);
    const dense = groups.cells.filter((c) => c.count >= 2);
    const kept = new Set(linkable(world.deps, q, VIEW, groups, dense).map((c) => cellString(c.hi, c.lo)));
    const all = byCell(inView(), R);
    let straddling = 0;
    for (const cell of dense) {
      const id = cellString(cell.hi, cell.lo);
      const straddles = all.get(id)!.some((idx) => latLngToCell(world.stays[idx].lat, world.stays[idx].lng, 7) !== filter);
      if (straddles) straddling++;
      assert.equal(kept.has(id), !straddles, id);
    }
    assert.ok(straddling > 0 && straddling < dense.length, `${straddling} of ${dense.length} dense cells straddle the filter cell`);
  });

  it('through the search, the stays of dense cells that straddle the filter cell are results, the other dense cells clusters', async () => {
    const filter = latLngToCell(48.8566, 2.3522, 6);
    const result = await createSearch(world.deps)(query({ cell: filter, pageSize: 500 }));
    const r = result.clustering!.precision;
    assert.ok(r > 6, `clustered at r${r}`);
    const all = byCell(inView(), r);
    const clusters = [...byCell(inView({ cell: filter }), r)].filter(([, members]) => members.length >= 2);
    const linked = clusters.filter(([id]) =>
      all.get(id)!.every((idx) => latLngToCell(world.stays[idx].lat, world.stays[idx].lng, 6) === filter),
    );
    assert.ok(linked.length > 0 && linked.length < clusters.length, `${linked.length} of ${clusters.length} dense cells linkable`);
    assert.deepEqual(new Set(result.clusters!.map((c) => c.id)), new Set(linked.map(([id]) => id)));
    const clustered = linked.reduce((sum, [, members]) => sum + members.length, 0);
    assert.equal(result.total, inView({ cell: filter }).length - clustered);
  });

  it('under the same-resolution cell filter every dense cell is a cluster; under a finer one only the only cell of the view', async () => {
    const sameRes = latLngToCell(48.8566, 2.3522, R);
    const same = await viewGroups(world.deps, query({ cell: sameRes }), VIEW, R);
    assert.equal(linkable(world.deps, query({ cell: sameRes }), VIEW, same, same.cells).length, same.cells.length);
    // A finer filter cell whose stays lie in one clustering cell may be that cluster; one lying
    // across two clustering cells (H3 cells do not nest) can be neither.
    const r8CellsOf = (id: string) => new Set(inView({ cell: id }).map((s) => latLngToCell(s.lat, s.lng, R))).size;
    const finer = [...byCell(inView(), 10).keys()];
    const single = finer.find((id) => r8CellsOf(id) === 1 && inView({ cell: id }).length >= 2)!;
    const across = finer.find((id) => r8CellsOf(id) > 1)!;
    assert.ok(single !== undefined && across !== undefined, 'the world has both kinds of r10 cells');
    for (const [cell, linked] of [
      [single, true],
      [across, false],
    ] as const) {
      const q = query({ cell });
      const groups = await viewGroups(world.deps, q, VIEW, R);
      assert.equal(linkable(world.deps, q, VIEW, groups, groups.cells).length > 0, linked, cell);
    }
  });
});
