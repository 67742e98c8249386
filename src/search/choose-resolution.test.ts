import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getNumCells, polygonToCells } from 'h3-js';
import { boxShareOfEarth, cellsOnEarth, chooseResolution, expectedCells } from './choose-resolution.ts';

const WESTERN_EUROPE = { north: 55, east: 15, south: 40, west: -10 };
const PARIS = { north: 48.9, east: 2.42, south: 48.82, west: 2.27 };
const BLOCK = { north: 48.8576, east: 2.3537, south: 48.8556, west: 2.3507 }; // ~220 m x ~220 m

test('cells on Earth per resolution are what h3-js counts', () => {
  for (let r = 0; r <= 15; r++) assert.equal(cellsOnEarth(r), getNumCells(r));
});

test('the share of the Earth of a box: the whole world is 1, a box across 180 is measured the short way', () => {
  assert.ok(
    Math.abs(boxShareOfEarth({ north: 90, south: -90, west: -180, east: 180 }) - 1) < 1e-12,
    'Math.abs(boxShareOfEarth({ north: 90, south: -90, west: -180, east: 180 }) - 1) < 1e-12',
  );
  const across = boxShareOfEarth({ north: 10, south: -10, west: 170, east: -170 });
  const plain = boxShareOfEarth({ north: 10, south: -10, west: -10, east: 10 });
  assert.ok(Math.abs(across - plain) < 1e-12, 'Math.abs(across - plain) < 1e-12');
});

test('expected cells agree with the cells h3-js finds in the box', () => {
  for (const [box, r] of [
    [WESTERN_EUROPE, 3],
    [PARIS, 8],
    [WESTERN_EUROPE, 4],
  ] as const) {
    const polygon = [
      [box.south, box.west],
      [box.south, box.east],
      [box.north, box.east],
      [box.north, box.west],
    ];
    const found = polygonToCells(polygon, r).length;
    const expected = expectedCells(box, r);
    assert.ok(Math.abs(found - expected) / expected < 0.15, `r${r}: ${found} found, ${expected.toFixed(0)} expected`);
  }
});

test('the resolution puts about targetCells cells in the viewport (within a factor sqrt 7)', () => {
  const boxes = [
    WESTERN_EUROPE,
    PARIS,
    { north: 60, south: 20, west: -130, east: -60 },
    { north: 35.8, south: 35.6, west: 139.6, east: 139.9 },
  ];
  for (const target of [30, 100, 300]) {
    for (const box of boxes) {
      const r = chooseResolution(box, { targetCells: target, maxResolution: 15 });
      const cells = expectedCells(box, r);
      assert.ok(
        cells >= target / Math.sqrt(7) - 1e-9 && cells <= target * Math.sqrt(7) + 1e-9,
        `${JSON.stringify(box)}: r${r} holds ${cells.toFixed(1)}`,
      );
    }
  }
});

test('documented choices: Western Europe is r3, central Paris r8, a city block clamps to the maximum', () => {
  assert.equal(chooseResolution(WESTERN_EUROPE, { targetCells: 100, maxResolution: 8 }), 3);
  assert.equal(chooseResolution(PARIS, { targetCells: 100, maxResolution: 8 }), 8);
  assert.equal(chooseResolution(PARIS, { targetCells: 100, maxResolution: 11 }), 8);
  assert.equal(chooseResolution(BLOCK, { targetCells: 100, maxResolution: 8 }), 8);
  assert.equal(chooseResolution(BLOCK, { targetCells: 100, maxResolution: 11 }), 11);
  assert.equal(chooseResolution({ north: 90, south: -90, west: -180, east: 180 }, { targetCells: 100, maxResolution: 8 }), 0);
  assert.equal(chooseResolution({ north: 10, south: 10, west: 0, east: 1 }, { targetCells: 100, maxResolution: 8 }), 8, 'no area: deepest');
});

test('a finer viewport never gets a coarser resolution', () => {
  let previous = -1;
  for (let half = 40; half > 0.0005; half /= 1.5) {
    const r = chooseResolution(
      { north: 45 + half, south: 45 - half, west: 5 - half, east: 5 + half },
      { targetCells: 100, maxResolution: 15 },
    );
    assert.ok(r >= previous, 'r >= previous');
    previous = r;
  }
});
