// The map's search (map-search.ts, docs/decisions.md 91): a partner's publishable map token from an
// origin it lists gets the token's allowance, the token's aid in its links and a count on the
// partner's hub; anything else gets the keyless allowance, and only what the map draws is answered.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createKeyAdmin } from '../../auth/key-admin.ts';
import { startTestApp, type TestApp } from '../../test-support/start-test-app.ts';

let t: TestApp;
let token: string;
let keyId: string;

before(async () => {
  // keyless 2, a traveller's map searches 3 per address, a whole token 5.
  t = await startTestApp({
    stays: 1_500,
    settings: {
      keylessPerMinute: 2,
      keyedPerMinute: 100,
      goKeylessPerMinute: 100,
      mapKeylessPerMinute: 3,
      mapTokenPerMinute: 5,
      mapCountFlushMs: 10,
    },
  });
  const stores = await t.openStores();
  try {
    const admin = createKeyAdmin(stores.keys);
    const { record } = await admin.create({ aid: 'blog-aid', partnerId: 'blog' });
    keyId = record.id;
    token = (await admin.createMapToken({ keyOrId: record.id, origins: ['https://blog.example', 'self'] })).token;
  } finally {
    await stores.close();
  }
});
after(() => t?.close());

const BOX = 'nelat=49&nelng=2.6&swlat=48.7&swlng=2.1&cluster=auto&pageSize=50';
const search = (query: string, ip: string, headers: Record<string, string> = {}) =>
  t.app.http.inject({ url: `/map/v3/accommodations?${query}`, remoteAddress: ip, headers });

describe('the map search with a map token', () => {
  it("from an origin the token lists: the token's allowance per address and in all, and the token's aid in every link", async () => {
    const origin = { origin: 'https://blog.example' };
    const first = await search(`${BOX}&aid=someone-else&token=${token}`, '10.1.0.1', origin);
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(first.headers['ratelimit-policy'], '"map-token";q=3;w=60', "the tighter allowance: the address's");
    for (const r of first.json().results) assert.match(r.url, /[?&]aid=blog-aid(&|$)/, "the token's aid wins");
    const ignored: { param: string }[] = first.json().meta.ignored ?? [];
    assert.ok(!ignored.some((i) => i.param === 'token'), 'the token is no ignored parameter');
    for (let i = 0; i < 2; i++) assert.equal((await search(`${BOX}&token=${token}`, '10.1.0.1', origin)).statusCode, 200);
    const spent = await search(`${BOX}&token=${token}`, '10.1.0.1', origin);
    assert.equal(spent.statusCode, 429, 'one address gets a traveller’s share');
    assert.equal(spent.json().code, 'RATE_LIMIT_EXCEEDED');
    // The whole token: 5 a minute here, the 3 above and 2 more from elsewhere; then no one.
    for (const ip of ['10.1.0.2', '10.1.0.3']) assert.equal((await search(`${BOX}&token=${token}`, ip, origin)).statusCode, 200);
    const whole = await search(`${BOX}&token=${token}`, '10.1.0.4', origin);
    assert.equal(whole.statusCode, 429, 'the whole token’s limit');
    assert.equal(whole.headers['ratelimit-policy'], '"map-token";q=5;w=60');
  });

  it("counts the token's searches by month for the partner's hub, and no search refused after its token passed", async () => {
    const stores = await t.openStores();
    try {
      const admin = createKeyAdmin(stores.keys);
      const counted = (await admin.createMapToken({ keyOrId: keyId, origins: ['https://blog.example'], limitPerMinute: 100 })).token;
      const origin = { origin: 'https://blog.example' };
      assert.equal((await search(`${BOX}&token=${counted}`, '10.1.1.1', origin)).statusCode, 200);
      // Past the token's checks, then a 400: no search drawn, none counted.
      assert.equal((await search(`${BOX}&token=${counted}&pageSize=1e2`, '10.1.1.1', origin)).statusCode, 400);
      assert.equal((await search(`${BOX}&token=${counted}`, '10.1.1.1', origin)).statusCode, 200);
      await t.app.flushMapSearches();
      const month = t.clock.now().toISOString().slice(0, 7);
      const counts = await stores.keys.mapSearches('blog');
      assert.deepEqual(
        counts.filter((c) => c.token === counted),
        [{ token: counted, month, searches: 2 }],
      );
      // The first token's five answered searches above (its 429s are not searches either).
      assert.deepEqual(
        counts.filter((c) => c.token === token),
        [{ token, month, searches: 5 }],
      );
    } finally {
      await stores.close();
    }
  });
});

describe('the map search: where the token is used from', () => {
  let other: string;
  before(async () => {
    const stores = await t.openStores();
    try {
      const admin = createKeyAdmin(stores.keys);
      // Tokens of their own: the one above has spent its whole allowance.
      token = (await admin.createMapToken({ keyOrId: keyId, origins: ['https://blog.example', 'self'], limitPerMinute: 100 })).token;
      other = (await admin.createMapToken({ keyOrId: keyId, origins: ['https://*.shop.example'] })).token;
    } finally {
      await stores.close();
    }
  });

  it('takes the Referer when there is no Origin, and a listed subdomain pattern', async () => {
    const byReferer = await search(`${BOX}&token=${token}`, '10.2.0.1', { referer: 'https://blog.example/trips/paris?x=1' });
    assert.equal(byReferer.statusCode, 200, byReferer.body);
    const sub = await search(`${BOX}&token=${other}`, '10.2.0.2', { origin: 'https://www.shop.example' });
    assert.equal(sub.statusCode, 200, sub.body);
  });

  it('refuses it from an origin it does not list, saying so (403), after the keyless allowance', async () => {
    const wrong = await search(`${BOX}&token=${token}`, '10.2.0.3', { origin: 'https://copycat.example' });
    assert.equal(wrong.statusCode, 403);
    assert.equal(wrong.json().code, 'FORBIDDEN');
    assert.match(wrong.json().message, /not for https:\/\/copycat\.example/);
    assert.ok(wrong.json().requestId, 'the error body carries its requestId');
    assert.equal(wrong.headers['ratelimit-policy'], '"keyless";q=2;w=60', 'it spent the keyless allowance');
    // The shop's token is not for the shop's own domain (only its subdomains), nor for http.
    for (const origin of ['https://shop.example', 'http://www.shop.example'])
      assert.equal((await search(`${BOX}&token=${other}`, '10.2.0.4', { origin })).statusCode, 403, origin);
  });

  it("on the gateway's own map page: the page's embedder decides (self, a framing site, or nothing said)", async () => {
    const ownPage = { referer: `http://gw.test/map?token=${token}` };
    const direct = await search(`${BOX}&token=${token}`, '10.2.0.5', { ...ownPage, 'x-map-embedder': 'self' });
    assert.equal(direct.statusCode, 200, 'self is listed');
    const framed = await search(`${BOX}&token=${token}`, '10.2.0.5', { ...ownPage, 'x-map-embedder': 'https://blog.example' });
    assert.equal(framed.statusCode, 200, 'framed by a listed site');
    const elsewhere = await search(`${BOX}&token=${other}`, '10.2.0.6', { ...ownPage, 'x-map-embedder': 'self' });
    assert.equal(elsewhere.statusCode, 403, 'a token without self is not for the map opened on the gateway');
    const unsaid = await search(`${BOX}&token=${token}`, '10.2.0.7', ownPage);
    assert.equal(unsaid.statusCode, 403);
    const bare = await search(`${BOX}&token=${token}`, '10.2.0.8');
    assert.equal(bare.statusCode, 403, 'no Origin, no Referer: no token');
    assert.match(bare.json().message, /Referrer-Policy/);
  });
});

describe('the map search without a working token', () => {
  it('gets the keyless allowance per address, not a traveller’s', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await search(BOX, '10.3.0.1');
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['ratelimit-policy'], '"keyless";q=2;w=60');
    }
    const refused = await search(BOX, '10.3.0.1');
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.json().code, 'RATE_LIMIT_EXCEEDED');
  });

  it('refuses a revoked token, and the token of a partner without an active key', async () => {
    const stores = await t.openStores();
    try {
      const admin = createKeyAdmin(stores.keys);
      const { record } = await admin.create({ aid: 'gone-aid', partnerId: 'gone' });
      const revokedToken = (await admin.createMapToken({ keyOrId: record.id, origins: ['https://gone.example'] })).token;
      const keyGone = (await admin.createMapToken({ keyOrId: record.id, origins: ['https://gone.example'] })).token;
      const origin = { origin: 'https://gone.example' };
      assert.equal((await search(`${BOX}&token=${keyGone}`, '10.4.0.1', origin)).statusCode, 200, 'works while the key is active');
      await admin.revokeMapToken(revokedToken);
      const revoked = await search(`${BOX}&token=${revokedToken}`, '10.4.0.2', origin);
      assert.equal(revoked.statusCode, 403);
      assert.match(revoked.json().message, /unknown or revoked/);
      await admin.revoke(record.id);
      assert.equal((await search(`${BOX}&token=${keyGone}`, '10.4.0.3', origin)).statusCode, 403, "the partner's last key is revoked");
      const unknown = await search(`${BOX}&token=sgmap_${'x'.repeat(32)}`, '10.4.0.4', origin);
      assert.equal(unknown.statusCode, 403);
    } finally {
      await stores.close();
    }
  });
});

describe('the map search answers only what the map draws', () => {
  it('refuses every other parameter in one 400 naming each', async () => {
    const res = await search('nelat=49&nelng=2.6&swlat=48.7&swlng=2.1&page=2&pageSize=100&cluster=true&hotelsearch=gran&foo=1', '10.5.0.1');
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().code, 'VALIDATION_ERROR');
    const named = res
      .json()
      .details.errors.map((e: { param: string }) => e.param)
      .sort();
    assert.deepEqual(named, ['cluster', 'foo', 'hotelsearch', 'page', 'pageSize']);
    // However the number is written: the search reads these as 100 too.
    for (const [i, size] of ['1e2', '%2B100', '100.0', '%20100'].entries()) {
      const res = await search(`nelat=49&nelng=2.6&swlat=48.7&swlng=2.1&pageSize=${size}`, `10.5.1.${i}`);
      assert.equal(res.statusCode, 400, `pageSize=${size}: ${res.body}`);
      assert.deepEqual(
        res.json().details.errors.map((e: { param: string }) => e.param),
        ['pageSize'],
        `pageSize=${size}`,
      );
    }
    const another = await search('lat=48.85&lng=2.35&radius=20000000', '10.5.0.2');
    assert.equal(another.statusCode, 400, 'a radius search is no map viewport');
    assert.deepEqual(
      another
        .json()
        .details.errors.map((e: { param: string }) => e.param)
        .sort(),
      ['lat', 'lng', 'radius'],
    );
  });

  it('answers the map’s own searches: the clustered viewport and the list’s 20 best, dated', async () => {
    const dated = 'checkin=2026-12-10&checkout=2026-12-13&adults=2&currency=EUR&type=hotel&provider=supplier_a&campaign=c';
    const clustered = await search(`${BOX}&${dated}`, '10.5.0.3');
    assert.equal(clustered.statusCode, 200, clustered.body);
    const list = await search(`nelat=49&nelng=2.6&swlat=48.7&swlng=2.1&pageSize=20&${dated}`, '10.5.0.4');
    assert.equal(list.statusCode, 200, list.body);
    assert.equal(list.json().meta.nights, 3);
  });
});
