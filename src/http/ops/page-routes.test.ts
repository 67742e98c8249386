// The pages' routes (page-routes.ts) on a stand-in build, and the map's own search allowance
// (docs/decisions.md 39). The pages themselves are tested in a browser (web/*.browser.test.ts).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../../test-support/start-test-app.ts';

let t: TestApp;
let web: string;
const JS = 'console.log("map");'.repeat(50);
const TILE = Buffer.from('a street tile '.repeat(40));

before(async () => {
  web = mkdtempSync(path.join(tmpdir(), 'staygate-web-'));
  writeFileSync(path.join(web, 'map.html'), '<script type="application/json" id="config">{"config":"here"}</script>');
  writeFileSync(path.join(web, 'hub.html'), '<h1>hub</h1>');
  writeFileSync(path.join(web, 'map.js'), JS);
  writeFileSync(path.join(web, 'map.js.gz'), gzipSync(JS));
  // A stand-in street tile set of one tile (web/basemap-build.ts writes the real one).
  writeFileSync(path.join(web, 'basemap.json'), JSON.stringify({ tiles: '/assets/basemap/v1abc/{z}/{x}/{y}.mvt' }));
  mkdirSync(path.join(web, 'basemap'));
  writeFileSync(path.join(web, 'basemap', '13-2101-3045.mvt'), TILE);
  writeFileSync(path.join(web, 'basemap', '13-2101-3045.mvt.gz'), gzipSync(TILE));
  t = await startTestApp({
    stays: 1_500,
    settings: { keylessPerMinute: 2, keyedPerMinute: 100, goKeylessPerMinute: 100, mapKeylessPerMinute: 3 },
    app: { webDir: web },
  });
});
after(async () => {
  await t.close();
  rmSync(web, { recursive: true, force: true });
});

const config = (html: string) => JSON.parse(/id="config">(.*)<\/script>/.exec(html)![1]);
const from = (ip: string) => ({ remoteAddress: ip });

describe('page routes', () => {
  it('/map writes its start view into the page: from lat/lng/zoom, or the address geocoded', async () => {
    const byPoint = await t.app.http.inject({ url: '/map?lat=41.39&lng=2.17&zoom=11&aid=x', ...from('10.0.0.1') });
    assert.equal(byPoint.statusCode, 200);
    assert.match(String(byPoint.headers['content-type']), /^text\/html/);
    assert.match(String(byPoint.headers['content-security-policy']), /frame-ancestors \*/);
    assert.deepEqual(config(byPoint.body).view, { lat: 41.39, lng: 2.17, zoom: 11 });
    assert.equal(config(byPoint.body).searchPath, '/map/v3/accommodations');
    assert.equal(config(byPoint.body).tiles, null);
    const byAddress = config((await t.app.http.inject({ url: '/map?address=Paris', ...from('10.0.0.1') })).body);
    assert.ok(Math.abs(byAddress.view.lat - 48.86) < 0.1 && byAddress.view.zoom === 12, JSON.stringify(byAddress));
    // An unknown place is said on the page; what the address says cannot close the script element.
    const unknown = await t.app.http.inject({
      url: `/map?address=${encodeURIComponent('</script><script>alert(1)</script>')}`,
      ...from('10.0.0.1'),
    });
    assert.ok(!unknown.body.includes('</script><script>'), "!unknown.body.includes('</script><script>')");
    assert.equal(config(unknown.body).view, null);
    assert.match(config(unknown.body).message, /No place called/);
  });

  it('/hub may not be framed and leaks no referrer', async () => {
    const res = await t.app.http.inject({ url: '/hub', ...from('10.0.0.2') });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-frame-options'], 'DENY');
    assert.match(String(res.headers['content-security-policy']), /frame-ancestors 'none'/);
    assert.equal(res.headers['referrer-policy'], 'no-referrer');
  });

  it('/assets: gzipped when accepted, revalidated by ETag, unknown names a JSON 404, never limited', async () => {
    const plain = await t.app.http.inject({ url: '/assets/map.js', ...from('10.0.0.3') });
    assert.equal(plain.body, JS);
    assert.match(String(plain.headers['content-type']), /^text\/javascript/);
    assert.equal(plain.headers['x-ratelimit-limit'], undefined);
    const gz = await t.app.http.inject({ url: '/assets/map.js', headers: { 'accept-encoding': 'gzip, br' }, ...from('10.0.0.3') });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.ok(gz.rawPayload.length < JS.length, 'gz.rawPayload.length < JS.length');
    const again = await t.app.http.inject({
      url: '/assets/map.js',
      headers: { 'if-none-match': String(plain.headers.etag) },
      ...from('10.0.0.3'),
    });
    assert.equal(again.statusCode, 304);
    for (const name of ['nope.js', 'map.html', '..%2Fmap.js']) {
      const missing = await t.app.http.inject({ url: `/assets/${name}`, ...from('10.0.0.3') });
      assert.equal(missing.statusCode, 404, name);
      assert.equal(missing.json().code, 'NOT_FOUND');
    }
  });

  it("/assets/basemap: street tiles under the set's version, cached for good, empty where the set has none, a JSON 404 for any other name", async () => {
    const tile = await t.app.http.inject({ url: '/assets/basemap/v1abc/13/2101/3045.mvt', ...from('10.0.0.4') });
    assert.equal(tile.statusCode, 200);
    assert.deepEqual(tile.rawPayload, TILE);
    assert.equal(tile.headers['content-type'], 'application/vnd.mapbox-vector-tile');
    assert.equal(tile.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(tile.headers['x-ratelimit-limit'], undefined);
    const gz = await t.app.http.inject({
      url: '/assets/basemap/v1abc/13/2101/3045.mvt',
      headers: { 'accept-encoding': 'gzip' },
      ...from('10.0.0.4'),
    });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.deepEqual(gz.rawPayload, gzipSync(TILE));
    // A tile of the world the set has no data for: an empty tile (a valid one), cached the same.
    const empty = await t.app.http.inject({ url: '/assets/basemap/v1abc/13/4000/2000.mvt', ...from('10.0.0.4') });
    assert.equal(empty.statusCode, 200);
    assert.equal(empty.rawPayload.length, 0);
    assert.equal(empty.headers['cache-control'], 'public, max-age=31536000, immutable');
    for (const name of ['v0old/13/2101/3045.mvt', 'v1abc/13/8192/1.mvt', 'v1abc/x/1/1.mvt', 'v1abc/13/2101/3045.png', 'v1abc/99/1/1.mvt']) {
      const missing = await t.app.http.inject({ url: `/assets/basemap/${name}`, ...from('10.0.0.4') });
      assert.equal(missing.statusCode, 404, name);
      assert.equal(missing.json().code, 'NOT_FOUND', name);
      assert.ok(missing.json().requestId, `${name}: the error body has its requestId`);
    }
  });

  it("the map's search without a token: the v3 search's answer, with the keyless allowance in a bucket of its own (tokens: map-search.test.ts)", async () => {
    const box = 'nelat=49&nelng=2.6&swlat=48.7&swlng=2.1&cluster=auto';
    const ip = from('10.0.0.4');
    for (let i = 0; i < 2; i++) assert.equal((await t.app.http.inject({ url: `/v3/accommodations?${box}`, ...ip })).statusCode, 200);
    assert.equal((await t.app.http.inject({ url: `/v3/accommodations?${box}`, ...ip })).statusCode, 429, 'the demo allowance is spent');
    const map = await t.app.http.inject({ url: `/map/v3/accommodations?${box}`, ...ip });
    assert.equal(map.statusCode, 200);
    assert.equal(map.headers['x-ratelimit-limit'], '2', 'the keyless allowance, not a traveller’s (docs/decisions.md 91)');
    const api = await t.app.http.inject({ url: `/v3/accommodations?${box}`, ...from('10.0.0.5') });
    assert.deepEqual(
      map.json().results.map((r: any) => r.id),
      api.json().results.map((r: any) => r.id),
    );
    assert.equal(map.json().clusters.length, api.json().clusters.length);
    assert.equal((await t.app.http.inject({ url: `/map/v3/accommodations?${box}`, ...ip })).statusCode, 200);
    const refused = await t.app.http.inject({ url: `/map/v3/accommodations?${box}`, ...ip });
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.json().code, 'RATE_LIMIT_EXCEEDED');
    // Bad input is the search's own 400.
    const bad = await t.app.http.inject({ url: '/map/v3/accommodations?nelat=49', ...from('10.0.0.6') });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().code, 'LOCATION_REQUIRED');
  });

  it('/map still has the traveller allowance for the page itself', async () => {
    const page = await t.app.http.inject({ url: '/map?lat=48.85&lng=2.35', ...from('10.0.0.7') });
    assert.equal(page.statusCode, 200);
    assert.equal(page.headers['x-ratelimit-limit'], '3');
    assert.equal(config(page.body).pricedCandidates, 150, 'the page knows how many stays a dated search prices');
  });
});

describe('the map page template', () => {
  it('holds the configuration placeholder byte for byte (a formatter that respaced it left the page without its settings)', () => {
    const template = readFileSync(new URL('../../../web/map/map.html', import.meta.url), 'utf8');
    assert.ok(template.includes('{"config":"here"}'), 'web/map/map.html has {"config":"here"}, which page-routes.ts replaces');
  });
});
