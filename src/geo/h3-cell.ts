// H3 cell ids as two uint32 halves, and the arithmetic the clustering needs on them, without
// calling into h3-js (whose every call crosses into WebAssembly and allocates a string).
//
// An H3 cell id is 64 bits: bit 63 reserved (0), bits 59-62 mode (1 = cell), bits 56-58 reserved,
// bits 52-55 the resolution, bits 45-51 the base cell, then fifteen 3-bit digits, digit 1 in
// bits 42-44 down to digit 15 in bits 0-2. A cell of resolution r keeps digits 1..r and sets the
// others to 7. So the parent at resolution r is: write r into the resolution field and set every
// digit below r to 7. Digit 5 straddles the halves (bits 30-32), which the masks below handle.
//
// Because the digits run coarse to fine, the res-15 descendants of any cell are one contiguous
// range of ids. They are not the stays inside the cell, though: H3 cells do not nest, and near an
// edge a point's cell at a resolution is a neighbour of its res-15 cell's parent (exact-cell.ts).

import { cellToBoundary, cellToLatLng, latLngToCell } from 'h3-js';
import type { BoundingBox } from './bounding-box.ts';

/** The finest H3 resolution. */
export const H3_MAX_RESOLUTION = 15;

const RES_SHIFT = 20; // the resolution field, bits 52-55, is bits 20-23 of the high half
const RES_MASK = 0xf << RES_SHIFT;

/** For each resolution r, the bits of digits r+1..15 in the high and the low half. */
const HI_DIGITS = new Uint32Array(16);
const LO_DIGITS = new Uint32Array(16);
for (let r = 0; r <= H3_MAX_RESOLUTION; r++) {
  const bits = 3 * (H3_MAX_RESOLUTION - r); // digits r+1..15 fill bits 0..bits-1 of the id
  LO_DIGITS[r] = bits >= 32 ? 0xffffffff : (2 ** bits - 1) >>> 0;
  HI_DIGITS[r] = bits > 32 ? (2 ** (bits - 32) - 1) >>> 0 : 0;
}

/** Resolution of a cell, from the high half of its id. */
export function resolutionOf(hi: number): number {
  return (hi >>> RES_SHIFT) & 0xf;
}

/** High half of the parent at resolution `res` (at most the cell's own) of the cell with this high half. */
export function parentHi(hi: number, res: number): number {
  return ((hi & ~RES_MASK) | (res << RES_SHIFT) | HI_DIGITS[res]) >>> 0;
}

/** Low half of the parent at resolution `res` of a cell with this low half. */
export function parentLo(lo: number, res: number): number {
  return (lo | LO_DIGITS[res]) >>> 0;
}

/** The halves of a cell id written as H3's hex string; null when it is not hex of at most 16 digits. */
export function cellHalves(cell: string): { hi: number; lo: number } | null {
  if (!/^[0-9a-fA-F]{1,16}$/.test(cell)) return null;
  const cut = Math.max(0, cell.length - 8);
  return { hi: cut === 0 ? 0 : parseInt(cell.slice(0, cut), 16), lo: parseInt(cell.slice(cut), 16) };
}

/** Two hex digits of each byte value. */
const HEX_BYTE = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));
const hex8 = (x: number): string => HEX_BYTE[x >>> 24] + HEX_BYTE[(x >>> 16) & 255] + HEX_BYTE[(x >>> 8) & 255] + HEX_BYTE[x & 255];
const ZERO = 48;

/**
 * The hex string of the cell with these halves, as h3-js writes it (lower case, no leading zeros).
 * By a table of bytes: Number#toString(16) took 16% of a clustered search, one id per cluster.
 */
export function cellString(hi: number, lo: number): string {
  if (hi === 0) return lo.toString(16);
  const high = hex8(hi);
  let zeros = 0;
  while (high.charCodeAt(zeros) === ZERO) zeros++;
  return (zeros === 0 ? high : high.slice(zeros)) + hex8(lo);
}

/**
 * The first and last resolution-15 ids under the cell (its digits below its resolution at 0, then
 * at 7), as halves: a res-15 id lies under the cell exactly when it falls within them.
 */
export function descendantRange(hi: number, lo: number): { firstHi: number; firstLo: number; lastHi: number; lastLo: number } {
  const res = resolutionOf(hi);
  const hi15 = ((hi & ~RES_MASK) | (H3_MAX_RESOLUTION << RES_SHIFT)) >>> 0;
  return {
    firstHi: (hi15 & ~HI_DIGITS[res]) >>> 0,
    firstLo: (lo & ~LO_DIGITS[res]) >>> 0,
    lastHi: (hi15 | HI_DIGITS[res]) >>> 0,
    lastLo: (lo | LO_DIGITS[res]) >>> 0,
  };
}

/** Order of two ids given as halves: negative, zero or positive. */
export function compareHalves(aHi: number, aLo: number, bHi: number, bLo: number): number {
  return aHi !== bHi ? aHi - bHi : aLo - bLo;
}

/** Centre of a cell written as H3's hex string. */
export function cellCentre(cell: string): { lat: number; lng: number } {
  const [lat, lng] = cellToLatLng(cell);
  return { lat, lng };
}

/**
 * One number for a cell among the cells of one resolution: base cell and digits, 52 bits, so
 * exact in a double (mode and resolution, the same for all of them, are left out).
 */
export function cellKey(hi: number, lo: number): number {
  return (hi & 0xfffff) * 0x100000000 + lo;
}

/** High half of the cell of resolution `res` whose cellKey is `key`. */
export function keyHi(key: number, res: number): number {
  return ((1 << 27) | (res << RES_SHIFT) | Math.floor(key / 0x100000000)) >>> 0;
}

/** Low half of the cell whose cellKey is `key`. */
export function keyLo(key: number): number {
  return key % 0x100000000;
}

/**
 * A box holding the cell written as H3's hex string: its vertices' box, padded by a tenth of its
 * size for the edges, great-circle arcs between the vertices, which bow out of that box by far less
 * than that for cells of r3 and finer. A cell across the antimeridian gives a box with
 * west > east; one around a pole reaches it and spans every longitude.
 */
export function cellBox(cell: string): BoundingBox {
  const res = resolutionOf(cellHalves(cell)!.hi);
  let south = 90,
    north = -90,
    west = 180,
    east = -180,
    westOfPositive = 180,
    eastOfNegative = -180;
  for (const [lat, lng] of cellToBoundary(cell)) {
    south = Math.min(south, lat);
    north = Math.max(north, lat);
    west = Math.min(west, lng);
    east = Math.max(east, lng);
    if (lng >= 0) westOfPositive = Math.min(westOfPositive, lng);
    else eastOfNegative = Math.max(eastOfNegative, lng);
  }
  const padLat = (north - south) / 10 + 1e-9;
  south = Math.max(-90, south - padLat);
  north = Math.min(90, north + padLat);
  if (latLngToCell(90, 0, res) === cell) return { south, north: 90, west: -180, east: 180 };
  if (latLngToCell(-90, 0, res) === cell) return { south: -90, north, west: -180, east: 180 };
  if (east - west > 180) {
    const padLng = (eastOfNegative + 360 - westOfPositive) / 10 + 1e-9;
    return { south, north, west: westOfPositive - padLng, east: eastOfNegative + padLng };
  }
  const padLng = (east - west) / 10 + 1e-9;
  return { south, north, west: Math.max(-180, west - padLng), east: Math.min(180, east + padLng) };
}
