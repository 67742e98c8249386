// Tracked deeplinks end to end: a search's links, the redirect to the (simulated) supplier's
// booking page, and the click recorded in the store.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ClickStore } from '../../clicks/click-store.ts';
import { createSqliteClickStore } from '../../clicks/sqlite-click-store.ts';
import { SUPPLIER_IDS } from '../../types.ts';
import { startTestApp, TEST_NOW, type TestApp } from '../../test-support/start-test-app.ts';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
let t: TestApp;
let clicks: ClickStore;
let ipSeq = 0;
const freshIp = () => `198.51.100.${++ipSeq}`;

before(async () => {
  // Searches by lat/lng: a geocoder that knows nothing spares the gazetteer's load.
  t = await startTestApp({
    stays: 2_000,
    settings: { keylessPerMinute: 1_000, keyedPerMinute: 1_000, goKeylessPerMinute: 3 },
    app: { geocoder: { geocode: async () => null } },
  });
  clicks = createSqliteClickStore({ path: path.join(t.dataDir, 'staygate.sqlite') });
});
after(async () => {
  await clicks.close();
  await t.close();
});

/** Follows a deeplink as a traveller's browser would (not following the redirect). */
async function click(link: string, userAgent = DESKTOP, method: 'GET' | 'HEAD' = 'GET') {
  const url = new URL(link);
  assert.equal(url.origin, 'http://gw.test');
  return t.app.http.inject({ method, url: url.pathname + url.search, headers: { 'user-agent': userAgent }, remoteAddress: freshIp() });
}

async function search(query: string) {
  const res = await t.get(`/v3/accommodations?${query}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.results as any[];
}

describe('GET /go/{supplier}/{supplierStayId}', () => {
  it("redirects to the supplier's booking page with the affiliate and a click id, and records the click", async () => {
    const [stay] = await search('lat=48.8566&lng=2.3522&pageSize=1&aid=aff-77&campaign=spring-mail');
    const [supplier, entry] = Object.entries(stay.suppliers as Record<string, { link: string }>)[0];
    const res = await click(entry.link, IPHONE);
    assert.equal(res.statusCode, 302);
    assert.equal(res.headers['cache-control'], 'no-store');
    const location = new URL(String(res.headers.location));
    const supplierStayId = new URL(entry.link).pathname.split('/').pop()!;
    assert.equal(location.origin, new URL(t.sim.urls[supplier as 'supplier_a']).origin, "the supplier's own site");

    const [recorded] = await clicks.recent(1);
    assert.deepEqual(recorded, {
      id: recorded.id,
      at: TEST_NOW.toISOString(),
      aid: 'aff-77',
      campaign: 'spring-mail',
      stayId: stay.id,
      supplier,
      supplierStayId: decodeURIComponent(supplierStayId),
      device: 'mobile',
    });
    assert.match(recorded.id, /^[A-Za-z0-9_-]{22}$/);

    // The booking page (the simulator's) knows the stay and got both ids.
    const page = await fetch(location);
    assert.equal(page.status, 200);
    const body = (await page.json()) as { property: { id: string }; affiliate: string; click: string; checkin: string | null };
    assert.equal(body.property.id, recorded.supplierStayId);
    assert.equal(body.affiliate, 'aff-77');
    assert.equal(body.click, recorded.id);
    assert.equal(body.checkin, null, 'no dates on a static search link');
    location.searchParams.set([...location.searchParams.keys()][0], 'no-such-stay');
    assert.equal((await fetch(location)).status, 404, 'the booking page knows only what its supplier sells');
  });

  it('answers a JSON 404, never a redirect, for an unknown supplier or stay; records nothing', async () => {
    const before = (await clicks.recent(1000)).length;
    for (const url of ['/go/supplier_x/123', '/go/supplier_a/no-such-stay', '/go/supplier_a/1,2', '/go/supplier_b/..%2F..%2Fevil']) {
      const res = await t.app.http.inject({ url, remoteAddress: freshIp() });
      assert.equal(res.statusCode, 404, url);
      assert.equal(res.headers.location, undefined);
      assert.equal(res.json().code, 'NOT_FOUND');
    }
    assert.equal((await clicks.recent(1000)).length, before);
  });

  it('answers a HEAD alike but counts no click', async () => {
    const [stay] = await search('lat=41.9&lng=12.5&pageSize=1');
    const before = (await clicks.recent(1000)).length;
    const res = await click(Object.values(stay.suppliers as Record<string, { link: string }>)[0].link, DESKTOP, 'HEAD');
    assert.equal(res.statusCode, 302);
    assert.ok(res.headers.location, 'res.headers.location');
    assert.equal((await clicks.recent(1000)).length, before);
  });
});

describe('GET /go/{id}', () => {
  it("without dates: the stay's first supplier in SUPPLIER_IDS order", async () => {
    const results = await search('lat=48.8566&lng=2.3522&pageSize=50');
    const multi = results.find((r) => Object.keys(r.suppliers).length >= 2);
    assert.ok(multi, 'a cross-listed stay');
    const res = await click(multi.url);
    assert.equal(res.statusCode, 302);
    const [recorded] = await clicks.recent(1);
    const expected = SUPPLIER_IDS.find((s) => s in multi.suppliers);
    assert.equal(recorded.supplier, expected);
    assert.equal(recorded.stayId, multi.id);
    assert.equal(recorded.device, 'desktop');
    assert.equal(recorded.aid, null);
  });

  it('with the dates of a dated search: the best-priced supplier, and the dates go on to the booking page', async () => {
    const results = await search('lat=48.8566&lng=2.3522&pageSize=50&checkin=2026-12-04&checkout=2026-12-07&aid=aff-dated');
    const priced = results.filter((r) => {
      const prices = Object.values(r.suppliers as Record<string, { price: { total: number } | null }>).map((e) => e.price?.total);
      return prices.length >= 2 && prices.every((p) => typeof p === 'number') && new Set(prices).size === prices.length;
    });
    const cheapestOf = (stay: any): string => {
      const entries = Object.entries(stay.suppliers as Record<string, { price: { total: number } }>);
      return entries.reduce((a, b) => (b[1].price.total < a[1].price.total ? b : a))[0];
    };
    // Stays where the cheapest is not the first supplier: what the undated choice would be.
    const telling = priced.filter((stay) => cheapestOf(stay) !== SUPPLIER_IDS.find((s) => s in stay.suppliers));
    assert.ok(telling.length > 0, 'a stay whose cheapest supplier is not its first');
    for (const stay of telling.slice(0, 3)) {
      const url = new URL(stay.url);
      assert.equal(url.searchParams.get('checkin'), '2026-12-04');
      assert.equal(url.searchParams.get('checkout'), '2026-12-07');
      const entries = Object.entries(stay.suppliers as Record<string, { link: string }>);
      const cheapest = cheapestOf(stay);
      const res = await click(stay.url);
      assert.equal(res.statusCode, 302);
      const [recorded] = await clicks.recent(1);
      assert.equal(recorded.supplier, cheapest, stay.id);
      assert.equal(recorded.aid, 'aff-dated');
      const location = new URL(String(res.headers.location));
      assert.ok([...location.searchParams.values()].includes('2026-12-04'), location.href);
      // The supplier links carry the dates too.
      for (const [, entry] of entries) assert.equal(new URL(entry.link).searchParams.get('checkin'), '2026-12-04');
    }
  });

  it('a link whose dates are no longer valid still redirects, to the first supplier', async () => {
    const results = await search('lat=48.8566&lng=2.3522&pageSize=50');
    const stay = results.find((r) => Object.keys(r.suppliers).length >= 2);
    const res = await click(`${stay.url}?checkin=2020-01-01&checkout=2020-01-03`);
    assert.equal(res.statusCode, 302);
    assert.equal(
      (await clicks.recent(1))[0].supplier,
      SUPPLIER_IDS.find((s) => s in stay.suppliers),
    );
    assert.ok(!String(res.headers.location).includes('2020-01-01'), 'stale dates are not passed on');
  });

  it('answers a JSON 404 for an unknown stay', async () => {
    for (const url of [
      '/go/stnosuchstay00',
      '/go/supplier_a:123',
      '/go/a,b',
      '/go/stnosuchstay00?checkin=2026-12-04&checkout=2026-12-07',
    ]) {
      const res = await t.app.http.inject({ url, remoteAddress: freshIp() });
      assert.equal(res.statusCode, 404, url);
      assert.equal(res.json().code, 'NOT_FOUND');
      assert.equal(res.headers.location, undefined);
    }
  });

  it('refuses a malformed aid with one 400', async () => {
    const [stay] = await search('lat=48.8566&lng=2.3522&pageSize=1');
    const res = await click(`${stay.url}?aid=${'x'.repeat(200)}`);
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().code, 'VALIDATION_ERROR');
  });
});

describe('rate limits on /go', () => {
  it('each /go route is its own bucket, apart from search', async () => {
    const [stay] = await search('lat=48.8566&lng=2.3522&pageSize=1');
    const supplierLink = new URL(Object.values(stay.suppliers as Record<string, { link: string }>)[0].link);
    const stayLink = new URL(stay.url);
    const ip = '192.0.2.200';
    const go = (u: URL) => t.app.http.inject({ url: u.pathname + u.search, remoteAddress: ip });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await go(supplierLink)).statusCode);
    assert.deepEqual(statuses, [302, 302, 302, 429], 'goKeyless is 3 in this app');
    assert.equal((await go(stayLink)).statusCode, 302, '/go/{id} has its own bucket');
    assert.equal(
      (await t.app.http.inject({ url: '/v3/accommodations?lat=48.8566&lng=2.3522&pageSize=1', remoteAddress: ip })).statusCode,
      200,
    );
  });
});
