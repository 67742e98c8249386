import { createHash } from 'node:crypto';
import { latLngToCell } from 'h3-js';
import type { RankedStay } from '../store/store.ts';
import { SUPPLIER_IDS, type Listing, type Rating, type Stay } from '../types.ts';
import { rankStays } from './rank-stays.ts';

/** Resolution of the H3 cell stored with each stay: the finest, so any coarser cell derives from it. */
const H3_RESOLUTION = 15;

const SUPPLIER_ORDER = new Map<string, number>(SUPPLIER_IDS.map((id, i) => [id, i]));

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
/** 12 base32 characters = 60 bits: a collision among a few million stays is ~1e-6 likely, and is detected. */
const ID_CHARS = 12;

/**
 * The service id of a group: 'st' + base32 of a hash of its smallest `supplier:supplierStayId`.
 * It survives re-ingests as long as that listing stays in the group, and it cannot be mistaken
 * for a supplier id (those are numeric or, for supplier_b, start with 'HB').
 */
export function serviceId(listings: readonly Listing[]): string {
  let key: string | null = null;
  for (const listing of listings) {
    const candidate = `${listing.supplier}:${listing.supplierStayId}`;
    if (key === null || candidate < key) key = candidate;
  }
  if (key === null) throw new Error('serviceId: a stay needs at least one listing');
  const digest = createHash('sha256').update(key).digest();
  let id = 'st';
  // 5 bits per character, read across byte boundaries.
  for (let i = 0; i < ID_CHARS; i++) {
    const bit = i * 5;
    const byte = bit >> 3;
    const word = (digest[byte] << 8) | digest[byte + 1];
    id += BASE32[(word >> (11 - (bit & 7))) & 31];
  }
  return id;
}

/** A name typed in one case is a content team's shortcut ("HOTEL LUMIERE"), not how the property writes it. */
function isMixedCase(name: string): boolean {
  return name !== name.toUpperCase() && name !== name.toLowerCase();
}

/**
 * The listing whose name, type, address, coordinates and capacity the stay shows: names in mixed
 * case first, then the most reviewed listing (the supplier whose guests know it best), then
 * SUPPLIER_IDS order. One listing supplies all of them so that they agree with each other.
 */
export function preferredListing(listings: readonly Listing[]): Listing {
  let best = listings[0];
  for (const listing of listings.slice(1)) {
    const mixed = Number(isMixedCase(listing.name)) - Number(isMixedCase(best.name));
    if (mixed > 0 || (mixed === 0 && listing.rating.count > best.rating.count)) best = listing;
  }
  return best;
}

const roundTenth = (value: number): number => Math.round(value * 10) / 10;

/**
 * The stay's rating over its listings: the review-count-weighted mean of their values (a plain
 * mean when nobody has reviews yet), one decimal; the total count; the most common star class,
 * the higher one on a tie (suppliers disagreeing on a half star is common, and the higher one is
 * usually the official classification the other supplier has not caught up with).
 */
export function averageRating(listings: readonly Listing[]): Rating {
  let weighted = 0;
  let count = 0;
  let plain = 0;
  const stars = new Map<number, number>();
  for (const { rating } of listings) {
    weighted += rating.value * rating.count;
    count += rating.count;
    plain += rating.value;
    if (rating.hotelStars !== null) stars.set(rating.hotelStars, (stars.get(rating.hotelStars) ?? 0) + 1);
  }
  let hotelStars: number | null = null;
  let votes = 0;
  for (const [value, seen] of stars) {
    if (seen > votes || (seen === votes && hotelStars !== null && value > hotelStars)) {
      hotelStars = value;
      votes = seen;
    }
  }
  const value = count > 0 ? weighted / count : plain / listings.length;
  return { value: roundTenth(value), hotelStars, count };
}

/** One stay from one group of listings, before it has its idx and rank. */
export function buildStay(group: readonly Listing[]): Omit<Stay, 'idx'> {
  const listings = [...group].sort((a, b) => SUPPLIER_ORDER.get(a.supplier)! - SUPPLIER_ORDER.get(b.supplier)!);
  const preferred = preferredListing(listings);
  return {
    id: serviceId(listings),
    name: preferred.name,
    type: preferred.type,
    typeLabel: preferred.typeLabel,
    address: preferred.address,
    lat: preferred.lat,
    lng: preferred.lng,
    h3: latLngToCell(preferred.lat, preferred.lng, H3_RESOLUTION),
    capacity: preferred.capacity,
    averageRating: averageRating(listings),
    listings,
  };
}

/**
 * Stays from merged groups (inventory/merge-listings.ts). idx follows the H3 cell, so stays that
 * are near each other are near each other in the store and in the index columns; rank is the
 * global ranking (rank-stays.ts).
 */
export function buildStays(groups: readonly (readonly Listing[])[]): RankedStay[] {
  const built = groups.filter((group) => group.length > 0).map(buildStay);
  // Equal-length hex strings: string order is numeric order, and H3's digits run coarse to fine.
  built.sort((a, b) => (a.h3 < b.h3 ? -1 : a.h3 > b.h3 ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const ids = new Set<string>();
  for (const stay of built) {
    // Only a listing in two groups or a 60-bit hash collision gets here; either would make one
    // stay unreachable by id, so ingestion stops rather than serve it.
    if (ids.has(stay.id)) throw new Error(`two stays got the same service id ${stay.id}`);
    ids.add(stay.id);
  }
  const ranks = rankStays(built);
  return built.map((stay, idx) => ({ idx, rank: ranks[idx], ...stay }));
}
