// The supplier line of `staygate transactions sync` (and of the gateway's log): counts in words
// that agree with them (issue 25: "1 records").
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeSync } from './describe-sync.ts';
import type { SupplierSyncResult } from './sync-transactions.ts';

const result = (received: number): SupplierSyncResult => ({
  supplier: 'supplier_a',
  kind: 'incremental',
  ok: true,
  from: '2026-11-01T00:00:00.000Z',
  to: '2026-11-02T00:00:00.000Z',
  received,
  inserted: received,
  updated: 0,
  unchanged: 0,
  unknownClicks: 0,
  missed: [],
  ms: 5,
});

describe('describeSync', () => {
  it('says "1 record", and "records" for any other count', () => {
    assert.equal(
      describeSync(result(1)),
      'supplier_a: 1 record of the changes 2026-11-01T00:00:00.000Z .. 2026-11-02T00:00:00.000Z: 1 new, 0 updated, 0 unchanged (5 ms)',
    );
    assert.match(describeSync(result(0)), /^supplier_a: 0 records of the changes/);
    assert.match(describeSync(result(27)), /^supplier_a: 27 records of the changes/);
  });

  it('says a slot without a commission report API was skipped, and how to import its transactions instead', () => {
    assert.equal(
      describeSync({ ...result(0), supplier: 'supplier_b', noReport: true }),
      'supplier_b: no commission report API: import its CSV with `staygate transactions import --supplier supplier_b FILE.csv`',
    );
  });
});
