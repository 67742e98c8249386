// The steps of a search whose cost grows with the stays it touches (listing a box, filtering,
// ranking), done in time slices when they touch many: a search over the whole world is then
// no longer one long block of the event loop (search/work-slicer.ts), while a city search, the
// common case, runs as before in one go.
import { boxContainsPoint, type BoundingBox } from '../geo/bounding-box.ts';
import { distanceMeters } from '../geo/distance.ts';
import type { StayIndex } from '../inventory/stay-index.ts';
import { selectByRank } from './select-by-rank.ts';
import type { Pause, WorkSlicer } from './work-slicer.ts';

/** From this many stays on, a step runs in slices. */
export const LARGE_STEP = 20_000;

/** Every 256 steps a sliced loop offers to pause. */
const PAUSE_MASK = 255;

/** idx of the stays inside the box: a kd-tree query, or for a box holding very many, a scan of every stay in slices. */
export async function boxCandidates(index: StayIndex, box: BoundingBox, slicer: WorkSlicer): Promise<number[]> {
  const { south, west, north, east } = box;
  if (index.countInBox(south, west, north, east) <= LARGE_STEP) return index.inBox(south, west, north, east);
  return slicer.run(async (pause) => {
    const out: number[] = [];
    for (let idx = 0; idx < index.size; idx++) {
      if (boxContainsPoint(box, index.lat[idx], index.lng[idx])) out.push(idx);
      if ((idx & PAUSE_MASK) === 0) await pause();
    }
    return out;
  });
}

/** The candidates the predicate keeps, in order. */
export async function keepMatching(candidates: readonly number[], keep: (idx: number) => boolean, slicer: WorkSlicer): Promise<number[]> {
  if (candidates.length <= LARGE_STEP) return candidates.filter(keep);
  return slicer.run(async (pause) => {
    const out: number[] = [];
    for (let i = 0; i < candidates.length; i++) {
      if (keep(candidates[i])) out.push(candidates[i]);
      if ((i & PAUSE_MASK) === 0) await pause();
    }
    return out;
  });
}

/**
 * selectByRank for any number of candidates: many are marked, then the global ranking is walked
 * in slices until the page is filled (no sort of the whole list in one go).
 */
export async function pageByRank(
  index: StayIndex,
  candidates: readonly number[],
  offset: number,
  count: number,
  slicer: WorkSlicer,
): Promise<number[]> {
  if (candidates.length <= LARGE_STEP) return selectByRank(candidates, index.rank, index.byRank, offset, count);
  return slicer.run(async (pause: Pause) => {
    const marked = new Uint8Array(index.size);
    for (let i = 0; i < candidates.length; i++) {
      marked[candidates[i]] = 1;
      if ((i & PAUSE_MASK) === 0) await pause();
    }
    const out: number[] = [];
    let skip = offset;
    for (let r = 0; r < index.size && out.length < count; r++) {
      const idx = index.byRank[r];
      if (marked[idx] === 1) {
        if (skip > 0) skip--;
        else out.push(idx);
      }
      if ((r & PAUSE_MASK) === 0) await pause();
    }
    return out;
  });
}

/**
 * The page of candidates nearest the centre (ties by rank), skipping `offset`: a bounded heap of
 * the `offset + count` nearest, filled in slices, rather than a sort of every candidate.
 */
export async function pageByDistance(
  index: StayIndex,
  candidates: readonly number[],
  centre: { lat: number; lng: number },
  offset: number,
  count: number,
  slicer: WorkSlicer,
): Promise<number[]> {
  const k = offset + count;
  if (k <= 0 || candidates.length === 0) return [];
  const work = async (pause: Pause): Promise<number[]> => {
    // A max-heap on (distance, rank): its top is the farthest of the nearest k so far.
    const heap: number[] = [];
    const dist: number[] = [];
    const after = (i: number, j: number) => dist[i] > dist[j] || (dist[i] === dist[j] && index.rank[heap[i]] > index.rank[heap[j]]);
    const swap = (i: number, j: number) => {
      [heap[i], heap[j]] = [heap[j], heap[i]];
      [dist[i], dist[j]] = [dist[j], dist[i]];
    };
    const down = (i: number) => {
      for (;;) {
        const l = 2 * i + 1,
          r = l + 1;
        let top = i;
        if (l < heap.length && after(l, top)) top = l;
        if (r < heap.length && after(r, top)) top = r;
        if (top === i) return;
        swap(i, top);
        i = top;
      }
    };
    for (let n = 0; n < candidates.length; n++) {
      const idx = candidates[n];
      const d = distanceMeters(centre.lat, centre.lng, index.lat[idx], index.lng[idx]);
      if (heap.length < k) {
        heap.push(idx);
        dist.push(d);
        for (let i = heap.length - 1; i > 0 && after(i, (i - 1) >> 1); i = (i - 1) >> 1) swap(i, (i - 1) >> 1);
      } else if (d < dist[0] || (d === dist[0] && index.rank[idx] < index.rank[heap[0]])) {
        heap[0] = idx;
        dist[0] = d;
        down(0);
      }
      if ((n & PAUSE_MASK) === 0) await pause();
    }
    const order = heap.map((_, i) => i).sort((a, b) => dist[a] - dist[b] || index.rank[heap[a]] - index.rank[heap[b]]);
    return order.slice(offset).map((i) => heap[i]);
  };
  return candidates.length <= LARGE_STEP ? work(() => undefined) : slicer.run(work);
}
