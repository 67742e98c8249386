import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { syntheticIndex, syntheticPoints } from '../test-support/synthetic-index.ts';
import { entryHolds, FACET_DIMS, FACET_SUPPLIERS, facetCode, facetColumn, facetPieceOf, SUPPLIER_CODE } from './cell-facets.ts';
import { buildCellPyramid } from './cell-pyramid.ts';

describe('cell pyramid facet entries', () => {
  test("each big piece's entries are its stays by code in every dimension (ratings and stars: that code or higher): count, best, a box around them, their centroid", async () => {
    const index = await syntheticIndex(syntheticPoints(4_000, 6), { cellOrder: false, varied: true });
    const pyramid = buildCellPyramid(index, { maxResolution: 8, facetMinStays: 32 });
    let big = 0;
    for (const level of pyramid.levels) {
      for (let c = 0; c < level.size; c++) {
        const from = level.start[c],
          to = level.start[c + 1];
        const i = facetPieceOf(level, c);
        assert.equal(i >= 0, to - from >= 32 || level.resolution === 0, `r${level.resolution} piece ${c}: entries from 32 stays, or at r0`);
        if (i < 0) continue;
        big++;
        for (let d = 0; d < FACET_DIMS; d++) {
          const stays = Array.from({ length: to - from }, (_, k) => pyramid.idxAt(from + k));
          const column = facetColumn(index, d);
          // Each value's own code; of the suppliers, also each supplier's (SUPPLIER_CODE + slot) that sells one.
          const want = new Set(stays.map((idx) => facetCode(d, column[idx])));
          if (d === FACET_SUPPLIERS)
            for (let slot = 0; slot < 4; slot++) if (stays.some((idx) => (column[idx] & (1 << slot)) !== 0)) want.add(SUPPLIER_CODE + slot);
          const codes: number[] = [];
          for (let e = level.facetStart[i * FACET_DIMS + d]; e < level.facetStart[i * FACET_DIMS + d + 1]; e++) {
            const code = level.facetCode[e];
            codes.push(code);
            // A rating's or star class's entry: its code's stays and every higher code's (a minimum);
            // NO_CODE's alone; a supplier's: every stay it sells; any other: its code's.
            const members = stays.filter((idx) => entryHolds(d, code, column[idx]));
            const label = `r${level.resolution} piece ${c} dim ${d} code ${code}`;
            assert.equal(level.facetCount[e], members.length, `${label}: count`);
            const best = members.reduce((a, b) => (index.rank[b] < index.rank[a] ? b : a));
            assert.equal(level.facetBest[e], best, `${label}: best`);
            const [s, w, n, east] = level.facetBox.subarray(4 * e, 4 * e + 4);
            for (const idx of members)
              assert.ok(index.lat[idx] >= s && index.lat[idx] <= n && index.lng[idx] >= w && index.lng[idx] <= east, `${label}: box`);
            const lat = members.reduce((a, idx) => a + index.lat[idx], 0) / members.length;
            assert.ok(Math.abs(level.facetCentroid[2 * e] - lat) < 1e-4, `${label}: centroid`);
          }
          assert.deepEqual(
            codes,
            [...want].sort((a, b) => a - b),
            `r${level.resolution} piece ${c} dim ${d}: every code once, in order`,
          );
        }
      }
    }
    assert.ok(big > 20, `${big} big pieces`);
  });
});
