import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { boxAroundPoint, boxContainsPoint, boxDiagonalMeters, type BoundingBox } from './bounding-box.ts';
import { distanceMeters } from './distance.ts';

const RAD = Math.PI / 180;
const EARTH_RADIUS_M = distanceMeters(0, 0, 1, 0) / RAD;

/** The point `meters` from (lat, lng) along `bearing` degrees: walks the circle's boundary. */
function destination(lat: number, lng: number, bearing: number, meters: number): [number, number] {
  const d = meters / EARTH_RADIUS_M;
  const φ1 = lat * RAD;
  const θ = bearing * RAD;
  const φ2 = Math.asin(Math.sin(φ1) * Math.cos(d) + Math.cos(φ1) * Math.sin(d) * Math.cos(θ));
  const λ2 = lng * RAD + Math.atan2(Math.sin(θ) * Math.sin(d) * Math.cos(φ1), Math.cos(d) - Math.sin(φ1) * Math.sin(φ2));
  const wrapped = ((λ2 / RAD + 540) % 360) - 180;
  return [φ2 / RAD, wrapped];
}

/** Every boundary point lies in the box, and the box is no wider or taller than the circle. */
function assertTightAround(box: BoundingBox, lat: number, lng: number, meters: number): void {
  let maxLat = -90;
  let minLat = 90;
  let maxEastward = 0;
  for (let bearing = 0; bearing < 360; bearing += 0.25) {
    const [pLat, pLng] = destination(lat, lng, bearing, meters);
    assert.ok(boxContainsPoint(box, pLat, pLng), `bearing ${bearing}: (${pLat}, ${pLng}) outside ${JSON.stringify(box)}`);
    maxLat = Math.max(maxLat, pLat);
    minLat = Math.min(minLat, pLat);
    maxEastward = Math.max(maxEastward, ((pLng - lng + 540) % 360) - 180);
  }
  const eps = 1e-6;
  assert.ok(Math.abs(box.north - maxLat) < eps, 'north edge is tight');
  assert.ok(Math.abs(box.south - minLat) < eps, 'south edge is tight');
  const halfWidth = ((box.east - lng + 540) % 360) - 180;
  assert.ok(Math.abs(halfWidth - maxEastward) < 1e-4, `east edge is tight: ${halfWidth} vs ${maxEastward}`);
}

describe('boxAroundPoint', () => {
  it('contains the circle and touches it on all four sides', () => {
    for (const [lat, lng] of [
      [48.8566, 2.3522],
      [0, 0],
      [-33.87, 151.21],
      [64.1, -21.9],
      [78.2, 15.6],
    ]) {
      for (const meters of [500, 10_000, 250_000]) {
        assertTightAround(boxAroundPoint(lat, lng, meters), lat, lng, meters);
      }
    }
  });

  it('is (nearly) a point for radius 0', () => {
    const box = boxAroundPoint(10, 20, 0);
    assert.ok(boxContainsPoint(box, 10, 20), 'boxContainsPoint(box, 10, 20)');
    assert.ok(boxDiagonalMeters(box) < 0.001, JSON.stringify(box));
    assert.ok(!boxContainsPoint(box, 10.00001, 20), '!boxContainsPoint(box, 10.00001, 20)');
  });

  it('crosses the antimeridian with west > east', () => {
    const box = boxAroundPoint(-17.7, 179.95, 20_000);
    assert.ok(box.west > box.east, JSON.stringify(box));
    assert.ok(box.west > 179 && box.east < -179, 'box.west > 179 && box.east < -179');
    assert.ok(boxContainsPoint(box, -17.7, 179.99), 'boxContainsPoint(box, -17.7, 179.99)');
    assert.ok(boxContainsPoint(box, -17.7, -179.9), 'boxContainsPoint(box, -17.7, -179.9)');
    assert.ok(!boxContainsPoint(box, -17.7, 0), '!boxContainsPoint(box, -17.7, 0)');
    assertTightAround(box, -17.7, 179.95, 20_000);
    const west = boxAroundPoint(0, -180, 1_000);
    assert.ok(west.west > west.east && west.west < 180, 'west.west > west.east && west.west < 180');
  });

  it('clamps at the poles and spans every longitude when the circle covers one', () => {
    const north = boxAroundPoint(89.95, 10, 10_000);
    assert.deepEqual({ ...north, south: Math.round(north.south * 1000) / 1000 }, { north: 90, south: 89.86, east: 180, west: -180 });
    const south = boxAroundPoint(-89.99, -45, 5_000);
    assert.equal(south.south, -90);
    assert.equal(south.west, -180);
    assert.equal(south.east, 180);
    assert.ok(boxContainsPoint(south, -89.999, 135), 'boxContainsPoint(south, -89.999, 135)');
  });

  it('rejects invalid input', () => {
    assert.throws(() => boxAroundPoint(91, 0, 10), RangeError);
    assert.throws(() => boxAroundPoint(0, 181, 10), RangeError);
    assert.throws(() => boxAroundPoint(0, 0, -1), RangeError);
    assert.throws(() => boxAroundPoint(0, 0, Number.NaN), RangeError);
    assert.throws(() => boxAroundPoint(0, 0, Number.POSITIVE_INFINITY), RangeError);
  });
});

describe('boxDiagonalMeters', () => {
  it('measures corner to corner', () => {
    const oneDegree = distanceMeters(0, 0, 1, 0);
    const diagonal = boxDiagonalMeters({ north: 0.5, south: -0.5, east: 0.5, west: -0.5 });
    assert.ok(Math.abs(diagonal - oneDegree * Math.SQRT2) < 50, String(diagonal));
    assert.equal(boxDiagonalMeters({ north: 1, south: 1, east: 2, west: 2 }), 0);
  });

  it('joins the corners the short way across the antimeridian', () => {
    const across = boxDiagonalMeters({ north: 1, south: -1, east: -179, west: 179 });
    const same = boxDiagonalMeters({ north: 1, south: -1, east: 1, west: -1 });
    assert.ok(Math.abs(across - same) < 1e-6, `${across} vs ${same}`);
  });

  it('is about 2√2 r for a small box around a point at the equator', () => {
    const r = 10_000;
    const diagonal = boxDiagonalMeters(boxAroundPoint(0, 30, r));
    assert.ok(Math.abs(diagonal / (2 * Math.SQRT2 * r) - 1) < 0.001, String(diagonal));
  });
});

describe('boxContainsPoint', () => {
  it('includes the edges and excludes the outside', () => {
    const box = { north: 2, south: 1, east: 4, west: 3 };
    assert.ok(boxContainsPoint(box, 1, 3), 'boxContainsPoint(box, 1, 3)');
    assert.ok(boxContainsPoint(box, 2, 4), 'boxContainsPoint(box, 2, 4)');
    assert.ok(!boxContainsPoint(box, 2.1, 3.5), '!boxContainsPoint(box, 2.1, 3.5)');
    assert.ok(!boxContainsPoint(box, 1.5, 4.1), '!boxContainsPoint(box, 1.5, 4.1)');
  });
});
