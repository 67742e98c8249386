// Plain geometry of the simulated world, shared by its generation and its daily changes.

const METRES_PER_DEGREE = 111_320;

export const round6 = (x: number): number => Math.round(x * 1e6) / 1e6;
export const round1 = (x: number): number => Math.round(x * 10) / 10;
export const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));

/** The point `metres` away along `bearing` (radians), on a flat local approximation; latitude kept off the poles. */
export function offsetPoint(lat: number, lng: number, metres: number, bearing: number): { lat: number; lng: number } {
  const newLat = clamp(lat + (metres * Math.cos(bearing)) / METRES_PER_DEGREE, -85, 85);
  let newLng = lng + (metres * Math.sin(bearing)) / (METRES_PER_DEGREE * Math.cos((newLat * Math.PI) / 180));
  if (newLng > 180) newLng -= 360;
  if (newLng < -180) newLng += 360;
  return { lat: newLat, lng: newLng };
}
