import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Listing, Stay, SupplierId } from '../types.ts';
import { chooseSupplier } from './choose-supplier.ts';

function stayOf(suppliers: SupplierId[]): Stay {
  return { id: 'st', listings: suppliers.map((supplier) => ({ supplier, supplierStayId: `${supplier}-1` }) as Listing) } as Stay;
}

test('picks the lowest known price, ties in SUPPLIER_IDS order', () => {
  const stay = stayOf(['supplier_a', 'supplier_b', 'supplier_c']);
  assert.equal(
    chooseSupplier(
      stay,
      new Map([
        ['supplier_a', 120],
        ['supplier_b', 99.5],
        ['supplier_c', null],
      ]),
    ),
    'supplier_b',
  );
  assert.equal(
    chooseSupplier(
      stay,
      new Map([
        ['supplier_c', 80],
        ['supplier_a', 80],
      ]),
    ),
    'supplier_a',
  );
});

test('without a known price: the first supplier not sold out; without dates: the first supplier', () => {
  const stay = stayOf(['supplier_a', 'supplier_c', 'supplier_d']);
  assert.equal(
    chooseSupplier(
      stay,
      new Map([
        ['supplier_c', null],
        ['supplier_d', null],
      ]),
    ),
    'supplier_c',
  );
  assert.equal(chooseSupplier(stay, new Map()), 'supplier_a');
  assert.equal(chooseSupplier(stay, null), 'supplier_a');
});
