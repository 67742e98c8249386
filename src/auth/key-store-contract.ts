// The behaviour every KeyStore must have. Each implementation's test file calls runKeyStoreContract
// with a factory that returns a fresh, empty store.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { generateApiKey } from './api-key.ts';
import type { KeyStore, StoredApiKey } from './key-store.ts';

function storedKey(overrides: Partial<StoredApiKey> = {}): StoredApiKey {
  const { id, hash } = generateApiKey();
  return {
    id, hash, partnerId: 'partner-1', aid: 'aid-1', thirdParties: ['platform-x'], status: 'active',
    limitPerMinute: null, createdAt: '2026-11-21T10:00:00.000Z', updatedAt: '2026-11-21T10:00:00.000Z',
    ...overrides,
  };
}

export function runKeyStoreContract(name: string, makeStore: () => Promise<KeyStore>): void {
  describe(`KeyStore contract: ${name}`, () => {
    let store: KeyStore;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
    });

    it('starts empty', async () => {
      assert.deepEqual(await store.list(), []);
      assert.deepEqual(await store.activeKeys(), []);
      assert.equal(await store.get('0123456789abcdef'), null);
    });

    it('keeps every field of a key, its hash included', async () => {
      const key = storedKey({ thirdParties: ['a', 'b-2'], limitPerMinute: 60, status: 'pending' });
      await store.insert(key);
      assert.deepEqual(await store.get(key.id), key);
      const { hash: _hash, ...record } = key;
      assert.deepEqual(await store.list(), [record]);
      assert.ok(!('hash' in (await store.list())[0]), 'a listing carries no hash');
    });

    it('rejects a second key with the same id', async () => {
      const key = storedKey();
      await store.insert(key);
      await assert.rejects(store.insert({ ...key, aid: 'other' }));
      assert.equal((await store.get(key.id))!.aid, 'aid-1');
    });

    it('lists oldest first, and only active keys as active', async () => {
      const a = storedKey({ createdAt: '2026-11-21T10:00:02.000Z' });
      const b = storedKey({ createdAt: '2026-11-21T10:00:01.000Z', status: 'pending' });
      const c = storedKey({ createdAt: '2026-11-21T10:00:03.000Z', status: 'revoked' });
      for (const k of [a, b, c]) await store.insert(k);
      assert.deepEqual((await store.list()).map((k) => k.id), [b.id, a.id, c.id]);
      assert.deepEqual((await store.activeKeys()).map((k) => k.id), [a.id]);
    });

    it('changes a status and says when the key does not exist', async () => {
      const key = storedKey({ status: 'pending' });
      await store.insert(key);
      const granted = await store.setStatus(key.id, 'active', '2026-11-22T00:00:00.000Z');
      assert.equal(granted!.status, 'active');
      assert.equal(granted!.updatedAt, '2026-11-22T00:00:00.000Z');
      assert.equal(granted!.createdAt, key.createdAt);
      assert.deepEqual((await store.activeKeys()).map((k) => k.id), [key.id]);
      assert.equal(await store.setStatus('0123456789abcdef', 'revoked', '2026-11-22T00:00:00.000Z'), null);
    });

    it('moves its version with every change, and only then', async () => {
      const v0 = await store.version();
      assert.equal(await store.version(), v0);
      const key = storedKey();
      await store.insert(key);
      const v1 = await store.version();
      assert.ok(v1 > v0, 'v1 > v0');
      await store.setStatus(key.id, 'revoked', '2026-11-22T00:00:00.000Z');
      const v2 = await store.version();
      assert.ok(v2 > v1, 'v2 > v1');
      await store.setStatus('0123456789abcdef', 'revoked', '2026-11-22T00:00:00.000Z');
      await store.list();
      assert.equal(await store.version(), v2);
    });
  });
}
