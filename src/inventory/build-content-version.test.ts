import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { defaults } from '../defaults.ts';
import { createSqliteStore } from '../store/sqlite-store.ts';
import type { Listing } from '../types.ts';
import { buildContentVersion } from './build-content-version.ts';
import { buildStays } from './build-stays.ts';

const dir = mkdtempSync(join(tmpdir(), 'staygate-build-content-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Listings of supplier_a far apart (none merges with another), fresh objects each call. */
const listings = (): Listing[] =>
  [0, 1, 2].map((i) => ({
    supplier: 'supplier_a',
    supplierStayId: `${100 + i}`,
    name: `Hotel Number ${i}`,
    typeLabel: 'Hotel',
    type: 'hotel',
    address: `${i} Main Street, Springfield, US`,
    lat: 40 + i,
    lng: -75,
    rating: { value: 8, hotelStars: 3, count: 10 + i },
    capacity: { guests: 2, bedrooms: 1, beds: 1, bathrooms: 1 },
    policies: { instantBook: true, freeCancellation: false },
    media: { thumbnail: `https://img/${i}.jpg`, logoSquare: '' },
  }));

describe('buildContentVersion', () => {
  it('compares with a served version whose ids the map lacks, keeping them; then with one it has', async () => {
    const store = createSqliteStore({ path: join(dir, 'unmapped.sqlite'), settings: defaults });
    try {
      const served = buildStays(
        listings().map((l) => [l]),
        defaults,
      );
      await store.publishContent(served, 'published without its ids', {});
      assert.equal((await store.stayIds()).size, 0);
      const build = (feed: Listing[]) =>
        buildContentVersion({
          store,
          feeds: { supplier_a: { ok: true, listings: feed, skipped: 0 } },
          shrinkLimit: 0.5,
          settings: defaults,
        });

      const same = await build(listings());
      assert.deepEqual(
        { unchanged: same.unchanged, added: same.added, removed: same.removed, changed: same.changed },
        { unchanged: true, added: 0, removed: 0, changed: 0 },
        'the same stays under the same ids: nothing new',
      );
      assert.equal((await store.stayIds()).get('supplier_a:100'), served.find((s) => s.listings[0].supplierStayId === '100')!.id);

      // Now through the map: one stay renamed, one gone, one new.
      const next = listings();
      next[0].name = 'Hotel Number 0, renamed';
      next[2] = { ...next[2], supplierStayId: '900', name: 'Another Place', lat: 50 };
      const moved = await build(next);
      assert.deepEqual({ added: moved.added, removed: moved.removed, changed: moved.changed }, { added: 1, removed: 1, changed: 1 });
    } finally {
      await store.close();
    }
  });
});
