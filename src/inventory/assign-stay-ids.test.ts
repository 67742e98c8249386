import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StayIdMap } from '../store/stay-id-map.ts';
import type { Listing, SupplierId } from '../types.ts';
import { assignStayIds } from './assign-stay-ids.ts';
import { serviceId } from './build-stays.ts';

const listing = (supplier: SupplierId, supplierStayId: string) => ({ supplier, supplierStayId }) as Listing;
const a1 = listing('supplier_a', '1');
const b1 = listing('supplier_b', '1');
const c1 = listing('supplier_c', '1');
const d1 = listing('supplier_d', '1');
const knownOf = (entries: readonly (readonly [string, string])[]): StayIdMap => {
  const known = new StayIdMap();
  for (const [key, id] of entries) known.set(key, id);
  return known;
};

describe('assignStayIds', () => {
  it('gives a group nobody knew the service id of its listings', () => {
    assert.deepEqual(assignStayIds([[a1, b1], [c1]], new StayIdMap()), [serviceId([a1, b1]), serviceId([c1])]);
  });

  it('keeps the id most of a group had, whichever listing first named it', () => {
    const known = knownOf([
      ['supplier_a:1', 'st-old'],
      ['supplier_b:1', 'st-old'],
      ['supplier_c:1', 'st-other'],
    ]);
    assert.deepEqual(assignStayIds([[a1, b1, c1]], known), ['st-old']);
  });

  it('gives a split stay id to the bigger part, in any group order; the other part gets a new one', () => {
    const entries = ['supplier_a:1', 'supplier_b:1', 'supplier_c:1'].map((k) => [k, 'st-old'] as const);
    assert.deepEqual(assignStayIds([[a1], [b1, c1]], knownOf(entries)), [serviceId([a1]), 'st-old']);
    assert.deepEqual(assignStayIds([[b1, c1], [a1]], knownOf(entries)), ['st-old', serviceId([a1])]);
  });

  it('never gives an id once given, even to a stay since removed', () => {
    const known = knownOf([['supplier_d:1', serviceId([a1])]]);
    const [id] = assignStayIds([[a1]], known);
    assert.notEqual(id, serviceId([a1]));
    assert.equal(id, serviceId([a1], 1), 'salted until new');
    assert.deepEqual(
      assignStayIds([[d1]], knownOf([['supplier_d:1', serviceId([a1])]])),
      [serviceId([a1])],
      'its own listing still claims it',
    );
  });

  it('breaks a tie of votes by the smaller id, and a group whose first choice is taken takes its next', () => {
    const known = knownOf([
      ['supplier_a:1', 'st-b'],
      ['supplier_b:1', 'st-a'],
      ['supplier_c:1', 'st-b'],
      ['supplier_d:1', 'st-b'],
    ]);
    // [a1, b1]: one vote each, st-a first. [c1, d1]: st-b, two votes, claims first and keeps it.
    assert.deepEqual(
      assignStayIds(
        [
          [a1, b1],
          [c1, d1],
        ],
        known,
      ),
      ['st-a', 'st-b'],
    );
    // [c1, d1] ranks st-a (a tie, the smaller id) before st-z; [a1, b1] claims st-a with two votes.
    const split = knownOf([
      ['supplier_a:1', 'st-a'],
      ['supplier_b:1', 'st-a'],
      ['supplier_c:1', 'st-a'],
      ['supplier_d:1', 'st-z'],
    ]);
    assert.deepEqual(
      assignStayIds(
        [
          [c1, d1],
          [a1, b1],
        ],
        split,
      ),
      ['st-z', 'st-a'],
      'the bigger claim on st-a wins; the other takes st-z',
    );
  });

  it('does not give two groups of one build the same new id', () => {
    // Two groups whose service ids are the same: the second is salted.
    const known = new StayIdMap();
    const ids = assignStayIds([[a1], [a1]], known);
    assert.deepEqual(ids, [serviceId([a1]), serviceId([a1], 1)]);
    assert.equal(known.stayNumber(ids[1]) >= 0, true, 'the ids given are recorded');
  });
});

/** The Map-based version assignStayIds replaced (51e2ba3^), the reference its typed arrays must match. */
function referenceIds(groups: readonly (readonly Listing[])[], known: ReadonlyMap<string, string>): string[] {
  const keyOf = (l: Listing) => `${l.supplier}:${l.supplierStayId}`;
  const everGiven = new Set(known.values());
  const claims: { g: number; ranked: [string, number][] }[] = [];
  groups.forEach((group, g) => {
    let votes: Map<string, number> | null = null;
    for (const l of group) {
      const id = known.get(keyOf(l));
      if (id !== undefined) (votes ??= new Map()).set(id, (votes.get(id) ?? 0) + 1);
    }
    if (votes !== null) claims.push({ g, ranked: [...votes].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)) });
  });
  const order = claims.sort(
    (a, b) => b.ranked[0][1] - a.ranked[0][1] || (a.ranked[0][0] < b.ranked[0][0] ? -1 : a.ranked[0][0] > b.ranked[0][0] ? 1 : a.g - b.g),
  );
  const ids: (string | null)[] = groups.map(() => null);
  const taken = new Set<string>();
  for (const claim of order) {
    const free = claim.ranked.find(([id]) => !taken.has(id));
    if (free === undefined) continue;
    ids[claim.g] = free[0];
    taken.add(free[0]);
  }
  return ids.map((id, g) => {
    if (id !== null) return id;
    let candidate = serviceId(groups[g]);
    for (let salt = 1; everGiven.has(candidate) || taken.has(candidate); salt++) candidate = serviceId(groups[g], salt);
    taken.add(candidate);
    return candidate;
  });
}

describe('assignStayIds against the Map-based reference', () => {
  it('gives the same ids on random maps and groupings: ties, splits, merges, ids of any form', () => {
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) >>> 0) % n) >>> 0;
    const suppliers: SupplierId[] = ['supplier_a', 'supplier_b', 'supplier_c', 'supplier_d'];
    for (let round = 0; round < 300; round++) {
      // A pool of listings, some known under a few ids (some of the 'st' + 12 form, some not).
      const pool = Array.from({ length: 4 + rand(20) }, (_, i) => listing(suppliers[i % 4], `${Math.floor(i / 4)}`));
      const ids = ['st-a', 'st-b', 'Z9', 'st000000000001', serviceId([pool[0]]), ''];
      const entries = pool.filter(() => rand(3) > 0).map((l) => [`${l.supplier}:${l.supplierStayId}`, ids[rand(ids.length)]] as const);
      // Groups of up to one listing per supplier, in a shuffled order.
      const rest = [...pool].sort(() => rand(3) - 1);
      const groups: Listing[][] = [];
      while (rest.length > 0) {
        const group = [rest.pop()!];
        for (let i = rest.length - 1; i >= 0 && group.length < 1 + rand(4); i--)
          if (!group.some((l) => l.supplier === rest[i].supplier)) group.push(...rest.splice(i, 1));
        groups.push(group);
      }
      assert.deepEqual(assignStayIds(groups, knownOf(entries)), referenceIds(groups, new Map(entries)), `round ${round}`);
    }
  });
});
