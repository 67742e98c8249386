import type { BoundingBox } from '../geo/bounding-box.ts';

const RAD = Math.PI / 180;

/** H3 cells covering the Earth at a resolution: 12 pentagons and the rest hexagons, 2 + 120 x 7^r. */
export function cellsOnEarth(resolution: number): number {
  return 2 + 120 * 7 ** resolution;
}

/** Share of the Earth's surface inside the box (on a sphere); a box with west > east crosses 180. */
export function boxShareOfEarth(box: BoundingBox): number {
  const width = box.west <= box.east ? box.east - box.west : box.east + 360 - box.west;
  return (width * RAD * (Math.sin(box.north * RAD) - Math.sin(box.south * RAD))) / (4 * Math.PI);
}

/** How many cells of a resolution a box holds, on average. */
export function expectedCells(box: BoundingBox, resolution: number): number {
  return boxShareOfEarth(box) * cellsOnEarth(resolution);
}

/**
 * The clustering resolution of a viewport: the one whose average cell makes the box hold about
 * `targetCells` cells (closest on a log scale), clamped to `maxResolution`. Resolutions step by 7x
 * in area, so the box holds between targetCells / sqrt(7) and targetCells x sqrt(7) cells
 * (38 to 265 for 100), fewer only where the clamp applies (tight viewports) or at r0 (the world
 * is 122 cells). A box without area gets `maxResolution`.
 */
export function chooseResolution(box: BoundingBox, options: { targetCells: number; maxResolution: number }): number {
  const share = boxShareOfEarth(box);
  if (!(share > 0)) return options.maxResolution;
  let best = 0;
  let bestDistance = Infinity;
  for (let r = 0; r <= options.maxResolution; r++) {
    const distance = Math.abs(Math.log((share * cellsOnEarth(r)) / options.targetCells));
    if (distance < bestDistance) {
      best = r;
      bestDistance = distance;
    }
  }
  return best;
}
