// Static answers kept encoded (issue 22): the encoding chosen as @fastify/compress chooses it, a
// second ask for the same tag and encoding sends the same bytes without searching, and the cache
// holds no more bytes than it is given.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createHttpApp } from './create-http-app.ts';
import { createEncodedBodies, encodeBody, negotiateEncoding } from './encoded-bodies.ts';
import type { Services } from './route-context.ts';
import type { SearchResult } from '../search/search-result.ts';
import { defaults } from '../defaults.ts';

const EMPTY: SearchResult = {
  hits: [],
  total: 0,
  hasMore: false,
  unresolved: [],
  currency: 'USD',
  cache: 'HIT',
  failures: {},
  clusters: null,
  clustering: null,
};

describe('encoded static answers', () => {
  it('choose the encoding the compress plugin would: br over gzip, q-values, * and x-gzip as gzip, else identity', () => {
    const cases: [Record<string, string>, string][] = [
      [{ 'accept-encoding': 'gzip, deflate, br' }, 'br'],
      [{ 'accept-encoding': 'gzip' }, 'gzip'],
      [{ 'accept-encoding': 'br;q=0.5, gzip' }, 'gzip'],
      [{ 'accept-encoding': 'x-gzip' }, 'gzip'],
      [{ 'accept-encoding': '*' }, 'gzip'],
      [{ 'accept-encoding': 'GZIP' }, 'gzip'],
      [{ 'accept-encoding': 'deflate' }, 'identity'],
      [{ 'accept-encoding': 'identity' }, 'identity'],
      [{ 'accept-encoding': 'br', 'x-no-compression': '1' }, 'identity'],
      [{}, 'identity'],
    ];
    for (const [headers, expected] of cases) assert.equal(negotiateEncoding(headers), expected, JSON.stringify(headers));
  });

  it('encode as the plugin does: nothing below its threshold, gzip and brotli that decode to the text', () => {
    const small = encodeBody('{"a":1}', 'gzip', defaults);
    assert.deepEqual([small.contentEncoding, small.bytes.toString()], [null, '{"a":1}']);
    const text = JSON.stringify({ results: Array.from({ length: 200 }, (_, i) => ({ id: `stay-${i}`, name: 'Hôtel du Parc' })) });
    const gzip = encodeBody(text, 'gzip', defaults);
    assert.equal(gzip.contentEncoding, 'gzip');
    assert.equal(gunzipSync(gzip.bytes).toString(), text);
    const br = encodeBody(text, 'br', defaults);
    assert.equal(br.contentEncoding, 'br');
    assert.equal(brotliDecompressSync(br.bytes).toString(), text);
    assert.equal(encodeBody(text, 'identity', defaults).bytes.toString(), text);
  });

  it('hold no more bytes than their bound, the least recently used going first', () => {
    const bodies = createEncodedBodies(1_000);
    const body = (n: number) => ({ bytes: Buffer.alloc(n), contentEncoding: null });
    bodies.set('W/"a"', 'gzip', body(400));
    bodies.set('W/"b"', 'gzip', body(400));
    assert.ok(bodies.get('W/"a"', 'gzip'), 'a used again: b is now the oldest');
    bodies.set('W/"c"', 'gzip', body(400));
    assert.deepEqual(
      ['a', 'b', 'c'].map((tag) => bodies.get(`W/"${tag}"`, 'gzip') !== undefined),
      [true, false, true],
    );
    assert.equal(bodies.get('W/"a"', 'br'), undefined, 'kept per encoding');
    bodies.set('W/"d"', 'gzip', body(2_000));
    assert.equal(bodies.get('W/"d"', 'gzip'), undefined, 'a body larger than the bound is not kept');
  });

  it('answer a static search asked again, in each encoding, with the same bytes and no search; dated searches always search', async () => {
    let searches = 0;
    let version = 'inventory-1';
    const services = (): Services => ({
      search: async () => {
        searches++;
        return EMPTY;
      },
      inventory: { stays: 0, version },
    });
    const app = createHttpApp({
      settings: defaults,
      services,
      now: () => new Date('2026-11-21T00:00:00Z'),
      publicUrl: 'http://gw.test',
      logger: false,
    });
    try {
      for (const path of ['/v2/accommodations', '/v3/accommodations']) {
        const url = `${path}?lat=48.85&lng=2.35`;
        for (const encoding of ['identity', 'gzip', 'br']) {
          searches = 0;
          const first = await app.inject({ url, headers: { 'accept-encoding': encoding } });
          const again = await app.inject({ url, headers: { 'accept-encoding': encoding } });
          assert.equal(searches, 1, `${url} ${encoding}: searched once`);
          assert.equal(again.statusCode, 200);
          assert.deepEqual(again.rawPayload, first.rawPayload);
          for (const header of ['etag', 'x-cache', 'content-type', 'content-encoding', 'vary'])
            assert.equal(again.headers[header], first.headers[header], header);
          assert.equal(again.headers['x-cache'], 'HIT');
          assert.equal(again.headers.vary, 'Host, X-API-KEY, Accept-Encoding');
        }
        version = 'inventory-2';
        searches = 0;
        const changed = await app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
        assert.equal(changed.statusCode, 200);
        assert.equal(searches, 1, 'a new content version is searched again');
        version = 'inventory-1';

        searches = 0;
        const dated = `${url}&checkin=2026-12-01&checkout=2026-12-03`;
        await app.inject({ url: dated, headers: { 'accept-encoding': 'gzip' } });
        await app.inject({ url: dated, headers: { 'accept-encoding': 'gzip' } });
        assert.equal(searches, 2, 'dated answers depend on live prices: never kept');
      }
    } finally {
      await app.close();
    }
  });
});
