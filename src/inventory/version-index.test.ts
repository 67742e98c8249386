import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { latLngToCell } from 'h3-js';
import { parentHoldsMask } from '../geo/exact-cell.ts';
import { cellHalves, cellString } from '../geo/h3-cell.ts';
import { encodeIndexChunk, INDEX_CHUNK_ROWS } from '../store/index-chunk.ts';
import type { IndexChunk, RankedStay } from '../store/store.ts';
import { syntheticStays } from '../test-support/synthetic-stays.ts';
import { encodeChunkCells } from './exact-cells.ts';
import { assembleVersionIndex, buildVersionIndexParts } from './version-index.ts';

/** The stays' chunks as a publish writes them, each with the cells `cellsOf` makes (or none). */
async function* chunksOf(
  stays: RankedStay[],
  cellsOf: ((chunk: readonly RankedStay[]) => Uint8Array | null)[],
): AsyncGenerator<IndexChunk> {
  for (let from = 0, c = 0; from < stays.length; from += INDEX_CHUNK_ROWS, c++) {
    const chunk = stays.slice(from, from + INDEX_CHUNK_ROWS);
    yield { ...encodeIndexChunk(chunk), cells: cellsOf[c](chunk) };
  }
}

describe('a version index built from chunks', () => {
  const stays = syntheticStays(20_000); // two chunks
  // A stay with a resolution where its cell is not proven to be its res-15 cell's parent: there,
  // the cell is h3-js's answer, computed or stored.
  const unproven = (s: RankedStay) => {
    const { hi, lo } = cellHalves(s.h3)!;
    const mask = parentHoldsMask(hi, lo, 8);
    return [...Array(9).keys()].find((r) => !((mask >>> r) & 1));
  };
  const moved = stays.findIndex((s) => unproven(s) !== undefined);
  const r = unproven(stays[moved])!;
  const there = { lat: stays[moved].lat + 1, lng: stays[moved].lng + 1 };
  // The cells kept for that stay as if it stood a degree away: what the build reads, it shows.
  const told = (chunk: readonly RankedStay[]) =>
    encodeChunkCells(
      chunk.map((s) => (s.idx === moved ? { ...s, ...there } : s)),
      8,
    );
  const cellOf = async (cellsOf: ((chunk: readonly RankedStay[]) => Uint8Array | null)[]) => {
    const { pyramid } = assembleVersionIndex(await buildVersionIndexParts(1, chunksOf(stays, cellsOf), { clusterMaxResolution: 8 }));
    const out = new Uint32Array(2);
    pyramid.cellOf(moved, r, out);
    return cellString(out[0], out[1]);
  };

  test('places stays in the cells every chunk kept', async () => {
    assert.equal(await cellOf([told, (chunk) => encodeChunkCells(chunk, 8)]), latLngToCell(there.lat, there.lng, r));
  });

  test('computes them when a chunk kept none', async () => {
    assert.equal(await cellOf([told, () => null]), latLngToCell(stays[moved].lat, stays[moved].lng, r));
  });
});
