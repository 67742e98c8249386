import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cellToParent, getResolution, isValidCell, latLngToCell } from 'h3-js';
import { cellHalves, cellString, compareHalves, descendantRange, parentHi, parentLo, resolutionOf } from './h3-cell.ts';

// Points all over the globe, poles and the antimeridian included (pentagon base cells too).
function points(): [number, number][] {
  const out: [number, number][] = [
    [0, 0],
    [89.99, 10],
    [-89.99, -170],
    [-17.8, 179.999],
    [-17.8, -179.999],
    [58.4, -143.1],
    [48.8566, 2.3522],
  ];
  let seed = 3;
  const rand = () => (seed = (seed * 1_103_515_245 + 12_345) >>> 0) / 2 ** 32;
  for (let i = 0; i < 300; i++) out.push([-90 + rand() * 180, -180 + rand() * 360]);
  return out;
}

test('parentHi/parentLo give the same parent as h3-js cellToParent, at every resolution', () => {
  for (const [lat, lng] of points()) {
    const cell = latLngToCell(lat, lng, 15);
    const { hi, lo } = cellHalves(cell)!;
    assert.equal(cellString(hi, lo), cell);
    assert.equal(resolutionOf(hi), 15);
    for (let r = 0; r <= 15; r++) {
      const expected = cellToParent(cell, r);
      const got = cellString(parentHi(hi, r), parentLo(lo, r));
      assert.equal(got, expected, `${cell} at r${r}`);
      assert.equal(resolutionOf(parentHi(hi, r)), r);
    }
  }
});

test('a parent of a coarser cell is the same arithmetic', () => {
  for (const [lat, lng] of points().slice(0, 50)) {
    const cell = latLngToCell(lat, lng, 9);
    const { hi, lo } = cellHalves(cell)!;
    for (let r = 0; r <= 9; r++) assert.equal(cellString(parentHi(hi, r), parentLo(lo, r)), cellToParent(cell, r));
  }
});

test('descendantRange holds exactly the res-15 cells under a cell', () => {
  const cells = points()
    .map(([lat, lng]) => latLngToCell(lat, lng, 15))
    .map((c) => cellHalves(c)!);
  for (const r of [0, 3, 4, 5, 8, 11, 15]) {
    for (const parent of cells.slice(0, 40)) {
      const p = { hi: parentHi(parent.hi, r), lo: parentLo(parent.lo, r) };
      const range = descendantRange(p.hi, p.lo);
      for (const c of cells) {
        const inside =
          compareHalves(c.hi, c.lo, range.firstHi, range.firstLo) >= 0 && compareHalves(c.hi, c.lo, range.lastHi, range.lastLo) <= 0;
        const under = parentHi(c.hi, r) === p.hi && parentLo(c.lo, r) === p.lo;
        assert.equal(inside, under, `r${r}`);
      }
    }
  }
});

test('cellHalves refuses what is not hex, and cellString writes what h3-js writes', () => {
  assert.equal(cellHalves('zzz'), null);
  assert.equal(cellHalves(''), null);
  const cell = latLngToCell(48.85, 2.35, 0);
  assert.ok(isValidCell(cell), 'isValidCell(cell)');
  const { hi, lo } = cellHalves(cell)!;
  assert.equal(cellString(hi, lo), cell);
  assert.equal(resolutionOf(hi), getResolution(cell));
});
