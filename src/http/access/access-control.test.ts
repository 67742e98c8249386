// API keys and rate limits through HTTP: a whole gateway (small world) with a fake limiter clock,
// plus bare HTTP apps for what needs its own wiring (trusted proxies, a protected route, logs).
import assert from 'node:assert/strict';
import path from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { createKeyAdmin, type KeyAdmin } from '../../auth/key-admin.ts';
import { createKeyVerifier } from '../../auth/key-verifier.ts';
import type { KeyStore } from '../../auth/key-store.ts';
import { createMemoryRateLimiter } from '../../auth/memory-rate-limiter.ts';
import { createSqliteKeyStore } from '../../auth/sqlite-key-store.ts';
import { startTestApp, type TestApp } from '../../test-support/start-test-app.ts';
import { requireKey, type AccessControl } from './access-control.ts';
import { createHttpApp } from '../create-http-app.ts';
import type { Services } from '../route-context.ts';
import { defaults } from '../../defaults.ts';

const SEARCH = '/v3/accommodations?lat=48.8566&lng=2.3522&pageSize=3';
let t: TestApp;
let keyStore: KeyStore;
let admin: KeyAdmin;
let clockMs = 1_800_000_000_000;
let ipSeq = 0;
/** A fresh client address per test, so that tests never share a keyless bucket. */
const freshIp = () => `198.51.100.${++ipSeq}`;

before(async () => {
  t = await startTestApp({
    stays: 2_000,
    // Searches by lat/lng: a geocoder that knows nothing spares the gazetteer's load.
    settings: { keylessPerMinute: 5, keyedPerMinute: 8, goKeylessPerMinute: 3 },
    app: { geocoder: { geocode: async () => null }, rateLimitClock: () => clockMs },
  });
  keyStore = createSqliteKeyStore({ path: path.join(t.dataDir, 'staygate.sqlite') });
  admin = createKeyAdmin(keyStore);
});
after(async () => {
  await keyStore.close();
  await t.close();
});

async function get(url: string, { ip = '127.0.0.1', headers = {} }: { ip?: string; headers?: Record<string, string> } = {}) {
  const res = await t.app.http.inject({ method: 'GET', url, headers, remoteAddress: ip });
  const type = String(res.headers['content-type'] ?? '');
  return { status: res.statusCode, headers: res.headers, body: type.includes('json') ? res.json() : res.body };
}

/** Every deeplink (a string holding /go/) anywhere in a body. */
function deeplinksIn(value: unknown, found: string[] = []): string[] {
  if (typeof value === 'string') {
    if (value.includes('/go/')) found.push(value);
  } else if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) deeplinksIn(v, found);
  }
  return found;
}

describe('API keys', () => {
  it('an active key is accepted; unknown, revoked and not-granted keys get the same 401', async () => {
    const active = await admin.create({ aid: 'aff-active' });
    const revoked = await admin.create({ aid: 'aff-revoked' });
    await admin.revoke(revoked.key);
    const pending = await admin.create({ aid: 'aff-pending', pending: true });
    const unknown = `sg_${'0'.repeat(16)}_${'A'.repeat(43)}`;

    assert.equal((await get(SEARCH, { headers: { 'x-api-key': active.key } })).status, 200);
    const refusals = [];
    for (const key of [revoked.key, pending.key, unknown, 'not-even-shaped-like-a-key']) {
      const res = await get(SEARCH, { ip: freshIp(), headers: { 'x-api-key': key } });
      assert.equal(res.status, 401, key);
      const { requestId, ...rest } = res.body;
      assert.equal(typeof requestId, 'string');
      refusals.push(rest);
    }
    assert.deepEqual(refusals[0], {
      statusCode: 401,
      error: 'Unauthorized',
      code: 'INVALID_API_KEY',
      message: 'The API key is invalid or has been revoked',
    });
    for (const r of refusals) assert.deepEqual(r, refusals[0], 'nothing tells the states apart');

    // Granted, the pending key works; nothing restarts.
    await admin.grant(pending.key);
    assert.equal((await get(SEARCH, { headers: { 'x-api-key': pending.key } })).status, 200);
  });

  it('is read from X-API-KEY or the key parameter; the header wins; links never carry it', async () => {
    const { key } = await admin.create({ aid: 'aff-q' });
    const byQuery = await get(`${SEARCH}&key=${key}`);
    assert.equal(byQuery.status, 200);
    assert.ok(!JSON.stringify(byQuery.body).includes(key), 'the key is not echoed in _links or deeplinks');
    assert.equal((await get(SEARCH, { headers: { 'x-api-key': key } })).status, 200);
    assert.equal((await get(`${SEARCH}&key=wrong`, { headers: { 'x-api-key': key } })).status, 200);
    assert.equal((await get(`${SEARCH}&key=${key}`, { ip: freshIp(), headers: { 'x-api-key': 'wrong' } })).status, 401);
    assert.equal((await get(`${SEARCH}&key=`, { ip: freshIp() })).status, 200, 'an empty key is no key');
  });

  it("puts the key's aid in every link of v1, v2 and v3, whatever aid the request says", async () => {
    const { key } = await admin.create({ aid: 'key-aid' });
    for (const url of [
      `${SEARCH}&aid=request-aid&campaign=spring-mail`,
      '/v2/accommodations?lat=48.8566&lng=2.3522&pageSize=3&aid=request-aid&campaign=spring-mail',
      '/v1/accommodations?provider=supplier_a&lat=48.8566&lng=2.3522&limit=3&aid=request-aid&campaign=spring-mail',
    ]) {
      const keyed = await get(url, { headers: { 'x-api-key': key } });
      assert.equal(keyed.status, 200, url);
      const links = deeplinksIn(keyed.body.results);
      assert.ok(links.length >= 3, `${url}: ${links.length} deeplinks`);
      for (const link of links) {
        const params = new URL(link).searchParams;
        assert.equal(params.get('aid'), 'key-aid', link);
        assert.equal(params.get('campaign'), 'spring-mail', link);
      }
      // Without a key, the request's own aid is used.
      const keyless = await get(url, { ip: freshIp() });
      for (const link of deeplinksIn(keyless.body.results)) assert.equal(new URL(link).searchParams.get('aid'), 'request-aid');
    }
  });
});

describe('rate limits', () => {
  it('every response carries X-RateLimit-*, errors included; /health is not limited', async () => {
    const ip = freshIp();
    const cases: [string, number][] = [
      [SEARCH, 200],
      ['/v3/accommodations?pageSize=3', 400],
      [`${SEARCH}&key=bad`, 401],
    ];
    for (const [url, status] of cases) {
      const res = await get(url, { ip });
      assert.equal(res.status, status, url);
      assert.equal(res.headers['x-ratelimit-limit'], '5', url);
      assert.match(String(res.headers['x-ratelimit-remaining']), /^\d$/, url);
      assert.equal(res.headers['x-ratelimit-reset'], '0', url);
      // The IETF draft's fields say the same, in seconds.
      assert.equal(res.headers['ratelimit-policy'], '"keyless";q=5;w=60', url);
      assert.equal(res.headers.ratelimit, `"keyless";r=${res.headers['x-ratelimit-remaining']};t=0`, url);
    }
    // Unknown paths spend no allowance and say none.
    const nowhere = await get('/nowhere', { ip });
    assert.equal(nowhere.status, 404);
    assert.equal(nowhere.headers['x-ratelimit-limit'], undefined);
    const post = await t.app.http.inject({ method: 'POST', url: '/v3/accommodations', remoteAddress: ip });
    assert.equal(post.statusCode, 405);
    assert.equal(post.headers['x-ratelimit-limit'], '5');
    const health = await get('/health', { ip });
    assert.equal(health.status, 200);
    assert.equal(health.headers['x-ratelimit-limit'], undefined);
  });

  it('keyless: 5 per minute per IP and endpoint, then a 429 with Retry-After and details', async () => {
    const ip = freshIp();
    const start = clockMs;
    for (let i = 0; i < 5; i++) {
      const res = await get(SEARCH, { ip });
      assert.equal(res.status, 200);
      assert.equal(res.headers['x-ratelimit-remaining'], String(4 - i));
      clockMs += 1_000;
    }
    clockMs = start + 12_500;
    const refused = await get(SEARCH, { ip });
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['retry-after'], '48');
    assert.equal(refused.headers.ratelimit, '"keyless";r=0;t=48', 'the IETF field says the same wait, in seconds');
    assert.equal(refused.headers['x-ratelimit-remaining'], '0');
    assert.equal(refused.headers['x-ratelimit-reset'], '47500');
    assert.equal(refused.body.code, 'RATE_LIMIT_EXCEEDED');
    assert.equal(refused.body.error, 'Too Many Requests');
    assert.deepEqual(refused.body.details, { limit: 5, retryAfter: '48' });
    // The demo allowance says how to get more: a key, the demo one or one the operator creates.
    assert.match(refused.body.message, /^Rate limit of 5 requests per minute exceeded; retry in 48 s\. /);
    assert.match(refused.body.message, /X-API-KEY/);
    assert.match(refused.body.message, /data\/demo-key\.txt/);
    assert.match(refused.body.message, /npx staygate keys create/);
    assert.equal(refused.headers['x-request-id'], refused.body.requestId);

    assert.equal((await get(SEARCH, { ip: freshIp() })).status, 200, 'another IP has its own bucket');
    assert.equal(
      (await get('/v2/accommodations?lat=48.8566&lng=2.3522&pageSize=3', { ip })).status,
      200,
      'another endpoint has its own bucket',
    );
    assert.equal(
      (await get('/v3/accommodations?lat=41.9&lng=12.5&pageSize=3', { ip })).status,
      429,
      'the bucket is the endpoint, not the URL',
    );
    clockMs = start + 60_000; // the first request leaves the window
    assert.equal((await get(SEARCH, { ip })).status, 200);
    assert.equal((await get(SEARCH, { ip })).status, 429);
    clockMs = start + 120_000;
  });

  it("the key hint is the demo allowance's only: not a keyed 429, nor that of a route with its own keyless allowance", async () => {
    const ip = freshIp();
    const { key } = await admin.create({ aid: 'aff-hint', limitPerMinute: 1 });
    await get(SEARCH, { ip, headers: { 'x-api-key': key } });
    const keyed = await get(SEARCH, { ip, headers: { 'x-api-key': key } });
    assert.equal(keyed.status, 429);
    assert.doesNotMatch(keyed.body.message, /demo-key/, 'a keyed client has a key');
    for (let i = 0; i < 3; i++) await get('/go/supplier_a/1?aid=x', { ip });
    const click = await get('/go/supplier_a/1?aid=x', { ip });
    assert.equal(click.status, 429);
    assert.doesNotMatch(click.body.message, /demo-key/, 'a traveller clicking has no use for a key');
    clockMs += 60_000;
  });

  it('keyed: a bucket per key (not per IP), the default keyed limit or the key own', async () => {
    const ip = freshIp();
    const plain = await admin.create({ aid: 'aff-plain' });
    const limited = await admin.create({ aid: 'aff-limited', limitPerMinute: 2 });
    for (let i = 0; i < 5; i++) await get(SEARCH, { ip }); // the IP's keyless bucket is spent
    assert.equal((await get(SEARCH, { ip })).status, 429);
    const statuses = [];
    for (let i = 0; i < 9; i++) statuses.push((await get(SEARCH, { ip, headers: { 'x-api-key': plain.key } })).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 200, 200, 429], 'keyed limit 8 in this app');
    const own = await get(SEARCH, { ip: freshIp(), headers: { 'x-api-key': limited.key } });
    assert.equal(own.headers['x-ratelimit-limit'], '2');
    await get(SEARCH, { ip: freshIp(), headers: { 'x-api-key': limited.key } });
    // Same key from another address: the same bucket.
    assert.equal((await get(SEARCH, { ip: freshIp(), headers: { 'x-api-key': limited.key } })).status, 429);
    clockMs += 60_000;
  });

  it('an invalid key counts against the IP, so keys cannot be guessed faster than keyless requests', async () => {
    const ip = freshIp();
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await get(SEARCH, { ip, headers: { 'x-api-key': `guess-${i}` } })).status);
    assert.deepEqual(statuses, [401, 401, 401, 401, 401]);
    // The IP's allowance is spent: a keyless request is refused...
    assert.equal((await get(SEARCH, { ip })).status, 429);
    // ...and a sixth key is not even checked for the rest of the window. Unchecked, it is not
    // called invalid: a partner's new, valid key (its server tried an old one a few times) is
    // told to wait, and until when, not to fix a key that is fine (docs/decisions.md 84).
    const fresh = (await admin.create({ aid: 'late-aid' })).key;
    clockMs += 20_000;
    for (const key of ['guess-6', fresh]) {
      const guess = await get(SEARCH, { ip, headers: { 'x-api-key': key } });
      assert.equal(guess.status, 429, `${key}: ${JSON.stringify(guess.body)}`);
      assert.equal(guess.body.code, 'TOO_MANY_INVALID_KEYS');
      assert.equal(guess.body.error, 'Too Many Requests');
      assert.equal(guess.headers['retry-after'], '40', 'the allowance frees 60 s after the first failed check');
      assert.deepEqual(guess.body.details, { limit: 5, retryAfter: '40' });
      assert.match(guess.body.message, /^Too many unknown API keys came from this address/);
      assert.match(guess.body.message, /A valid key will be served again in 40 s/);
      assert.doesNotMatch(guess.body.message, /invalid|revoked/i, 'an unchecked key is not called invalid');
    }
    clockMs += 40_000;
    assert.equal((await get(SEARCH, { ip, headers: { 'x-api-key': fresh } })).status, 200, 'checked again once the window passed');
  });

  it('failed key checks on any endpoint share the keyless allowance; a known valid key still works; /health ignores keys', async () => {
    const ip = freshIp();
    const { key } = await admin.create({ aid: 'shared-ip-aid' });
    assert.equal((await get(SEARCH, { ip, headers: { 'x-api-key': key } })).status, 200);
    // /go allows 3 keyless clicks here, docs 60 a minute: failed keys there still count toward the 5.
    for (let i = 0; i < 5; i++) {
      const url = i % 2 === 0 ? '/go/supplier_a/1?aid=x' : '/docs/migrating-v1-to-v3';
      assert.equal((await get(url, { ip: ip, headers: { 'x-api-key': `guess-${i}` } })).status, 401, url);
    }
    const locked = await get('/docs/migrating-v1-to-v3', { ip, headers: { 'x-api-key': 'guess-5' } });
    assert.equal(locked.status, 429);
    assert.equal(locked.body.code, 'TOO_MANY_INVALID_KEYS');
    assert.equal((await get(SEARCH, { ip, headers: { 'x-api-key': key } })).status, 200, 'a key seen valid is not locked out');
    // Health checks are unlimited, so they read no key at all: no oracle for guessing.
    for (let i = 0; i < 20; i++)
      assert.equal((await get('/health', { ip: freshIp(), headers: { 'x-api-key': `guess-${i}` } })).status, 200);
    clockMs += 60_000;
  });
});

// Bare HTTP apps: the hook's wiring without a world.
const emptyResult = {
  hits: [],
  total: 0,
  hasMore: false,
  unresolved: [],
  currency: 'USD',
  cache: 'HIT' as const,
  failures: {},
  clusters: null,
  clustering: null,
};
function bareApp(
  options: {
    trustedProxies?: string[];
    logStream?: Writable;
    keys?: KeyStore;
    search?: Services['search'];
    limits?: AccessControl['limits'];
  } = {},
) {
  const store = options.keys ?? createSqliteKeyStore({ path: ':memory:' });
  const access: AccessControl = {
    keys: createKeyVerifier({ store, maxAgeMs: 0 }),
    limiter: createMemoryRateLimiter({ windowMs: 60_000 }),
    limits: options.limits ?? { keyless: 2, keyed: 3 },
    windowMs: 60_000,
  };
  const app = createHttpApp({
    settings: defaults,
    services: () => ({ search: options.search ?? (async () => emptyResult), inventory: { stays: 0, version: 'v' } }),
    now: () => new Date('2026-11-21T10:00:00Z'),
    publicUrl: null,
    logger: options.logStream === undefined ? false : { level: 'info', stream: options.logStream },
    access,
    trustedProxies: options.trustedProxies,
  });
  return { app, store };
}

describe('client address', () => {
  it('is the socket address; X-Forwarded-For counts only from a trusted proxy', async () => {
    const { app, store } = bareApp({ trustedProxies: ['10.0.0.1'] });
    const hit = (remoteAddress: string, forwarded: string) =>
      app.inject({ url: '/v3/accommodations?lat=48.8566&lng=2.3522', remoteAddress, headers: { 'x-forwarded-for': forwarded } });
    // Through the trusted proxy: each forwarded client has its own bucket of 2.
    assert.equal((await hit('10.0.0.1', '203.0.113.7')).statusCode, 200);
    assert.equal((await hit('10.0.0.1', '203.0.113.7')).statusCode, 200);
    assert.equal((await hit('10.0.0.1', '203.0.113.7')).statusCode, 429);
    assert.equal((await hit('10.0.0.1', '203.0.113.8')).statusCode, 200);
    // A client talking directly cannot pick its bucket by forging the header.
    assert.equal((await hit('192.0.2.9', '203.0.113.50')).statusCode, 200);
    assert.equal((await hit('192.0.2.9', '203.0.113.51')).statusCode, 200);
    assert.equal((await hit('192.0.2.9', '203.0.113.52')).statusCode, 429);
    await app.close();
    await store.close();

    const direct = bareApp();
    assert.equal(
      (
        await direct.app.inject({
          url: '/v3/accommodations?lat=48.8566&lng=2.3522',
          remoteAddress: '10.0.0.1',
          headers: { 'x-forwarded-for': '1.1.1.1' },
        })
      ).statusCode,
      200,
    );
    assert.equal(
      (
        await direct.app.inject({
          url: '/v3/accommodations?lat=48.8566&lng=2.3522',
          remoteAddress: '10.0.0.1',
          headers: { 'x-forwarded-for': '2.2.2.2' },
        })
      ).statusCode,
      200,
    );
    assert.equal(
      (
        await direct.app.inject({
          url: '/v3/accommodations?lat=48.8566&lng=2.3522',
          remoteAddress: '10.0.0.1',
          headers: { 'x-forwarded-for': '3.3.3.3' },
        })
      ).statusCode,
      429,
      'no proxy configured: the header is ignored',
    );
    await direct.app.close();
    await direct.store.close();
  });
});

describe('a route that requires a key', () => {
  it('answers 401 MISSING_API_KEY without one, and hands the handler the key context', async () => {
    const { app, store } = bareApp();
    app.get('/protected', { config: { apiKey: 'required' } }, async (request) => {
      const auth = requireKey(request);
      return { partnerId: auth.partnerId, thirdParties: auth.thirdParties };
    });
    app.get('/optional', async (request) => requireKey(request).partnerId);
    const { key } = await createKeyAdmin(store).create({ aid: 'aff', partnerId: 'partner-9', thirdParties: ['shop'] });
    const missing = await app.inject('/protected');
    assert.equal(missing.statusCode, 401);
    assert.equal(missing.json().code, 'MISSING_API_KEY');
    assert.equal(missing.headers['x-ratelimit-limit'], '2');
    assert.equal((await app.inject({ url: '/protected', headers: { 'x-api-key': 'nope' } })).json().code, 'INVALID_API_KEY');
    const ok = await app.inject({ url: '/protected', headers: { 'x-api-key': key } });
    assert.deepEqual(ok.json(), { partnerId: 'partner-9', thirdParties: ['shop'] });
    assert.equal((await app.inject('/optional')).json().code, 'MISSING_API_KEY', 'requireKey() in a handler');
    await app.close();
    await store.close();
  });
});

describe('logs', () => {
  it('never carry a key, whatever the outcome of the request', async () => {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const keys = createSqliteKeyStore({ path: ':memory:' });
    const { key } = await createKeyAdmin(keys).create({ aid: 'aff' });
    const secret = key.split('_').slice(2).join('_');
    let fail = false;
    const { app } = bareApp({
      logStream,
      keys,
      limits: { keyless: 100, keyed: 8 },
      search: async () => {
        if (fail) throw new Error('boom');
        return emptyResult;
      },
    });
    await app.inject(`/v3/accommodations?lat=48.8566&lng=2.3522&key=${key}`); // 200
    await app.inject(`/v3/accommodations?%6Bey=${key}&lat=48.8566&lng=2.3522`); // 200, key name encoded
    await app.inject(`/v3/accommodations?lat=48.8566&lng=2.3522&KEY=${key}x`); // 200 (unknown parameter), still redacted
    await app.inject({ url: '/v3/accommodations?lat=48.8566&lng=2.3522', headers: { 'x-api-key': key } });
    await app.inject(`/v3/accommodations?key=${key}`); // 400
    await app.inject(`/nowhere?key=${key}`); // 404
    await app.inject(`/v3/accommodations?lat=48.8566&lng=2.3522&key=${key.slice(0, -1)}`); // 401
    fail = true;
    // Another place: the answer above is kept encoded for its tag (encoded-bodies.ts), so it would not search.
    await app.inject(`/v3/accommodations?lat=48.8&lng=2.3&key=${key}`); // 500, logged with its error
    fail = false;
    for (let i = 0; i < 4; i++) await app.inject(`/v3/accommodations?lat=48.8566&lng=2.3522&key=${key}`); // the last is a 429
    await app.close();
    await keys.close();
    const all = lines.join('');
    const statuses = new Set(lines.map((l) => JSON.parse(l).res?.statusCode).filter((s) => s !== undefined));
    assert.deepEqual([...statuses].sort(), [200, 400, 401, 404, 429, 500]);
    assert.ok(lines.length >= 10, `${lines.length} log lines`);
    assert.ok(all.includes('[REDACTED]'), 'the key is redacted');
    assert.ok(!all.includes(secret), 'a key secret reached the log');
  });
});
