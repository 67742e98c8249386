import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cellToParent, latLngToCell } from 'h3-js';
import { cellHalves, cellString } from '../geo/h3-cell.ts';
import { syntheticIndex, syntheticPoints } from '../test-support/synthetic-index.ts';
import { buildCellPyramid } from './cell-pyramid.ts';
import { cellStays } from './cell-stays.ts';
import type { StayIndex } from './stay-index.ts';

/** The reference: every stay's cell by h3-js latLngToCell of its coordinates, grouped with a Map. */
function bruteForce(index: StayIndex, r: number) {
  const cells = new Map<string, { count: number; best: number; s: number; w: number; n: number; e: number; lat: number; lng: number }>();
  for (let idx = 0; idx < index.size; idx++) {
    const y = index.lat[idx],
      x = index.lng[idx];
    const cell = latLngToCell(y, x, r);
    const c = cells.get(cell);
    if (c === undefined) cells.set(cell, { count: 1, best: idx, s: y, w: x, n: y, e: x, lat: y, lng: x });
    else {
      c.count++;
      if (index.rank[idx] < index.rank[c.best]) c.best = idx;
      c.s = Math.min(c.s, y);
      c.n = Math.max(c.n, y);
      c.w = Math.min(c.w, x);
      c.e = Math.max(c.e, x);
      c.lat += y;
      c.lng += x;
    }
  }
  return cells;
}

for (const cellOrder of [true, false]) {
  describe(`cell pyramid (index ${cellOrder ? 'in cell order' : 'in another order'})`, async () => {
    const index = await syntheticIndex(syntheticPoints(4_000), { cellOrder });
    const pyramid = buildCellPyramid(index, { maxResolution: 8 });

    test("every level's pieces, added up by cell, hold exactly the occupied cells, with count, best stay and a box around their stays", () => {
      for (let r = 0; r <= 8; r++) {
        const level = pyramid.levels[r];
        const expected = bruteForce(index, r);
        assert.equal(level.cellHi.length, expected.size, `r${r} cells`);
        assert.equal(level.start[level.size], index.size);
        const byCell = new Map<
          string,
          { count: number; best: number; s: number; w: number; n: number; e: number; lat: number; lng: number }
        >();
        for (let c = 0; c < level.size; c++) {
          const id = cellString(level.cellHi[level.cell[c]], level.cellLo[level.cell[c]]);
          for (let p = level.start[c]; p < level.start[c + 1]; p++) {
            const idx = pyramid.idxAt(p);
            assert.equal(latLngToCell(index.lat[idx], index.lng[idx], r), id, `r${r}: every stay of a piece lies in its cell`);
          }
          const count = level.start[c + 1] - level.start[c];
          const [s, w, n, e] = level.box.subarray(4 * c, 4 * c + 4);
          const got = byCell.get(id);
          const lat = level.centroid[2 * c] * count,
            lng = level.centroid[2 * c + 1] * count;
          if (got === undefined) byCell.set(id, { count, best: level.best[c], s, w, n, e, lat, lng });
          else {
            got.count += count;
            if (index.rank[level.best[c]] < index.rank[got.best]) got.best = level.best[c];
            got.s = Math.min(got.s, s);
            got.n = Math.max(got.n, n);
            got.w = Math.min(got.w, w);
            got.e = Math.max(got.e, e);
            got.lat += lat;
            got.lng += lng;
          }
        }
        for (const [id, want] of expected) {
          const got = byCell.get(id);
          assert.ok(got, `r${r} cell ${id} exists`);
          assert.equal(got.count, want.count, `r${r} ${id} count`);
          assert.equal(got.best, want.best, `r${r} ${id} best`);
          assert.ok(got.s <= want.s && got.w <= want.w && got.n >= want.n && got.e >= want.e, `r${r} ${id} box holds its stays`);
          assert.ok(want.s - got.s < 1e-4 && got.n - want.n < 1e-4 && want.w - got.w < 1e-4 && got.e - want.e < 1e-4, 'and is tight');
          assert.ok(Math.abs(got.lat / got.count - want.lat / want.count) < 1e-4, 'centroid lat');
          if (want.e - want.w <= 180) assert.ok(Math.abs(got.lng / got.count - want.lng / want.count) < 1e-4, 'centroid lng');
        }
        // Pieces nest: each lies within one piece of the level above.
        if (r > 0)
          for (let c = 0; c < level.size; c++) {
            const above = pyramid.levels[r - 1].start;
            let a = 0;
            while (above[a + 1] <= level.start[c]) a++;
            assert.ok(level.start[c + 1] <= above[a + 1], `r${r} piece ${c} nests`);
          }
      }
    });

    test("some stays lie in another cell than their res-15 cell's parent, and the pyramid goes by their coordinates", () => {
      const out = new Uint32Array(2);
      let off = 0;
      for (let idx = 0; idx < index.size; idx++) {
        for (const r of [3, 6, 8, 10, 13]) {
          const exact = latLngToCell(index.lat[idx], index.lng[idx], r);
          if (cellToParent(cellString(index.h3Hi[idx], index.h3Lo[idx]), r) !== exact) off++;
          pyramid.cellOf(idx, r, out);
          assert.equal(cellString(out[0], out[1]), exact, `idx ${idx} r${r}`);
        }
      }
      assert.ok(off > 100, `${off} stays off the hierarchy`);
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

    test('cellStays lists exactly the stays whose coordinates lie in a cell of any resolution', () => {
      const probes = [
        [48.8566, 2.3522],
        [51.5, -0.12],
        [-17.75, 179.95],
        [0, 0],
        [40.4, -3.7],
        [52.52, 13.405],
      ];
      // And the cells of stays off the hierarchy, where going by the res-15 cell's parent fails.
      for (let idx = 0; idx < index.size; idx += 97) probes.push([index.lat[idx], index.lng[idx]]);
      for (const [lat, lng] of probes) {
        for (const r of [0, 2, 4, 5, 7, 8, 9, 12, 15]) {
          const cell = latLngToCell(lat, lng, r);
          const { hi, lo } = cellHalves(cell)!;
          const got = new Set(cellStays(index, pyramid, hi, lo));
          const want = new Set<number>();
          for (let idx = 0; idx < index.size; idx++) if (latLngToCell(index.lat[idx], index.lng[idx], r) === cell) want.add(idx);
          assert.deepEqual(got, want, `${cell} (r${r})`);
        }
      }
    });
  });
}

test('an empty index gives an empty pyramid', async () => {
  const pyramid = buildCellPyramid(await syntheticIndex([], { cellOrder: true }), { maxResolution: 8 });
  for (const level of pyramid.levels) assert.equal(level.size, 0);
  assert.deepEqual(pyramid.cellRuns(0x0881fb46, 0x703fffff), []);
});
