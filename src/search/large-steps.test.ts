// Heavy steps done in slices give the same answers as done at once, and do give the event loop
// back meanwhile (issue 13, defect 3). Slices of 0 ms pause at every chance, so the interleaving
// is certain, not a matter of how fast the machine is.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { distanceMeters } from '../geo/distance.ts';
import { buildCellPyramid, type CellPyramid } from '../inventory/cell-pyramid.ts';
import type { StayIndex } from '../inventory/stay-index.ts';
import { syntheticIndex, syntheticPoints } from '../test-support/synthetic-index.ts';
import { pyramidCells, pyramidCellsSliced } from './cluster-viewport.ts';
import { boxCandidates, keepMatching, LARGE_STEP, pageByDistance, pageByRank } from './large-steps.ts';
import { selectByRank } from './select-by-rank.ts';
import { createWorkSlicer } from './work-slicer.ts';

let index: StayIndex;
let pyramid: CellPyramid;
before(async () => {
  index = await syntheticIndex(syntheticPoints(3 * LARGE_STEP), { cellOrder: true });
  pyramid = buildCellPyramid(index, { maxResolution: 8 });
});

/** Runs `work` while counting the event-loop turns that happen before it settles (`work` can read the count so far). */
async function turnsDuring<T>(work: (turnsSoFar: () => number) => Promise<T>): Promise<{ value: T; turns: number }> {
  let turns = 0;
  let running = true;
  const tick = () => {
    turns++;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  const value = await work(() => turns);
  running = false;
  return { value, turns };
}

const WORLD = { south: -90, west: -180, north: 90, east: 180 };
const slicer = createWorkSlicer({ sliceMs: 0 });

describe('large steps', () => {
  it('list, filter and page a whole-world search as at once, letting the event loop run in between', async () => {
    const { value: candidates, turns } = await turnsDuring(() => boxCandidates(index, WORLD, slicer));
    assert.equal(candidates.length, index.size);
    assert.ok(turns > 10, `${turns} turns`);
    const keep = (idx: number) => idx % 3 !== 0;
    const kept = await keepMatching(candidates, keep, slicer);
    assert.deepEqual(kept, candidates.filter(keep));
    for (const [offset, count] of [
      [0, 10],
      [500, 100],
      [kept.length - 5, 10],
    ]) {
      assert.deepEqual(await pageByRank(index, kept, offset, count, slicer), selectByRank(kept, index.rank, index.byRank, offset, count));
    }
  });

  it('pages by distance as a full sort would, ties by rank', async () => {
    const centre = { lat: 48.85, lng: 2.35 };
    const all = Array.from({ length: index.size }, (_, i) => i);
    const d = (idx: number) => distanceMeters(centre.lat, centre.lng, index.lat[idx], index.lng[idx]);
    const sorted = [...all].sort((a, b) => d(a) - d(b) || index.rank[a] - index.rank[b]);
    for (const [offset, count] of [
      [0, 20],
      [1_000, 100],
      [all.length - 3, 10],
    ]) {
      assert.deepEqual(await pageByDistance(index, all, centre, offset, count, slicer), sorted.slice(offset, offset + count));
    }
  });

  it('groups a view by cell in slices exactly as at once, filtered and finer than the pyramid', async () => {
    const keep = (idx: number) => index.rank[idx] % 2 === 0;
    for (const [resolution, filter] of [
      [3, keep],
      [10, null],
      [12, keep],
    ] as const) {
      const once = pyramidCells(index, pyramid, WORLD, resolution, filter);
      const { value: sliced, turns } = await turnsDuring(() =>
        slicer.run((pause) => pyramidCellsSliced(index, pyramid, WORLD, resolution, filter, pause)),
      );
      assert.equal(sliced.total, once.total);
      assert.deepEqual(
        sliced.cells.map((c) => [c.hi, c.lo, c.count, c.best]),
        once.cells.map((c) => [c.hi, c.lo, c.count, c.best]),
      );
      assert.ok(turns > 10, `r${resolution}: ${turns} turns`);
    }
  });

  it('walks a filtered whole-world view down the pyramid in slices too, before scanning its stays', async () => {
    const level = 6;
    let turnsBeforeScan: number | null = null;
    const { value: sliced } = await turnsDuring((turns) =>
      slicer.run((pause) =>
        pyramidCellsSliced(
          index,
          pyramid,
          WORLD,
          level,
          (idx) => {
            turnsBeforeScan ??= turns();
            return index.rank[idx] % 2 === 0;
          },
          pause,
        ),
      ),
    );
    const keep = (idx: number) => index.rank[idx] % 2 === 0;
    assert.deepEqual(
      sliced.cells.map((c) => [c.hi, c.lo, c.count, c.best]),
      pyramidCells(index, pyramid, WORLD, level, keep).cells.map((c) => [c.hi, c.lo, c.count, c.best]),
    );
    // Every r6 piece is walked first (one per 256 pieces a pause); before, the whole walk ran in
    // the task's first turn, however many pieces the view held.
    const pieces = pyramid.levels[level].size;
    assert.ok(pieces > 4 * 256, `the view walks ${pieces} pieces: too few to need slices`);
    assert.ok((turnsBeforeScan ?? 0) >= 4, `${turnsBeforeScan} event-loop turns before the first stay was scanned`);
  });
});
