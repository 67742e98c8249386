import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createHttpApp } from './create-http-app.ts';
import { ifNoneMatchHits } from './etag.ts';
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

test('If-None-Match parsing follows weak comparison', () => {
  assert.equal(ifNoneMatchHits('W/"a"', 'W/"a"'), true);
  assert.equal(ifNoneMatchHits('"a"', 'W/"a"'), true);
  assert.equal(ifNoneMatchHits('"b", W/"a"', 'W/"a"'), true);
  assert.equal(ifNoneMatchHits('*', 'W/"a"'), true);
  assert.equal(ifNoneMatchHits('"ab"', 'W/"a"'), false);
  assert.equal(ifNoneMatchHits(undefined, 'W/"a"'), false);
  assert.equal(ifNoneMatchHits('garbage', 'W/"a"'), false);
});

test('a static 304 costs no search; a new inventory version changes the tag', async () => {
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
  for (const path of ['/v2/accommodations', '/v3/accommodations']) {
    searches = 0;
    version = 'inventory-1';
    const url = `${path}?lat=48.85&lng=2.35`;
    const first = await app.inject(url);
    assert.equal(searches, 1);
    const etag = String(first.headers.etag);
    const cached = await app.inject({ url, headers: { 'if-none-match': etag } });
    assert.equal(cached.statusCode, 304);
    assert.equal(searches, 1, 'the 304 was answered without searching');
    version = 'inventory-2';
    const changed = await app.inject({ url, headers: { 'if-none-match': etag } });
    assert.equal(changed.statusCode, 200);
    assert.notEqual(changed.headers.etag, etag);
  }
  await app.close();
});

test('v2 never answers 503: a gateway still loading is a 502 with Retry-After on v2, a 503 on v3', async () => {
  const app = createHttpApp({
    settings: defaults,
    services: () => null,
    now: () => new Date(),
    publicUrl: null,
    logger: false,
  });
  const v2 = await app.inject('/v2/accommodations?lat=48.85&lng=2.35');
  assert.equal(v2.statusCode, 502);
  assert.equal(v2.json().code, 'BAD_GATEWAY');
  assert.ok(v2.headers['retry-after'], "v2.headers['retry-after']");
  assert.equal((await app.inject('/v3/accommodations?lat=48.85&lng=2.35')).statusCode, 503);
  await app.close();
});
