// The behaviour every KeyStore must have. Each implementation's test file calls runKeyStoreContract
// with a factory that returns a fresh, empty store.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { TwoHandles } from '../two-handles.ts';
import { generateApiKey } from '../../auth/api-key.ts';
import { createKeyAdmin, KeyAdminError } from '../../auth/key-admin.ts';
import type { KeyStore, MapTokenRecord, StoredApiKey } from '../../auth/key-store.ts';
import { generateMapToken } from '../../auth/map-token.ts';

export function storedKey(overrides: Partial<StoredApiKey> = {}): StoredApiKey {
  const { id, hash } = generateApiKey();
  return {
    id,
    hash,
    partnerId: 'partner-1',
    aid: 'aid-1',
    thirdParties: ['platform-x'],
    status: 'active',
    limitPerMinute: null,
    createdAt: '2026-11-21T10:00:00.000Z',
    updatedAt: '2026-11-21T10:00:00.000Z',
    ...overrides,
  };
}

export function mapToken(overrides: Partial<MapTokenRecord> = {}): MapTokenRecord {
  return {
    token: generateMapToken(),
    partnerId: 'partner-1',
    aid: 'aid-1',
    keyId: '0123456789abcdef',
    origins: ['https://blog.example', 'http://localhost:*'],
    status: 'active',
    limitPerMinute: null,
    createdAt: '2026-11-21T10:00:00.000Z',
    updatedAt: '2026-11-21T10:00:00.000Z',
    ...overrides,
  };
}

/**
 * `makeStore`: a fresh, empty store. `makeTwo`: two handles on one fresh database (absent for a
 * database only one handle can reach, such as SQLite's ':memory:').
 */
export function runKeyStoreContract(name: string, makeStore: () => Promise<KeyStore>, makeTwo?: () => Promise<TwoHandles<KeyStore>>): void {
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
      assert.deepEqual(
        (await store.list()).map((k) => k.id),
        [b.id, a.id, c.id],
      );
      assert.deepEqual(
        (await store.activeKeys()).map((k) => k.id),
        [a.id],
      );
    });

    it('changes a status and says when the key does not exist', async () => {
      const key = storedKey({ status: 'pending' });
      await store.insert(key);
      const granted = await store.setStatus(key.id, 'active', '2026-11-22T00:00:00.000Z');
      assert.equal(granted!.status, 'active');
      assert.equal(granted!.updatedAt, '2026-11-22T00:00:00.000Z');
      assert.equal(granted!.createdAt, key.createdAt);
      assert.deepEqual(
        (await store.activeKeys()).map((k) => k.id),
        [key.id],
      );
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

    it('never turns a revoked key into another status, and moves no version when it refuses', async () => {
      const key = storedKey({ status: 'pending' });
      await store.insert(key);
      const revoked = await store.setStatus(key.id, 'revoked', '2026-11-22T00:00:00.000Z');
      assert.equal(revoked!.status, 'revoked');
      const version = await store.version();
      for (const status of ['active', 'pending'] as const) {
        const refused = await store.setStatus(key.id, status, '2026-11-23T00:00:00.000Z');
        assert.deepEqual(refused, revoked, `revoked -> ${status} refused, the record unchanged`);
      }
      assert.deepEqual(await store.activeKeys(), []);
      assert.equal(await store.version(), version, 'a refused change is no change');
    });

    it('keeps map tokens, oldest first, each field as given, and moves its version', async () => {
      const v0 = await store.version();
      const later = mapToken({ createdAt: '2026-11-21T10:00:02.000Z', limitPerMinute: 900, origins: ['self'] });
      const first = mapToken({ createdAt: '2026-11-21T10:00:01.000Z', partnerId: 'partner-2', aid: 'aid-2' });
      await store.insertMapToken(later);
      await store.insertMapToken(first);
      assert.deepEqual(await store.mapTokens(), [first, later]);
      assert.ok((await store.version()) > v0, 'a new token moves the version: gateways load it');
      await assert.rejects(store.insertMapToken({ ...first, aid: 'other' }), 'a token is unique');
    });

    it('revokes a map token for good, moving the version once', async () => {
      const token = mapToken();
      await store.insertMapToken(token);
      const v0 = await store.version();
      const revoked = await store.revokeMapToken(token.token, '2026-11-22T00:00:00.000Z');
      assert.equal(revoked!.status, 'revoked');
      assert.equal(revoked!.updatedAt, '2026-11-22T00:00:00.000Z');
      const v1 = await store.version();
      assert.ok(v1 > v0, 'a revocation moves the version');
      const again = await store.revokeMapToken(token.token, '2026-11-23T00:00:00.000Z');
      assert.deepEqual(again, revoked, 'revoking twice changes nothing');
      assert.equal(await store.version(), v1);
      assert.equal(await store.revokeMapToken(generateMapToken(), '2026-11-23T00:00:00.000Z'), null);
    });

    it("adds up a token's searches by month, and lists them for its partner only", async () => {
      const mine = mapToken();
      const theirs = mapToken({ partnerId: 'partner-2', createdAt: '2026-11-21T10:00:05.000Z' });
      await store.insertMapToken(mine);
      await store.insertMapToken(theirs);
      const v0 = await store.version();
      await store.countMapSearches([
        { token: mine.token, month: '2026-11', searches: 3 },
        { token: theirs.token, month: '2026-11', searches: 7 },
      ]);
      await store.countMapSearches([
        { token: mine.token, month: '2026-11', searches: 2 },
        { token: mine.token, month: '2026-12', searches: 1 },
      ]);
      await store.countMapSearches([]);
      assert.deepEqual(await store.mapSearches('partner-1'), [
        { token: mine.token, month: '2026-11', searches: 5 },
        { token: mine.token, month: '2026-12', searches: 1 },
      ]);
      assert.deepEqual(await store.mapSearches('partner-2'), [{ token: theirs.token, month: '2026-11', searches: 7 }]);
      assert.deepEqual(await store.mapSearches('nobody'), []);
      assert.equal(await store.version(), v0, 'counting moves no version (the keys need no reload)');
    });
  });

  if (makeTwo === undefined) return;
  describe(`KeyStore contract, two handles on one database: ${name}`, () => {
    let two: TwoHandles<KeyStore>;
    beforeEach(async () => {
      two = await makeTwo();
    });
    afterEach(async () => {
      await two.close();
    });

    it('a key one handle writes is seen by the other, with its version moved', async () => {
      const before = await two.second.version();
      const key = storedKey({ status: 'pending' });
      await two.first.insert(key);
      const afterInsert = await two.second.version();
      assert.ok(afterInsert > before, 'the other handle sees the version move');
      assert.deepEqual(await two.second.get(key.id), key);
      await two.second.setStatus(key.id, 'active', '2026-11-22T00:00:00.000Z');
      assert.ok((await two.first.version()) > afterInsert, "and the first sees the second's change");
      assert.deepEqual(
        (await two.first.activeKeys()).map((k) => k.id),
        [key.id],
      );
    });

    it('a grant racing a revoke on the other handle never leaves the key active', async () => {
      const first = createKeyAdmin(two.first);
      const second = createKeyAdmin(two.second);
      const grants: ('granted' | 'refused')[] = [];
      const grant = (admin: typeof first, id: string) =>
        admin.grant(id).then(
          () => grants.push('granted'),
          (error: unknown) => {
            assert.ok(error instanceof KeyAdminError && /revoked/.test(error.message), `a grant fails only as revoked: ${String(error)}`);
            grants.push('refused');
          },
        );
      for (let round = 0; round < 40; round++) {
        const { record } = await first.create({ aid: `race-${round}`, pending: true });
        await Promise.all([grant(first, record.id), second.revoke(record.id), grant(second, record.id), grant(first, record.id)]);
        // Grants that lost the race keep trying after the revoke: none may bring the key back.
        await Promise.all([grant(first, record.id), grant(second, record.id)]);
        assert.equal((await two.first.get(record.id))!.status, 'revoked', `round ${round}`);
        assert.equal((await two.second.get(record.id))!.status, 'revoked', `round ${round}`);
      }
      assert.deepEqual(await two.first.activeKeys(), []);
      assert.ok(grants.includes('refused'), 'some grants met the revoke');
    });

    it("two handles' map search counts add up", async () => {
      const token = mapToken();
      await two.first.insertMapToken(token);
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 === 0 ? two.first : two.second).countMapSearches([{ token: token.token, month: '2026-11', searches: 1 }]),
        ),
      );
      assert.deepEqual(await two.second.mapSearches('partner-1'), [{ token: token.token, month: '2026-11', searches: 10 }]);
    });
  });
}
