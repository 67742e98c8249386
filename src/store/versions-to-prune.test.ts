import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { versionsToPrune } from './versions-to-prune.ts';

const published = (...nos: number[]) => nos.map((no) => ({ no, published: true }));

describe('versionsToPrune', () => {
  it('keeps the newest two and drops the rest when nobody holds anything', () => {
    assert.deepEqual(versionsToPrune(published(1, 2, 3, 4), 4, new Set(), 2), [1, 2]);
  });

  it('keeps every version a live reader holds, however old', () => {
    assert.deepEqual(versionsToPrune(published(1, 2, 3, 4, 5), 5, new Set([1, 3]), 2), [2]);
  });

  it('drops an unpublished version older than the published one (a writer that died), never a newer one', () => {
    assert.deepEqual(
      versionsToPrune([...published(1, 2), { no: 3, published: false }, ...published(4), { no: 5, published: false }], 4, new Set(), 2),
      [1, 3],
    );
  });

  it('never drops the version just published, even with keep 0', () => {
    assert.deepEqual(versionsToPrune(published(1, 2), 2, new Set(), 0), [1]);
  });
});
