// Viewport and radius geometry in degrees. A box may cross the antimeridian: then `west > east`
// (west = 170, east = -170 is the 20-degree strip around longitude 180), which is how map clients
// send such viewports and avoids a second representation.

import { distanceMeters } from './distance.ts';

export interface BoundingBox {
  /** Latitudes in [-90, 90], north >= south. */
  north: number;
  south: number;
  /** Longitudes in [-180, 180]; west > east means the box crosses the antimeridian. */
  east: number;
  west: number;
}

const RAD = Math.PI / 180;
/** Taken from distanceMeters so both use the same Earth radius: one degree of a great circle. */
const METERS_PER_DEGREE = distanceMeters(0, 0, 1, 0);
/**
 * Degrees added on every side (about 0.1 mm): the box is a prefilter before an exact distance
 * test, and float rounding must not drop a point lying exactly on the circle.
 */
const PAD_DEGREES = 1e-9;

/**
 * Great-circle distance between the south-west and north-east corners: a rough measure of how
 * much of the world a viewport shows. Across the antimeridian the corners are joined the short way.
 */
export function boxDiagonalMeters(box: BoundingBox): number {
  return distanceMeters(box.south, box.west, box.north, box.east);
}

/** Does the box contain the point? Honours the antimeridian convention above. */
export function boxContainsPoint(box: BoundingBox, lat: number, lng: number): boolean {
  if (lat < box.south || lat > box.north) return false;
  return box.west <= box.east ? lng >= box.west && lng <= box.east : lng >= box.west || lng <= box.east;
}

/**
 * The smallest box containing the circle of `radiusMeters` around the point. Latitudes are clamped
 * at the poles; a circle that reaches a pole spans every longitude. East and west come from the
 * meridians tangent to the circle (not the circle's widest point at its own latitude, which would
 * be too narrow away from the equator); they wrap past ±180, giving west > east.
 */
export function boxAroundPoint(lat: number, lng: number, radiusMeters: number): BoundingBox {
  if (!(lat >= -90 && lat <= 90)) throw new RangeError(`latitude out of range: ${lat}`);
  if (!(lng >= -180 && lng <= 180)) throw new RangeError(`longitude out of range: ${lng}`);
  if (!(radiusMeters >= 0) || !Number.isFinite(radiusMeters)) throw new RangeError(`invalid radius: ${radiusMeters}`);

  const angular = radiusMeters / METERS_PER_DEGREE + PAD_DEGREES; // degrees of arc
  const north = lat + angular;
  const south = lat - angular;
  if (north >= 90 || south <= -90) {
    return { north: Math.min(90, north), south: Math.max(-90, south), east: 180, west: -180 };
  }

  // Tangent meridians: sin(dLng) = sin(r) / cos(lat). A circle that misses both poles has
  // r < 90 - |lat|, so the ratio is below 1 and dLng below 90: the box never wraps onto itself.
  const dLng = Math.asin(Math.sin(angular * RAD) / Math.cos(lat * RAD)) / RAD;
  let west = lng - dLng;
  let east = lng + dLng;
  if (west < -180) west += 360;
  if (east > 180) east -= 360;
  return { north, south, east, west };
}
