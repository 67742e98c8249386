import KDBush from 'kdbush';
import { distanceMeters } from '../geo/distance.ts';
import { SUPPLIER_IDS, type Listing, type Settings } from '../types.ts';
import { createNameFeatures } from './name-similarity.ts';
import { growTypedArray } from './grow-typed-array.ts';

/**
 * The merge's gates: listings further apart than `mergeMaxDistanceMeters`, names less alike than
 * `mergeMinNameSimilarity` (name-similarity.ts, 0..1) or pairs scoring below `mergeMinScore`
 * (name + address - distance, see pairScore) are never one property.
 */
export type MergeSettings = Pick<Settings, 'mergeMaxDistanceMeters' | 'mergeMinNameSimilarity' | 'mergeMinScore'>;

const METRES_PER_DEGREE_LAT = 111_320;
const SUPPLIER_BIT = new Map<string, number>(SUPPLIER_IDS.map((id, i) => [id, 1 << i]));

/**
 * How much the address and the distance weigh against the name in a pair's score, which must
 * reach `mergeMinScore` and orders the greedy merge. A name at the `mergeMinNameSimilarity` floor needs the
 * same address to pass; among pairs that pass, the same address and a shorter distance say which
 * of two look-alikes ("Hotel Aurora", "Aurora Suites") a listing is. Tuned on the simulated world
 * (merge-listings.test.ts prints precision and recall).
 */
const ADDRESS_WEIGHT = 0.5;
const DISTANCE_WEIGHT = 0.3;
/** Two concrete rental types (villa vs house) may be one property classified twice, but less likely so. */
const TYPE_MISMATCH_PENALTY = 0.25;

/** Candidate pairs (listing positions a < b and their score), appended to growable typed arrays. */
function createPairs(expected: number) {
  let a = new Int32Array(Math.max(1024, expected));
  let b = new Int32Array(a.length);
  let score = new Float64Array(a.length);
  let length = 0;
  return {
    push(i: number, j: number, s: number): void {
      if (length === a.length) {
        a = growTypedArray(a, 2 * length);
        b = growTypedArray(b, 2 * length);
        score = growTypedArray(score, 2 * length);
      }
      a[length] = i;
      b[length] = j;
      score[length++] = s;
    },
    get length(): number {
      return length;
    },
    get a(): Int32Array {
      return a;
    },
    get b(): Int32Array {
      return b;
    },
    get score(): Float64Array {
      return score;
    },
  };
}

/** Hotels and rentals are different businesses: a listing of one never merges with the other. */
function typeClass(listing: Listing): number {
  return listing.type === 'hotel' ? 0 : 1;
}

/**
 * Entity resolution: groups the listings that are one property sold by several suppliers under
 * different ids, names written differently and coordinates a few tens of metres apart.
 *
 * Candidates are pairs from different suppliers within `mergeMaxDistanceMeters` (kd-tree range query),
 * of the same class (hotel / rental), with names at least `mergeMinNameSimilarity` alike and a score
 * (name + address - distance - type mismatch) of at least `mergeMinScore`. They are merged greedily,
 * best score first, as long as a group holds at most one listing per supplier and every pair
 * inside it passes the same gates. Best first means a listing joins its closest look-alike, not
 * the first one found: two branches of one chain in one street do not merge, because each has a
 * better partner or none at all.
 *
 * Deterministic for a given input order; every listing is in exactly one group. Groups come out
 * in the order of their first listing.
 */
export function mergeListings(listings: readonly Listing[], settings: MergeSettings): Listing[][] {
  const { mergeMaxDistanceMeters: maxDistance, mergeMinNameSimilarity: minName, mergeMinScore: minScore } = settings;
  const n = listings.length;
  if (n === 0) return [];

  const features = createNameFeatures(listings);
  const bits = Uint8Array.from(listings, (listing) => SUPPLIER_BIT.get(listing.supplier) ?? 0);
  const classes = Uint8Array.from(listings, typeClass);

  const tree = new KDBush(n);
  for (const listing of listings) tree.add(listing.lng, listing.lat);
  tree.finish();

  /**
   * The pair's score, or -1 when the pair may not merge: same supplier, hotel vs rental, too far,
   * names too unlike, or too little evidence overall. Scores order the greedy merge below.
   */
  const pairScore = (i: number, j: number): number => {
    if (bits[i] === bits[j] || classes[i] !== classes[j]) return -1;
    const a = listings[i];
    const b = listings[j];
    const distance = distanceMeters(a.lat, a.lng, b.lat, b.lng);
    if (distance > maxDistance) return -1;
    const name = features.nameSimilarity(i, j);
    if (name < minName) return -1;
    const score =
      name +
      ADDRESS_WEIGHT * features.addressSimilarity(i, j) -
      DISTANCE_WEIGHT * (distance / maxDistance) -
      (a.type === b.type ? 0 : TYPE_MISMATCH_PENALTY);
    return score >= minScore ? score : -1;
  };

  // Candidate pairs in typed arrays, not an object each: at 10M listings the objects, and the
  // array per listing of the union-find below, were gigabytes of the merge's peak (issue 22).
  const candidates = createPairs(n);
  const dLat = maxDistance / METRES_PER_DEGREE_LAT;
  for (let i = 0; i < n; i++) {
    const a = listings[i];
    // Degrees of longitude shrink towards the poles; clamp so the box stays finite near them.
    const dLng = dLat / Math.max(Math.cos((a.lat * Math.PI) / 180), 0.01);
    let near = tree.range(a.lng - dLng, a.lat - dLat, a.lng + dLng, a.lat + dLat);
    // A box over the antimeridian continues on the other side (Fiji, Chukotka).
    if (a.lng + dLng > 180) near = near.concat(tree.range(-180, a.lat - dLat, a.lng + dLng - 360, a.lat + dLat));
    if (a.lng - dLng < -180) near = near.concat(tree.range(a.lng - dLng + 360, a.lat - dLat, 180, a.lat + dLat));
    for (const j of near) {
      if (j <= i) continue;
      const score = pairScore(i, j);
      if (score >= 0) candidates.push(i, j, score);
    }
  }
  const { a: pairA, b: pairB, score: pairScoreOf } = candidates;
  // Best score first; ties by position keep the result independent of the sort's stability.
  const order = Uint32Array.from({ length: candidates.length }, (_, k) => k).sort(
    (x, y) => pairScoreOf[y] - pairScoreOf[x] || pairA[x] - pairA[y] || pairB[x] - pairB[y],
  );

  // Union-find over listings. Each root's members are a linked list that starts at the root
  // (`next`, -1 at its end; `last`, its end), with its size and its suppliers.
  const parent = Int32Array.from({ length: n }, (_, i) => i);
  const next = new Int32Array(n).fill(-1);
  const last = Int32Array.from({ length: n }, (_, i) => i);
  const size = new Int32Array(n).fill(1);
  const mask = Uint8Array.from(bits);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  };
  /** Complete linkage: A~B and B~C must not drag in a C that fails the gates against A. */
  const linkable = (ra: number, rb: number): boolean => {
    if (size[ra] === 1 && size[rb] === 1) return true;
    for (let i = ra; i !== -1; i = next[i]) for (let j = rb; j !== -1; j = next[j]) if (pairScore(i, j) < 0) return false;
    return true;
  };

  for (const k of order) {
    const ra = find(pairA[k]);
    const rb = find(pairB[k]);
    if (ra === rb || (mask[ra] & mask[rb]) !== 0 || !linkable(ra, rb)) continue;
    const [root, child] = size[ra] >= size[rb] ? [ra, rb] : [rb, ra];
    parent[child] = root;
    next[last[root]] = child;
    last[root] = last[child];
    size[root] += size[child];
    mask[root] |= mask[child];
  }

  // Roots in position order are the groups in the order of their first listing only when the
  // root is the smallest member, which union by size does not promise: sorted below.
  const groups: number[][] = [];
  for (let i = 0; i < n; i++) {
    if (parent[i] !== i) continue;
    const group: number[] = [];
    for (let k = i; k !== -1; k = next[k]) group.push(k);
    groups.push(group.sort((x, y) => x - y));
  }
  groups.sort((x, y) => x[0] - y[0]);
  return groups.map((group) => group.map((k) => listings[k]));
}
