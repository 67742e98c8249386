import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { latLngToCell } from 'h3-js';
import { cellKey, cellString } from '../geo/h3-cell.ts';
import { syntheticIndex, syntheticPoints } from '../test-support/synthetic-index.ts';
import { encodeChunkCells, exactCells, holdsOf, storedCells, type ExactCells } from './exact-cells.ts';
import type { StayIndex } from './stay-index.ts';

/** Each stay's cell at r, as a string. */
const cellAt = (exact: ExactCells, r: number, idx: number): string =>
  cellString(exact.cellHi[r][exact.cell[r][idx]], exact.cellLo[r][exact.cell[r][idx]]);

/** The index's stays cut into chunks of these sizes (the rest in the last), as a publish hands them to encodeChunkCells. */
function chunksOf(index: StayIndex, sizes: number[]) {
  const stays = Array.from({ length: index.size }, (_, idx) => ({
    lat: index.lat[idx],
    lng: index.lng[idx],
    h3: cellString(index.h3Hi[idx], index.h3Lo[idx]),
  }));
  const chunks: { lat: number; lng: number; h3: string }[][] = [];
  let from = 0;
  for (const size of [...sizes, index.size]) {
    if (from >= index.size) break;
    chunks.push(stays.slice(from, Math.min(index.size, from + size)));
    from += size;
  }
  return chunks;
}

const stored = (index: StayIndex, maxResolution: number, sizes = [1000, 1337]) =>
  storedCells(
    chunksOf(index, sizes).map((chunk) => ({ cells: encodeChunkCells(chunk, maxResolution), rows: chunk.length })),
    index.size,
  );

describe('exact cells', async () => {
  const index = await syntheticIndex(syntheticPoints(4_000), { cellOrder: true });
  const computed = exactCells(index, 8);

  test("are every stay's latLngToCell at each resolution", () => {
    for (let r = 0; r <= 8; r++)
      for (let idx = 0; idx < index.size; idx += 7) assert.equal(cellAt(computed, r, idx), latLngToCell(index.lat[idx], index.lng[idx], r));
  });

  test("take a stay's res-15 cell's parent wherever it is proven, stored or not: h3-js is asked for the rest only", () => {
    const share = (holds: Uint16Array, from: number, to: number) => {
      let set = 0;
      for (const h of holds) for (let r = from; r <= to; r++) set += (h >>> r) & 1;
      return set / (holds.length * (to - from + 1));
    };
    const proven = holdsOf(index, 8, null);
    assert.ok(share(proven, 0, 8) > 0.75, `nothing stored: ${share(proven, 0, 8)} of stays and resolutions proven`);
    const cells = stored(index, 5)!;
    const mixed = holdsOf(index, 8, cells);
    assert.deepEqual(
      [share(mixed, 0, 5), share(mixed, 6, 8)],
      [share(cells.holds, 0, 5), share(proven, 6, 8)],
      'stored to r5, proven past it',
    );
    assert.ok(share(cells.holds, 0, 5) >= share(proven, 0, 5), 'a stored bit is set wherever the proof holds, and where h3-js agreed');
    assert.equal(share(cells.holds, 6, 8), 0, 'and the stored bits are left as they were');
  });

  test('read from what a publish stored, chunk by chunk, are the same as computed', () => {
    const cells = stored(index, 8);
    assert.ok(cells, 'stored');
    assert.ok(
      cells.keys.some((keys) => keys.length > 0),
      'some stays lie outside their res-15 cell parent',
    );
    assert.deepEqual(exactCells(index, 8, cells), computed);
  });

  test('are computed past the resolution stored, and the stored ones past the one asked are left', () => {
    assert.deepEqual(exactCells(index, 8, stored(index, 5)), computed);
    const coarse = exactCells(index, 6);
    assert.deepEqual(exactCells(index, 6, stored(index, 8)), coarse);
  });

  test('are read, not computed again: a stored cell is what comes out', () => {
    const cells = stored(index, 8, [])!;
    // The first stay stored apart from its parent at r5 is told another stay's r5 cell.
    const r = 5;
    const first = cells.holds.findIndex((holds) => !((holds >>> r) & 1));
    const other = index.size - 1;
    cells.keys[r][0] = cellKey(computed.cellHi[r][computed.cell[r][other]], computed.cellLo[r][computed.cell[r][other]]);
    const read = exactCells(index, 8, cells);
    assert.notEqual(cellAt(computed, r, first), cellAt(computed, r, other));
    assert.equal(cellAt(read, r, first), cellAt(computed, r, other));
  });

  test('are not read from chunks that kept none, another layout, or other rows', () => {
    const chunks = chunksOf(index, [2000]);
    const encoded = chunks.map((chunk) => ({ cells: encodeChunkCells(chunk, 8), rows: chunk.length }));
    assert.ok(storedCells(encoded, index.size), 'as encoded');
    assert.equal(storedCells([encoded[0], { ...encoded[1], cells: null }], index.size), null, 'a chunk without');
    assert.equal(storedCells(encoded, index.size + 1), null, 'other rows');
    const otherFormat = new Uint8Array(encoded[0].cells);
    otherFormat[0] = 2;
    assert.equal(storedCells([{ ...encoded[0], cells: otherFormat }, encoded[1]], index.size), null, 'another layout');
    const cut = encoded[1].cells.subarray(0, encoded[1].cells.byteLength - 8);
    assert.equal(storedCells([encoded[0], { ...encoded[1], cells: cut }], index.size), null, 'cut short');
    assert.equal(storedCells([], 0), null);
  });
});
