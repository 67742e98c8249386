import type KDBush from 'kdbush';

const STACK: number[] = [];

/**
 * Number of points of a finished KDBush inside [minX, maxX] x [minY, maxY], without listing them.
 * kdbush's own `range` visits every point it returns; this walk also tracks each subtree's region
 * (the splits above it bound it), so a subtree lying wholly inside the box is counted in one step.
 * A broad viewport then costs about the square root of its points, not their number.
 */
export function countInBox(tree: KDBush, minX: number, minY: number, maxX: number, maxY: number): number {
  const { ids, coords, nodeSize } = tree;
  if (ids.length === 0) return 0;
  let count = 0;
  let sp = 0;
  // left, right, axis, then the subtree's region: x0, y0, x1, y1 (points lie within +-180/+-90)
  STACK[sp++] = 0;
  STACK[sp++] = ids.length - 1;
  STACK[sp++] = 0;
  STACK[sp++] = -180;
  STACK[sp++] = -90;
  STACK[sp++] = 180;
  STACK[sp++] = 90;

  while (sp > 0) {
    const y1 = STACK[--sp],
      x1 = STACK[--sp],
      y0 = STACK[--sp],
      x0 = STACK[--sp];
    const axis = STACK[--sp],
      right = STACK[--sp],
      left = STACK[--sp];
    if (left > right) continue;
    if (x0 >= minX && x1 <= maxX && y0 >= minY && y1 <= maxY) {
      count += right - left + 1;
      continue;
    }
    if (right - left <= nodeSize) {
      for (let i = left; i <= right; i++) {
        const x = coords[2 * i],
          y = coords[2 * i + 1];
        if (x >= minX && x <= maxX && y >= minY && y <= maxY) count++;
      }
      continue;
    }
    const m = (left + right) >> 1;
    const x = coords[2 * m],
      y = coords[2 * m + 1];
    if (x >= minX && x <= maxX && y >= minY && y <= maxY) count++;
    // kdbush's select puts points <= the median's coordinate on the left, >= on the right.
    if (axis === 0 ? minX <= x : minY <= y) {
      STACK[sp++] = left;
      STACK[sp++] = m - 1;
      STACK[sp++] = 1 - axis;
      STACK[sp++] = x0;
      STACK[sp++] = y0;
      STACK[sp++] = axis === 0 ? x : x1;
      STACK[sp++] = axis === 0 ? y1 : y;
    }
    if (axis === 0 ? maxX >= x : maxY >= y) {
      STACK[sp++] = m + 1;
      STACK[sp++] = right;
      STACK[sp++] = 1 - axis;
      STACK[sp++] = axis === 0 ? x : x0;
      STACK[sp++] = axis === 0 ? y0 : y;
      STACK[sp++] = x1;
      STACK[sp++] = y1;
    }
  }
  return count;
}
