import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiKeyId, apiKeyMatches, generateApiKey, hashApiKey } from './api-key.ts';
import { createKeyAdmin, KeyAdminError } from './key-admin.ts';
import { createKeyVerifier } from './key-verifier.ts';
import { createSqliteKeyStore } from './sqlite-key-store.ts';

describe('api keys', () => {
  it('are long, random, and matched only by their own hash', () => {
    const a = generateApiKey();
    const b = generateApiKey();
    assert.match(a.key, /^sg_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    assert.notEqual(a.key, b.key);
    assert.equal(apiKeyId(a.key), a.id);
    assert.deepEqual(a.hash, hashApiKey(a.key));
    assert.equal(a.hash.length, 32);
    assert.equal(apiKeyMatches(a.key, a.hash), true);
    assert.equal(apiKeyMatches(b.key, a.hash), false);
    assert.equal(apiKeyMatches(a.key, null), false);
    assert.equal(apiKeyMatches(a.key, Buffer.alloc(32)), false);
    assert.equal(apiKeyId('not-a-key'), null);
  });
});

describe('key admin', () => {
  const setup = () => {
    const store = createSqliteKeyStore({ path: ':memory:' });
    return { store, admin: createKeyAdmin(store, { now: () => new Date('2026-11-21T10:00:00Z') }) };
  };

  it('creates an active key by default, pending on request; never stores the secret', async () => {
    const { store, admin } = setup();
    const { key, record } = await admin.create({ aid: 'aff-1', thirdParties: ['shop', 'shop', 'blog'], limitPerMinute: 30 });
    assert.equal(record.status, 'active');
    assert.equal(record.partnerId, 'aff-1', 'partner defaults to the aid');
    assert.deepEqual(record.thirdParties, ['shop', 'blog']);
    assert.equal(record.limitPerMinute, 30);
    assert.equal(record.createdAt, '2026-11-21T10:00:00.000Z');
    const stored = await store.get(record.id);
    // The secret is everything after `sg_<id>_` (base64url, which may itself hold '_').
    const secret = key.slice(`sg_${record.id}_`.length);
    assert.ok(secret.length >= 40, `secret of ${secret.length} characters`);
    assert.ok(!JSON.stringify({ ...stored, hash: stored!.hash.toString('hex') }).includes(secret), 'the stored record holds no secret');
    const pending = await admin.create({ aid: 'aff-2', partnerId: 'partner-2', pending: true });
    assert.equal(pending.record.status, 'pending');
    await store.close();
  });

  it('refuses bad input with a message for the operator', async () => {
    const { store, admin } = setup();
    await assert.rejects(admin.create({ aid: 'has space' }), KeyAdminError);
    await assert.rejects(admin.create({ aid: 'ok', thirdParties: ['bad/name'] }), /third party/);
    await assert.rejects(admin.create({ aid: 'ok', limitPerMinute: 0 }), /limit/);
    await assert.rejects(admin.create({ aid: 'ok', limitPerMinute: 1.5 }), /limit/);
    assert.deepEqual(await admin.list(), []);
    await store.close();
  });

  it('grants pending keys, revokes by key or id, and never grants a revoked key again', async () => {
    const { store, admin } = setup();
    const { key, record } = await admin.create({ aid: 'aff', pending: true });
    assert.equal((await admin.grant(key)).status, 'active');
    assert.equal((await admin.grant(record.id)).status, 'active', 'granting twice is harmless');
    assert.equal((await admin.revoke(key)).status, 'revoked');
    assert.equal((await admin.revoke(record.id)).status, 'revoked');
    await assert.rejects(admin.grant(key), /revoked/);
    // A key with a known id but a wrong secret is no key.
    const forged = `sg_${record.id}_${'A'.repeat(43)}`;
    await assert.rejects(admin.revoke(forged), /no such key/);
    await assert.rejects(admin.revoke('0123456789abcdef'), /no key with id/);
    await assert.rejects(admin.revoke('whatever'), /expected a key/);
    await store.close();
  });
});

describe('key verifier', () => {
  it('knows active keys only, and sees changes once its keys are maxAgeMs old', async () => {
    const store = createSqliteKeyStore({ path: ':memory:' });
    const admin = createKeyAdmin(store);
    let now = 0;
    const verifier = createKeyVerifier({ store, maxAgeMs: 500, clock: () => now });
    const active = await admin.create({ aid: 'aff-a', partnerId: 'pa', thirdParties: ['x'], limitPerMinute: 20 });
    const pending = await admin.create({ aid: 'aff-p', pending: true });
    assert.deepEqual(await verifier.verify(active.key), {
      id: active.record.id,
      partnerId: 'pa',
      aid: 'aff-a',
      thirdParties: ['x'],
      limitPerMinute: 20,
    });
    assert.equal(await verifier.verify(pending.key), null);
    assert.equal(await verifier.verify('sg_0123456789abcdef_' + 'x'.repeat(43)), null);
    assert.equal(await verifier.verify('garbage'), null);
    // A verified key is remembered by its exact string: the same id with another secret is not it.
    const forged = active.key.slice(0, -1) + (active.key.endsWith('A') ? 'B' : 'A');
    assert.equal(await verifier.verify(forged), null);
    assert.notEqual(await verifier.verify(active.key), null);

    await admin.revoke(active.key);
    await admin.grant(pending.key);
    now = 499;
    assert.notEqual(await verifier.verify(active.key), null, 'held keys are used for maxAgeMs');
    now = 500;
    assert.equal(await verifier.verify(active.key), null, 'revoked');
    assert.equal((await verifier.verify(pending.key))!.aid, 'aff-p', 'granted');
    await store.close();
  });

  it('keeps serving the keys it holds when a reload fails', async () => {
    const store = createSqliteKeyStore({ path: ':memory:' });
    const { key } = await createKeyAdmin(store).create({ aid: 'aff' });
    let now = 0;
    const errors: unknown[] = [];
    let broken = false;
    const flaky = {
      ...store,
      version: async () => {
        if (broken) throw new Error('db gone');
        return store.version();
      },
    };
    const verifier = createKeyVerifier({ store: flaky, maxAgeMs: 500, clock: () => now, onError: (e) => errors.push(e) });
    assert.notEqual(await verifier.verify(key), null);
    broken = true;
    now = 1_000;
    assert.notEqual(await verifier.verify(key), null);
    assert.equal(errors.length, 1);
    await store.close();
  });
});
