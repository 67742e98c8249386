// The behaviour every ClickStore must have; each implementation's test calls runClickStoreContract.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { TwoHandles } from '../two-handles.ts';
import type { Click, ClickStore } from '../../clicks/click-store.ts';

export function click(id: string, at: string, overrides: Partial<Click> = {}): Click {
  return {
    id,
    at,
    aid: 'aff-1',
    campaign: 'spring-email',
    stayId: 'stbbbbbbbbbbbb',
    supplier: 'supplier_b',
    supplierStayId: 'HB0002002',
    device: 'mobile',
    ...overrides,
  };
}

/**
 * `makeStore`: a fresh, empty store. `makeTwo`: two handles on one fresh database (absent for a
 * database only one handle can reach, such as SQLite's ':memory:').
 */
export function runClickStoreContract(
  name: string,
  makeStore: () => Promise<ClickStore>,
  makeTwo?: () => Promise<TwoHandles<ClickStore>>,
): void {
  describe(`ClickStore contract: ${name}`, () => {
    let store: ClickStore;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });

    it('starts empty', async () => {
      assert.deepEqual(await store.recent(10), []);
      assert.deepEqual(await store.get(['nope']), []);
    });

    it('keeps every field, nulls included, and finds clicks by id in the order asked', async () => {
      const a = click('a', '2026-11-21T10:00:00.000Z');
      const b = click('b', '2026-11-21T10:00:01.000Z', {
        aid: null,
        campaign: null,
        device: 'unknown',
        supplier: 'supplier_d',
        supplierStayId: '1001',
      });
      await store.record(a);
      await store.record(b);
      assert.deepEqual(await store.get(['b', 'zzz', 'a']), [b, a]);
    });

    it('counts the clicks of the given aids in [from, to) by month, campaign, device and supplier', async () => {
      await store.record(click('a', '2026-01-31T23:59:59.999Z'));
      await store.record(click('b', '2026-02-01T00:00:00.000Z', { campaign: null, device: 'desktop' }));
      await store.record(click('c', '2026-02-10T00:00:00.000Z', { aid: 'aff-2', supplier: 'supplier_a' }));
      await store.record(click('d', '2026-03-01T00:00:00.000Z'));
      await store.record(click('e', '2026-02-11T00:00:00.000Z', { aid: 'someone-else' }));
      await store.record(click('f', '2026-02-12T00:00:00.000Z', { aid: null }));
      const count = async (by: 'month' | 'campaign' | 'device' | 'supplier', aids = ['aff-1', 'aff-2']) =>
        (await store.count({ aids, from: '2026-01-01T00:00:00.000Z', to: '2026-03-01T00:00:00.000Z', by })).sort((x, y) =>
          String(x.key).localeCompare(String(y.key)),
        );
      assert.deepEqual(await count('month'), [
        { key: '2026-01', clicks: 1 },
        { key: '2026-02', clicks: 2 },
      ]);
      assert.deepEqual(await count('campaign'), [
        { key: null, clicks: 1 },
        { key: 'spring-email', clicks: 2 },
      ]);
      assert.deepEqual(await count('device'), [
        { key: 'desktop', clicks: 1 },
        { key: 'mobile', clicks: 2 },
      ]);
      assert.deepEqual(await count('supplier'), [
        { key: 'supplier_a', clicks: 1 },
        { key: 'supplier_b', clicks: 2 },
      ]);
      assert.deepEqual(await count('month', ['aff-2']), [{ key: '2026-02', clicks: 1 }]);
      assert.deepEqual(await count('month', []), []);
    });

    it('lists the latest first, as many as asked', async () => {
      for (let i = 0; i < 5; i++) await store.record(click(`c${i}`, `2026-11-21T10:00:0${i}.000Z`));
      assert.deepEqual(
        (await store.recent(3)).map((c) => c.id),
        ['c4', 'c3', 'c2'],
      );
    });

    it('rejects a second click with the same id', async () => {
      await store.record(click('dup', '2026-11-21T10:00:00.000Z'));
      await assert.rejects(store.record(click('dup', '2026-11-21T10:00:05.000Z')));
      assert.equal((await store.get(['dup']))[0].at, '2026-11-21T10:00:00.000Z');
    });
  });

  if (makeTwo === undefined) return;
  describe(`ClickStore contract, two handles on one database: ${name}`, () => {
    it('a click one handle records is found, listed and counted by the other', async () => {
      const two = await makeTwo();
      try {
        const a = click('g1', '2026-11-21T10:00:00.000Z');
        await two.first.record(a);
        await two.second.record(click('g2', '2026-11-21T10:00:01.000Z', { device: 'desktop' }));
        assert.deepEqual(await two.second.get(['g1']), [a]);
        assert.deepEqual(
          (await two.first.recent(5)).map((c) => c.id),
          ['g2', 'g1'],
        );
        const counted = await two.second.count({
          aids: ['aff-1'],
          from: '2026-11-01T00:00:00.000Z',
          to: '2026-12-01T00:00:00.000Z',
          by: 'month',
        });
        assert.deepEqual(counted, [{ key: '2026-11', clicks: 2 }]);
        await assert.rejects(two.second.record(click('g1', '2026-11-21T10:00:09.000Z')), 'the id is taken on the other handle too');
      } finally {
        await two.close();
      }
    });
  });
}
