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
