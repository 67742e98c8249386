// What a content pull reports of the supplier's answers besides its listings: whether the
// credentials were accepted, and the 429s it waited out (fetch-json's waits, seen through the
// pull's async context) instead of failing the feed.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createSqliteStore } from '../store/sqlite-store.ts';
import { fetchJson } from '../suppliers/fetch-json.ts';
import { startFixtureServer, type FixtureServer } from '../test-support/fixture-server.ts';
import type { Supplier } from '../suppliers/supplier.ts';
import type { Listing, SupplierId } from '../types.ts';
import { describeRefresh, refreshContent } from './refresh-content.ts';
import { defaults } from '../defaults.ts';

const listing = (supplier: SupplierId, supplierStayId: string): Listing => ({
  supplier,
  supplierStayId,
  name: `Hotel ${supplierStayId}`,
  typeLabel: 'Hotel',
  type: 'hotel',
  address: '1 Main Street, Springfield, US',
  lat: 40,
  lng: -75,
  rating: { value: 8, hotelStars: 3, count: 10 },
  capacity: { guests: 2, bedrooms: 1, beds: 1, bathrooms: 1 },
  policies: { instantBook: true, freeCancellation: false },
  media: { thumbnail: '', logoSquare: '' },
});

describe('refreshContent: credentials and rate limits', () => {
  const dir = mkdtempSync(join(tmpdir(), 'staygate-refresh-content-'));
  let server: FixtureServer;
  before(async () => {
    server = await startFixtureServer((url) => {
      const n = server.requests.filter((r) => r === url.pathname).length;
      switch (url.pathname) {
        case '/limited-once':
          return n === 1 ? { status: 429, body: {}, headers: { 'retry-after': '0' } } : { body: [] };
        case '/refused':
          return { status: 401, body: { error: { code: 401, message: 'Invalid API key' } } };
        case '/page':
          return { body: [] };
        default:
          return { status: 500, body: { error: 'boom' } };
      }
    });
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A supplier whose feed is these paths fetched in turn, as a driver would with fetchJson, each page one listing. */
  const feedOf = (id: SupplierId, paths: string[]): Supplier => ({
    id,
    maxIdsPerQuote: 1,
    async *contentPages({ signal } = {}) {
      for (const [i, path] of paths.entries()) {
        await fetchJson(`${server.baseUrl}${path}`, { supplier: id, settings: defaults, signal, backoffMs: 1 });
        yield [listing(id, String(i + 1))];
      }
    },
    quote: () => assert.fail('no quotes here'),
    commissionReport: () => assert.fail('no reports here'),
  });

  it('reports auth ok, failed (with the supplier message) or unknown per feed, and the 429s each waited out', async () => {
    const store = createSqliteStore({ path: join(dir, 'store.sqlite'), settings: defaults });
    try {
      const outcome = await refreshContent({
        store,
        shrinkLimit: 0.2,
        suppliers: [
          feedOf('supplier_a', ['/limited-once', '/limited-once']),
          feedOf('supplier_b', ['/refused']),
          feedOf('supplier_c', ['/broken']),
          feedOf('supplier_d', ['/page', '/broken']),
        ],
      });
      const { supplier_a: a, supplier_b: b, supplier_c: c, supplier_d: d } = outcome.feeds;
      assert.deepEqual([a?.ok, a?.auth, a?.rateLimitWaits], [true, 'ok', 1], 'a 429 waited out: the feed applies');
      assert.deepEqual([b?.ok, b?.auth, b?.rateLimitWaits], [false, 'failed', 0]);
      assert.equal(!b!.ok && b!.error, 'auth: Invalid API key');
      assert.deepEqual([c?.ok, c?.auth], [false, 'unknown'], 'failed before any page, not for its credentials');
      assert.deepEqual([d?.ok, d?.auth], [false, 'ok'], 'a page came before it failed: the credentials were accepted');
      const lines = describeRefresh(outcome);
      assert.match(lines[0]!, /^supplier_a: 2 listings in \d+ ms \(1 rate-limit waits\)$/);
      assert.match(lines[1]!, /^supplier_b: feed failed after \d+ ms: auth: Invalid API key$/);
    } finally {
      await store.close();
    }
  });
});
