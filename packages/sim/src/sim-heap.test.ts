import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SIM_HEAP_BYTES_PER_STAY, simHeapLimitMb } from './sim-heap.ts';

const GB = 2 ** 30;

describe('simHeapLimitMb', () => {
  it('leaves the default heap to the default world', () => {
    assert.equal(simHeapLimitMb(160_000, 4 * GB), null);
    assert.equal(simHeapLimitMb(0, 1 * GB), null);
  });
  it('asks what a world of 10M listings needs, more than the default 4 GB', () => {
    const mb = simHeapLimitMb(7_823_145, 4 * GB);
    assert.equal(mb, Math.ceil((7_823_145 * SIM_HEAP_BYTES_PER_STAY) / 2 ** 20) + 1_024);
    assert.ok(mb !== null && mb * 2 ** 20 > 4 * GB, `${mb} MB above 4 GB`);
  });
  it('asks for a larger heap only above the default', () => {
    // 2M stays need ~3.3 GB: enough under a 4 GB default, not under a 2 GB one.
    assert.equal(simHeapLimitMb(2_000_000, 4 * GB), null);
    assert.ok((simHeapLimitMb(2_000_000, 2 * GB) ?? 0) > 2_048, 'above a 2 GB default');
  });
});
