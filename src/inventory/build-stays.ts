import { hash } from 'node:crypto';
import { latLngToCell } from 'h3-js';
import type { RankedStay } from '../store/store.ts';
import { SUPPLIER_IDS, type Listing, type Rating } from '../types.ts';
import { rankStays, type RankSettings } from './rank-stays.ts';
import { createSharing } from './share-listing-parts.ts';

/** Resolution of the H3 cell stored with each stay: the finest, so any coarser cell derives from it. */
const H3_RESOLUTION = 15;

const SUPPLIER_ORDER = new Map<string, number>(SUPPLIER_IDS.map((id, i) => [id, i]));

/**
 * The service id of a group: 'st' + 12 base-32 digits (0-9a-v, 60 bits) of a hash of its smallest
 * `supplier:supplierStayId`. It survives re-ingests as long as that listing stays in the group;
 * a collision among a few million stays is ~1e-6 likely, and buildStays detects it. The prefix
 * keeps it from looking like a supplier id (numeric at most APIs).
 */
export function serviceId(listings: readonly Listing[], salt = 0): string {
  let key: string | null = null;
  for (const listing of listings) {
    const candidate = `${listing.supplier}:${listing.supplierStayId}`;
    if (key === null || candidate < key) key = candidate;
  }
  if (key === null) throw new Error('serviceId: a stay needs at least one listing');
  // SHA-1 is no security measure here, just a fast, well-mixed, stable digest.
  const digest = hash('sha1', salt === 0 ? key : `${key}#${salt}`, 'buffer');
  const high = digest.readUInt32BE(0) >>> 2; // 30 bits
  const low = digest.readUInt32BE(4) >>> 2; // 30 bits
  return `st${high.toString(32).padStart(6, '0')}${low.toString(32).padStart(6, '0')}`;
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
  for (let i = 1; i < listings.length; i++) {
    const listing = listings[i];
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
 * usually the official classification the other supplier has not caught up with). A listing
 * without a guest rating (value null: its API has none) adds nothing to the value or the count,
 * only its star class; with none rated, the value is null and the count 0 (docs/decisions.md 135).
 */
export function averageRating(listings: readonly Listing[]): Rating {
  let weighted = 0;
  let count = 0;
  let plain = 0;
  let rated = 0;
  let hotelStars: number | null = null;
  let votes = 0;
  for (const { rating } of listings) {
    if (rating.value !== null) {
      weighted += rating.value * rating.count;
      count += rating.count;
      plain += rating.value;
      rated++;
    }
    const stars = rating.hotelStars;
    if (stars === null || stars === hotelStars) continue;
    // A group has at most four listings: counting by scanning beats building a map.
    let seen = 0;
    for (const other of listings) if (other.rating.hotelStars === stars) seen++;
    if (seen > votes || (seen === votes && hotelStars !== null && stars > hotelStars)) {
      hotelStars = stars;
      votes = seen;
    }
  }
  if (rated === 0) return { value: null, hotelStars, count: 0 };
  const value = count > 0 ? weighted / count : plain / rated;
  return { value: roundTenth(value), hotelStars, count };
}

/**
 * One stay from one group of listings; idx and rank are -1 until buildStays places it. The stay
 * keeps the group's array as its listings, put in SUPPLIER_IDS order: the group is the stay's from
 * then on (a copy each was ~40 bytes a stay, 300 MB at 10M stays: issue 22).
 */
function buildStay(group: Listing[], id?: string): RankedStay {
  const listings = group.length === 1 ? group : group.sort((a, b) => SUPPLIER_ORDER.get(a.supplier)! - SUPPLIER_ORDER.get(b.supplier)!);
  const preferred = preferredListing(listings);
  return {
    idx: -1,
    rank: -1,
    id: id ?? serviceId(listings),
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
 * Stays from merged groups (inventory/merge-listings.ts), which become the stays' listings (put in
 * supplier order). idx follows the H3 cell, so stays that
 * are near each other are near each other in the store and in the index columns; rank is the
 * global ranking (rank-stays.ts) under the settings' prior.
 */
export function buildStays(groups: readonly Listing[][], settings: RankSettings, givenIds?: readonly string[]): RankedStay[] {
  const stays: RankedStay[] = [];
  // Equal ratings one object: a stay's rating is a new object (~60 bytes), mostly one of few.
  const ratings = createSharing<Rating>();
  groups.forEach((group, g) => {
    if (group.length === 0) return;
    const stay = buildStay(group, givenIds?.[g]);
    const { value, hotelStars, count } = stay.averageRating;
    stay.averageRating = ratings(`${value} ${hotelStars} ${count}`, stay.averageRating);
    stays.push(stay);
  });
  // Equal-length hex strings: string order is numeric order, and H3's digits run coarse to fine.
  stays.sort((a, b) => (a.h3 < b.h3 ? -1 : a.h3 > b.h3 ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const ids = new Set<string>();
  for (const stay of stays) {
    // Only a listing in two groups or a 60-bit hash collision gets here; either would make one
    // stay unreachable by id, so ingestion stops rather than serve it.
    if (ids.has(stay.id)) throw new Error(`two stays got the same service id ${stay.id}`);
    ids.add(stay.id);
  }
  const ranks = rankStays(stays, settings);
  for (let idx = 0; idx < stays.length; idx++) {
    stays[idx].idx = idx;
    stays[idx].rank = ranks[idx];
  }
  return stays;
}
