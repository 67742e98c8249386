import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contentHeapLimitMb, usableMemoryBytes } from './content-heap-limit.ts';

const GB = 2 ** 30;

test('the content heap limit is three quarters of the usable memory, never under V8 default', () => {
  assert.equal(contentHeapLimitMb(24 * GB, 4 * GB), 18 * 1024, 'a 24 GB machine: 18 GB for a 10M build');
  assert.equal(contentHeapLimitMb(2 * GB, 4 * GB), 4 * 1024, 'a small machine keeps the default');
});

test('the usable memory is the cgroup limit when one is set, else the machine', () => {
  assert.equal(usableMemoryBytes(8 * GB, 24 * GB), 8 * GB);
  assert.equal(usableMemoryBytes(0, 24 * GB), 24 * GB, 'no constraint');
  assert.equal(usableMemoryBytes(2 ** 64, 24 * GB), 24 * GB, 'unconstrained cgroups report a huge number');
});
