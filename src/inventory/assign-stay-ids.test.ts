import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Listing, SupplierId } from '../types.ts';
import { assignStayIds } from './assign-stay-ids.ts';
import { serviceId } from './build-stays.ts';

const listing = (supplier: SupplierId, supplierStayId: string) => ({ supplier, supplierStayId }) as Listing;
const a1 = listing('supplier_a', '1');
const b1 = listing('supplier_b', '1');
const c1 = listing('supplier_c', '1');
const d1 = listing('supplier_d', '1');

describe('assignStayIds', () => {
  it('gives a group nobody knew the service id of its listings', () => {
    assert.deepEqual(assignStayIds([[a1, b1], [c1]], new Map()), [serviceId([a1, b1]), serviceId([c1])]);
  });

  it('keeps the id most of a group had, whichever listing first named it', () => {
    const known = new Map([
      ['supplier_a:1', 'st-old'],
      ['supplier_b:1', 'st-old'],
      ['supplier_c:1', 'st-other'],
    ]);
    assert.deepEqual(assignStayIds([[a1, b1, c1]], known), ['st-old']);
  });

  it('gives a split stay id to the bigger part, in any group order; the other part gets a new one', () => {
    const known = new Map(['supplier_a:1', 'supplier_b:1', 'supplier_c:1'].map((k) => [k, 'st-old'] as const));
    assert.deepEqual(assignStayIds([[a1], [b1, c1]], known), [serviceId([a1]), 'st-old']);
    assert.deepEqual(assignStayIds([[b1, c1], [a1]], known), ['st-old', serviceId([a1])]);
  });

  it('never gives an id once given, even to a stay since removed', () => {
    const known = new Map([['supplier_d:1', serviceId([a1])]]);
    const [id] = assignStayIds([[a1]], known);
    assert.notEqual(id, serviceId([a1]));
    assert.equal(id, serviceId([a1], 1), 'salted until new');
    assert.deepEqual(assignStayIds([[d1]], known), [serviceId([a1])], 'its own listing still claims it');
  });
});
