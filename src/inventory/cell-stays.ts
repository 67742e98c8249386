import { cellBox, cellString, resolutionOf } from '../geo/h3-cell.ts';
import type { CellPyramid } from './cell-pyramid.ts';
import type { StayIndex } from './stay-index.ts';

/**
 * idx of the stays whose coordinates lie in the cell (hi, lo) of any resolution, that is whose
 * latLngToCell at its resolution is the cell: what the `cell` filter keeps. Up to the pyramid's
 * deepest level its pieces list them; a finer cell is small, so the stays in a box around its
 * hexagon are each checked.
 */
export function cellStays(index: StayIndex, pyramid: CellPyramid, hi: number, lo: number): number[] {
  const res = resolutionOf(hi);
  const out: number[] = [];
  if (res <= pyramid.maxResolution) {
    const runs = pyramid.cellRuns(hi, lo);
    for (let i = 0; i < runs.length; i += 2) for (let p = runs[i]; p < runs[i + 1]; p++) out.push(pyramid.idxAt(p));
    return out;
  }
  const box = cellBox(cellString(hi, lo));
  const cell = new Uint32Array(2);
  for (const idx of index.inBox(box.south, box.west, box.north, box.east)) {
    pyramid.cellOf(idx, res, cell);
    if (cell[0] === hi && cell[1] === lo) out.push(idx);
  }
  return out;
}
