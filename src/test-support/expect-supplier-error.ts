// Test support: an assert.rejects validator for the adapters' SupplierError.
import assert from 'node:assert/strict';
import type { SupplierId } from '../types.ts';
import { SupplierError, type SupplierErrorKind } from '../suppliers/supplier-error.ts';

/** Accepts a SupplierError of this supplier and kind (and message pattern), fails on anything else. */
export function expectSupplierError(supplier: SupplierId, kind: SupplierErrorKind, pattern?: RegExp): (error: unknown) => boolean {
  return (error) => {
    assert.ok(error instanceof SupplierError, `not a SupplierError: ${String(error)}`);
    assert.equal(error.supplier, supplier);
    assert.equal(error.kind, kind);
    if (pattern) assert.match(error.message, pattern);
    return true;
  };
}
