// Web conventions a browser or a partner's HTTP client expects: compression on request, CORS with
// preflights that cost nothing, unknown parameters reported rather than carried into links, and
// documentation, static files and unknown paths that never spend the search allowance.
import assert from 'node:assert/strict';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../test-support/start-test-app.ts';

const BOX = '/v3/accommodations?nelat=49.2&nelng=2.9&swlat=48.4&swlng=1.8&pageSize=50';
let t: TestApp;
let ipCount = 0;
const freshIp = () => `192.0.2.${++ipCount}`;

before(async () => {
  // The spec's keyless allowance (5 a minute), so that spending it shows.
  t = await startTestApp({ stays: 2_000, settings: { keylessPerMinute: 5, goKeylessPerMinute: 60, corsOrigins: ['*'] } });
});
after(async () => {
  await t.close();
});

describe('compression', () => {
  it('sends JSON gzip or brotli when asked, identical once decoded, and plain otherwise', async () => {
    const plain = await t.app.http.inject({ url: BOX, headers: { 'accept-encoding': 'identity' } });
    assert.equal(plain.headers['content-encoding'], undefined);
    const gzip = await t.app.http.inject({ url: BOX, headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.match(String(gzip.headers.vary), /accept-encoding/i);
    assert.deepEqual(JSON.parse(gunzipSync(gzip.rawPayload).toString()), plain.json());
    assert.ok(gzip.rawPayload.length < plain.rawPayload.length / 3, `${gzip.rawPayload.length} of ${plain.rawPayload.length} bytes`);
    const br = await t.app.http.inject({ url: BOX, headers: { 'accept-encoding': 'br, gzip' } });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.deepEqual(JSON.parse(brotliDecompressSync(br.rawPayload).toString()), plain.json());
    // Asked again: the very bytes kept for the answer's tag and encoding (http/encoded-bodies.ts).
    for (const [encoding, first] of [
      ['gzip', gzip],
      ['br, gzip', br],
    ] as const) {
      const again = await t.app.http.inject({ url: BOX, headers: { 'accept-encoding': encoding } });
      assert.deepEqual(again.rawPayload, first.rawPayload, encoding);
      assert.equal(again.headers['content-length'], String(first.rawPayload.length));
    }
  });

  it('compresses the reporting CSV too, past the same threshold as any answer', async () => {
    const key = await t.createKey({ aid: 'aff-gzip', thirdParties: ['shop'] });
    // Twenty transactions of the key's partner: a page well past the 1 KB threshold. A page is sent
    // whole with its length (decision 97), so like any answer it is compressed when worth it.
    const stores = await t.openStores();
    try {
      const rows = Array.from({ length: 20 }, (_, i) => ({
        supplier: 'supplier_a' as const,
        bookingId: `gzip-${i}`,
        clickId: `ck-gzip-${i}`,
        aid: 'aff-gzip',
        partnerId: 'aff-gzip',
        campaign: 'spring-mail',
        device: 'mobile' as const,
        bookedAt: '2026-03-01T10:00:00.000Z',
        startDate: '2026-04-01',
        endDate: '2026-04-04',
        status: 'Pending' as const,
        commissionCents: 1234 + i,
        quantity: 3,
        information: 'Hotel Lumière, 3 nights, 1 room',
        destination: 'Paris, FR',
        userCountry: 'DE',
        lastUpdated: '2026-03-01T10:00:00.000Z',
      }));
      await stores.transactions.applyReport('supplier_a', rows, {
        syncedThrough: '2026-03-02T00:00:00.000Z',
        syncedAt: '2026-03-02T00:00:01.000Z',
      });
    } finally {
      await stores.close();
    }
    const url = '/v1/reporting/transactions?thirdParty=shop&startDate=2026-02-01&endDate=2026-03-31';
    const plain = await t.app.http.inject({ url, headers: { 'x-api-key': key } });
    assert.equal(plain.statusCode, 200, plain.body);
    assert.ok(plain.rawPayload.length > 1_024, `a CSV of ${plain.rawPayload.length} bytes, past the threshold`);
    const res = await t.app.http.inject({ url, headers: { 'x-api-key': key, 'accept-encoding': 'gzip' } });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /text\/csv/);
    assert.equal(res.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(res.rawPayload).toString(), plain.body);
    // The docs' script is large: compressed as well.
    const script = await t.app.http.inject({ url: '/docs/assets/swagger-ui-bundle.js', headers: { 'accept-encoding': 'gzip' } });
    assert.equal(script.headers['content-encoding'], 'gzip');
  });
});

describe('CORS', () => {
  it('a preflight allows X-API-KEY, exposes the rate-limit and request-id headers, and counts against nothing', async () => {
    const ip = freshIp();
    for (let i = 0; i < 8; i++) {
      const preflight = await t.app.http.inject({
        method: 'OPTIONS',
        url: '/v3/accommodations?address=Paris',
        remoteAddress: ip,
        headers: {
          origin: 'https://widget.example',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'x-api-key',
        },
      });
      assert.equal(preflight.statusCode, 204);
      assert.equal(preflight.headers['access-control-allow-origin'], '*');
      assert.match(String(preflight.headers['access-control-allow-headers']), /X-API-KEY/i);
      assert.match(String(preflight.headers['access-control-allow-methods']), /GET/);
      assert.equal(preflight.headers['x-ratelimit-limit'], undefined);
    }
    // Eight preflights later the IP's five searches are all there.
    const search = await t.app.http.inject({
      url: '/v3/accommodations?address=Paris&pageSize=1',
      remoteAddress: ip,
      headers: { origin: 'https://widget.example' },
    });
    assert.equal(search.statusCode, 200);
    assert.equal(search.headers['x-ratelimit-remaining'], '4');
    assert.equal(search.headers['access-control-allow-origin'], '*');
    const exposed = String(search.headers['access-control-expose-headers']).toLowerCase();
    for (const name of [
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
      'ratelimit',
      'ratelimit-policy',
      'retry-after',
      'x-request-id',
      'etag',
    ]) {
      assert.ok(exposed.split(/\s*,\s*/).includes(name), name);
    }
  });

  it('an OPTIONS that is no preflight is a 204 too, never a plain-text error; other methods are 405 on every route', async () => {
    for (const url of ['/v3/accommodations', '/nowhere']) {
      const res = await t.app.http.inject({ method: 'OPTIONS', url });
      assert.equal(res.statusCode, 204, url);
    }
    for (const url of ['/openapi.json', '/docs', '/health', '/metrics']) {
      const res = await t.app.http.inject({ method: 'POST', url });
      assert.equal(res.statusCode, 405, url);
      assert.equal(res.json().code, 'METHOD_NOT_ALLOWED', url);
    }
  });

  it('allowed origins are configurable: another origin gets no CORS grant', async () => {
    const only = await startTestApp({
      stays: 300,
      settings: { corsOrigins: ['https://partner.example'] },
      app: { geocoder: { geocode: async () => null } },
    });
    try {
      const preflight = (origin: string) =>
        only.app.http.inject({
          method: 'OPTIONS',
          url: '/v3/accommodations',
          headers: { origin, 'access-control-request-method': 'GET' },
        });
      assert.equal((await preflight('https://partner.example')).headers['access-control-allow-origin'], 'https://partner.example');
      assert.equal((await preflight('https://evil.example')).headers['access-control-allow-origin'], undefined);
    } finally {
      await only.close();
    }
  });
});

describe('unknown query parameters', () => {
  it('are listed in meta.ignored on every version and left out of every link', async () => {
    for (const version of ['v2', 'v3']) {
      const res = await t.get(`/${version}/accommodations?address=Paris&pagesize=2&utm_source=mail&pageSize=3&key=`, {
        'x-api-key': await t.createKey({ aid: `aff-${version}` }),
      });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.meta.ignored, [
        { param: 'pagesize', reason: 'unknown parameter' },
        { param: 'utm_source', reason: 'unknown parameter' },
      ]);
      for (const link of Object.values(res.body._links) as { href: string }[]) {
        assert.doesNotMatch(link.href, /pagesize|utm_source/, link.href);
        assert.match(link.href, /pageSize=3/);
      }
    }
    const clustered = await t.get('/v3/accommodations?nelat=49.2&nelng=2.9&swlat=48.4&swlng=1.8&cluster=true&typo=1', {
      'x-api-key': await t.createKey({ aid: 'aff-cl' }),
    });
    for (const cluster of clustered.body.clusters) assert.doesNotMatch(cluster._links.expand.href, /typo/);
    const v1 = await t.get('/v1/accommodations?provider=supplier_a&address=Paris&limit=2&colour=blue', {
      'x-api-key': await t.createKey({ aid: 'aff-v1' }),
    });
    assert.deepEqual(v1.body.meta.ignored, [{ param: 'colour', reason: 'unknown parameter' }]);
    assert.doesNotMatch(v1.body._links.self.href, /colour/);
  });

  it('known parameters need no notice', async () => {
    const res = await t.get('/v3/accommodations?address=Paris&pageSize=2', { 'x-api-key': await t.createKey({ aid: 'aff-known' }) });
    assert.equal(res.body.meta.ignored, undefined);
  });
});

describe('addresses in any script', () => {
  it('resolve to their city on every version', async () => {
    const key = await t.createKey({ aid: 'aff-scripts' });
    for (const [address, city] of [
      ['東京', 'Tokyo'],
      ['Москва', 'Moscow'],
      ['القاهرة', 'Cairo'],
      ['München', 'Munich'],
      ['Zürich', 'Zürich'],
    ]) {
      for (const version of ['v1', 'v2', 'v3']) {
        const url = `/${version}/accommodations?address=${encodeURIComponent(address)}&provider=supplier_a`;
        const res = await t.get(url, { 'x-api-key': key });
        assert.equal(res.status, 200, `${version} ${address} (${city}): ${JSON.stringify(res.body).slice(0, 200)}`);
      }
    }
  });
});

describe('what spends no search allowance', () => {
  it('docs, the OpenAPI document, static files, favicons and unknown paths', async () => {
    const ip = freshIp();
    for (const url of [
      '/favicon.ico',
      '/docs',
      '/openapi.json',
      '/docs/assets/swagger-ui.css',
      '/docs/migrating-v1-to-v3',
      '/nowhere',
      '/robots.txt',
    ]) {
      for (let i = 0; i < 6; i++) {
        const res = await t.app.http.inject({ url, remoteAddress: ip });
        assert.ok(res.statusCode === 200 || res.statusCode === 404, `${url}: ${res.statusCode}`);
      }
    }
    const search = await t.app.http.inject({ url: '/v3/accommodations?address=Paris&pageSize=1', remoteAddress: ip });
    assert.equal(search.statusCode, 200);
    assert.equal(search.headers['x-ratelimit-remaining'], '4', 'the first search of this IP');
  });
});
