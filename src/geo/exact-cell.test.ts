import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cellToParent, latLngToCell } from 'h3-js';
import { exactCell, parentHoldsMask } from './exact-cell.ts';
import { cellHalves, cellString, parentHi, parentLo } from './h3-cell.ts';

// Points all over the globe (poles, the antimeridian and pentagons' base cells included) and
// dense ones in a city, where many lie near some cell's edge.
function points(): [number, number][] {
  const out: [number, number][] = [
    [0, 0],
    [89.99, 10],
    [-89.99, -170],
    [-17.8, 179.999],
    [-17.8, -179.999],
    [58.4, -143.1],
    [64.7, 10.5],
    [48.8566, 2.3522],
  ];
  let seed = 5;
  const rand = () => (seed = (seed * 1_103_515_245 + 12_345) >>> 0) / 2 ** 32;
  for (let i = 0; i < 3_000; i++)
    out.push(i % 2 === 0 ? [-90 + rand() * 180, -180 + rand() * 360] : [48.8 + rand() * 0.1, 2.3 + rand() * 0.1]);
  return out;
}

test("exactCell is latLngToCell at every resolution, though many points lie off their res-15 cell's parent", () => {
  const out = new Uint32Array(2);
  let off = 0;
  for (const [lat, lng] of points()) {
    const c15 = latLngToCell(lat, lng, 15);
    const { hi, lo } = cellHalves(c15)!;
    for (let r = 0; r <= 15; r++) {
      const want = latLngToCell(lat, lng, r);
      if (cellToParent(c15, r) !== want) off++;
      exactCell(lat, lng, hi, lo, r, out);
      assert.equal(cellString(out[0], out[1]), want, `${lat},${lng} r${r}`);
    }
  }
  assert.ok(off > 1_000, `${off} (point, resolution) pairs off the hierarchy`);
});

test("parentHoldsMask never vouches for a parent that is not the point's cell, and vouches for most", () => {
  let vouched = 0,
    pairs = 0;
  for (const [lat, lng] of points()) {
    const { hi, lo } = cellHalves(latLngToCell(lat, lng, 15))!;
    const mask = parentHoldsMask(hi, lo, 8);
    for (let r = 0; r <= 8; r++) {
      pairs++;
      if (((mask >>> r) & 1) === 0) continue;
      vouched++;
      assert.equal(cellString(parentHi(hi, r), parentLo(lo, r)), latLngToCell(lat, lng, r), `${lat},${lng} r${r}`);
    }
  }
  assert.ok(vouched > 0.85 * pairs, `vouched for ${vouched} of ${pairs}`);
});
