import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../../test-support/start-test-app.ts';

const V2 = '/v2/accommodations';
const PARIS_BOX = 'nelat=48.90&nelng=2.42&swlat=48.82&swlng=2.27';
let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

describe('v2', () => {
  test('the v2 shape: rating, policies and media on the accommodation; suppliers carry link and logo', async () => {
    const res = await t.get(`${V2}?${PARIS_BOX}&pageSize=30`);
    assert.equal(res.status, 200);
    for (const r of res.body.results) {
      assert.equal('averageRatings' in r, false);
      assert.ok(r.rating.value === null || typeof r.rating.value === 'number', `rating ${r.rating.value} (null: no supplier rates it)`);
      assert.equal(typeof r.policies.instantBook, 'boolean');
      assert.equal(typeof r.media.thumbnail, 'string');
      assert.equal(typeof r.media.logoSquare, 'string');
      for (const entry of Object.values<any>(r.suppliers)) {
        assert.deepEqual(Object.keys(entry).sort(), ['link', 'media']);
        assert.deepEqual(Object.keys(entry.media), ['logoSquare']);
      }
      const offered = Object.keys(r.suppliers).map((s) => t.listing(s, decodeURIComponent(r.suppliers[s].link.split('/').pop())));
      assert.equal(
        r.policies.instantBook,
        offered.some((l) => l.policies.instantBook),
      );
    }
    assert.deepEqual(Object.keys(res.body.meta).sort(), [
      'count',
      'currency',
      'hasMore',
      'lang',
      'page',
      'pageSize',
      'total',
      'unresolved',
    ]);
  });

  test('same rules as v3: provider repeated or comma-separated, validation, dated prices', async () => {
    const a = await t.get(`${V2}?${PARIS_BOX}&provider=supplier_a&provider=supplier_c`);
    const b = await t.get(`${V2}?${PARIS_BOX}&provider=supplier_a,supplier_c`);
    assert.equal(a.body.meta.total, b.body.meta.total);
    assert.equal((await t.get(`${V2}?${PARIS_BOX}&provider=nope`)).body.code, 'VALIDATION_ERROR');
    assert.equal((await t.get(`${V2}?pageSize=3`)).body.code, 'LOCATION_REQUIRED');
    const dated = await t.get(`${V2}?${PARIS_BOX}&checkin=2027-03-01&checkout=2027-03-03&pageSize=10`);
    assert.equal(dated.body.meta.nights, 2);
    for (const r of dated.body.results) for (const e of Object.values<any>(r.suppliers)) assert.equal(typeof e.price.total, 'number');
  });
});

describe('conditional GET', () => {
  for (const version of ['v2', 'v3']) {
    test(`${version}: every 200 has an ETag; a matching If-None-Match (weak, in a list, or *) is a 304 without a body`, async () => {
      const url = `/${version}/accommodations?${PARIS_BOX}&aid=one`;
      const first = await t.get(url);
      const etag = String(first.headers.etag);
      assert.match(etag, /^W\/".+"$/);
      for (const header of [etag, etag.slice(2), `"nope", ${etag}`, '*']) {
        const res = await t.app.http.inject({ url, headers: { 'if-none-match': header } });
        assert.equal(res.statusCode, 304, header);
        assert.equal(res.body, '');
        assert.equal(res.headers.etag, etag);
      }
      assert.equal((await t.get(url, { 'if-none-match': '"something-else"' })).status, 200);
    });
  }

  test('tags differ whenever bodies can: another aid, another query, another version', async () => {
    const tag = async (url: string) => String((await t.get(url)).headers.etag);
    const base = await tag(`${V2}?${PARIS_BOX}&aid=one`);
    assert.equal(await tag(`${V2}?${PARIS_BOX}&aid=one`), base);
    assert.notEqual(await tag(`${V2}?${PARIS_BOX}&aid=two`), base);
    assert.notEqual(await tag(`${V2}?${PARIS_BOX}&aid=one&pageSize=11`), base);
    assert.notEqual(await tag(`/v3/accommodations?${PARIS_BOX}&aid=one`), base);
  });

  test('dated searches get a tag from their prices: the same answer again is a 304', async () => {
    const url = `${V2}?${PARIS_BOX}&checkin=2027-04-01&checkout=2027-04-03`;
    const first = await t.get(url);
    const again = await t.app.http.inject({ url, headers: { 'if-none-match': String(first.headers.etag) } });
    assert.equal(again.statusCode, 304);
    assert.notEqual(String((await t.get(`${url}&currency=EUR`)).headers.etag), first.headers.etag);
  });
});
