// The behaviour every ClickStore must have; each implementation's test calls runClickStoreContract.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { Click, ClickStore } from './click-store.ts';

function click(id: string, at: string, overrides: Partial<Click> = {}): Click {
  return {
    id, at, aid: 'aff-1', campaign: 'spring-email', stayId: 'stbbbbbbbbbbbb', supplier: 'supplier_b',
    supplierStayId: 'HB0002002', device: 'mobile', ...overrides,
  };
}

export function runClickStoreContract(name: string, makeStore: () => Promise<ClickStore>): void {
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
      const b = click('b', '2026-11-21T10:00:01.000Z', { aid: null, campaign: null, device: 'unknown', supplier: 'supplier_d', supplierStayId: '1001' });
      await store.record(a);
      await store.record(b);
      assert.deepEqual(await store.get(['b', 'zzz', 'a']), [b, a]);
    });

    it('lists the latest first, as many as asked', async () => {
      for (let i = 0; i < 5; i++) await store.record(click(`c${i}`, `2026-11-21T10:00:0${i}.000Z`));
      assert.deepEqual((await store.recent(3)).map((c) => c.id), ['c4', 'c3', 'c2']);
    });

    it('rejects a second click with the same id', async () => {
      await store.record(click('dup', '2026-11-21T10:00:00.000Z'));
      await assert.rejects(store.record(click('dup', '2026-11-21T10:00:05.000Z')));
      assert.equal((await store.get(['dup']))[0].at, '2026-11-21T10:00:00.000Z');
    });
  });
}
