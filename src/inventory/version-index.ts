// A content version's in-memory index and cell pyramid: built in the content worker from the
// store's chunks of a version (one it has just published, one published elsewhere, or the stored
// one at a start); handed over as typed arrays, transferred, not copied; assembled into views on
// the gateway's thread.
import type { IndexChunk } from '../store/store.ts';
import type { Settings } from '../types.ts';
import { assembleCellPyramid, cellPyramidParts, type CellPyramid, type CellPyramidParts } from './cell-pyramid.ts';
import { storedCells } from './exact-cells.ts';
import { buildStayIndexColumns, stayIndexFromColumns, type StayIndex, type StayIndexColumns } from './stay-index.ts';

/** A version's index and pyramid, what its searches read. */
export interface VersionIndex {
  no: number;
  index: StayIndex;
  pyramid: CellPyramid;
}

/** What a version's index is made of, built in the worker and sent over; `ms`, how long the build took there. */
export interface VersionIndexParts {
  no: number;
  columns: StayIndexColumns;
  pyramid: CellPyramidParts;
  ms: number;
}

/** Builds version `no`'s index columns and pyramid parts from its chunks (in idx order), with the exact cells they kept, if all did. */
export async function buildVersionIndexParts(
  no: number,
  chunks: AsyncIterable<IndexChunk>,
  settings: Pick<Settings, 'clusterMaxResolution'>,
): Promise<VersionIndexParts> {
  const started = performance.now();
  const cells: { cells: Uint8Array | null; rows: number }[] = [];
  const columns = await buildStayIndexColumns(
    (async function* () {
      for await (const chunk of chunks) {
        cells.push({ cells: chunk.cells ?? null, rows: chunk.rowCount });
        yield chunk;
      }
    })(),
  );
  const pyramid = cellPyramidParts(stayIndexFromColumns(columns), {
    maxResolution: settings.clusterMaxResolution,
    stored: storedCells(cells, columns.size),
  });
  return { no, columns, pyramid, ms: Math.round(performance.now() - started) };
}

/** The index and pyramid over parts built in the worker: views only, no copy. */
export function assembleVersionIndex(parts: VersionIndexParts): VersionIndex {
  const index = stayIndexFromColumns(parts.columns);
  return { no: parts.no, index, pyramid: assembleCellPyramid(index, parts.pyramid) };
}
