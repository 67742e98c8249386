import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cellToParent, latLngToCell } from 'h3-js';
import { cellHalves, cellString, parentHi, parentLo } from '../geo/h3-cell.ts';
import { syntheticIndex, syntheticPoints } from '../test-support/synthetic-index.ts';
import { buildCellPyramid } from './cell-pyramid.ts';
import type { StayIndex } from './stay-index.ts';

/** The reference: every stay's parent by h3-js, grouped with a Map. */
function bruteForce(index: StayIndex, r: number) {
  const cells = new Map<string, { count: number; best: number; s: number; w: number; n: number; e: number; lat: number; lng: number }>();
  for (let idx = 0; idx < index.size; idx++) {
    const cell = cellToParent(cellString(index.h3Hi[idx], index.h3Lo[idx]), r);
    const y = index.lat[idx], x = index.lng[idx];
    const c = cells.get(cell);
    if (c === undefined) cells.set(cell, { count: 1, best: idx, s: y, w: x, n: y, e: x, lat: y, lng: x });
    else {
      c.count++;
      if (index.rank[idx] < index.rank[c.best]) c.best = idx;
      c.s = Math.min(c.s, y); c.n = Math.max(c.n, y); c.w = Math.min(c.w, x); c.e = Math.max(c.e, x);
      c.lat += y; c.lng += x;
    }
  }
  return cells;
}

for (const cellOrder of [true, false]) {
  describe(`cell pyramid (index ${cellOrder ? 'in cell order' : 'in another order'})`, async () => {
    const index = await syntheticIndex(syntheticPoints(4_000), { cellOrder });
    const pyramid = buildCellPyramid(index, { maxResolution: 8 });

    test('every level holds exactly the occupied cells, with count, best stay and a box around their stays', () => {
      for (let r = 0; r <= 8; r++) {
        const level = pyramid.levels[r];
        const expected = bruteForce(index, r);
        assert.equal(level.size, expected.size, `r${r} cells`);
        assert.equal(level.start[level.size], index.size);
        for (let c = 0; c < level.size; c++) {
          const first = pyramid.idxAt(level.start[c]);
          const id = cellString(parentHi(index.h3Hi[first], r), parentLo(index.h3Lo[first], r));
          const want = expected.get(id);
          assert.ok(want, `r${r} cell ${id} exists`);
          assert.equal(level.start[c + 1] - level.start[c], want.count, `r${r} ${id} count`);
          assert.equal(level.best[c], want.best, `r${r} ${id} best`);
          const [s, w, n, e] = level.box.subarray(4 * c, 4 * c + 4);
          assert.ok(s <= want.s && w <= want.w && n >= want.n && e >= want.e, `r${r} ${id} box holds its stays`);
          assert.ok(want.s - s < 1e-4 && n - want.n < 1e-4 && want.w - w < 1e-4 && e - want.e < 1e-4, 'and is tight');
          assert.ok(Math.abs(level.centroid[2 * c] - want.lat / want.count) < 1e-4, 'centroid lat');
          if (want.e - want.w <= 180) assert.ok(Math.abs(level.centroid[2 * c + 1] - want.lng / want.count) < 1e-4, 'centroid lng');
        }
      }
    });

    test('every position is a stay once, and positionOf inverts idxAt', () => {
      const seen = new Set<number>();
      for (let p = 0; p < index.size; p++) {
        const idx = pyramid.idxAt(p);
        assert.equal(pyramid.positionOf(idx), p);
        seen.add(idx);
      }
      assert.equal(seen.size, index.size);
    });

    test('cellRange lists exactly the stays under a cell of any resolution', () => {
      const probes = [[48.8566, 2.3522], [51.5, -0.12], [-17.75, 179.95], [0, 0], [40.4, -3.7]];
      for (const [lat, lng] of probes) {
        for (const r of [0, 2, 4, 5, 7, 9, 12, 15]) {
          const cell = latLngToCell(lat, lng, r);
          const { hi, lo } = cellHalves(cell)!;
          const { from, to } = pyramid.cellRange(hi, lo);
          const got = new Set<number>();
          for (let p = from; p < to; p++) got.add(pyramid.idxAt(p));
          const want = new Set<number>();
          for (let idx = 0; idx < index.size; idx++) {
            if (cellToParent(cellString(index.h3Hi[idx], index.h3Lo[idx]), r) === cell) want.add(idx);
          }
          assert.deepEqual(got, want, `${cell} (r${r})`);
        }
      }
    });
  });
}

test('an empty index gives an empty pyramid', async () => {
  const pyramid = buildCellPyramid(await syntheticIndex([], { cellOrder: true }), { maxResolution: 8 });
  for (const level of pyramid.levels) assert.equal(level.size, 0);
  assert.deepEqual(pyramid.cellRange(0x08f1fb46, 0x622dc0a1), { from: 0, to: 0 });
});
