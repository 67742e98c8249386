// @staygate/client against a real gateway started here (over HTTP, port 0).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { createClient, StaygateError } from '@staygate/client';
import { startTestApp, TEST_RATE_LIMITS, type TestApp } from '../../../src/test-support/start-test-app.ts';
import { REPORTED_SLOTS } from '../../../src/test-support/supplier-config.ts';

describe('@staygate/client', () => {
  let t: TestApp;
  let base: string;
  let key: string;
  before(async () => {
    // Links under the gateway's own address, so that _links.next can be followed.
    t = await startTestApp({ stays: 1_000, settings: { ...TEST_RATE_LIMITS, keylessPerMinute: 3 }, app: { publicUrl: null } });
    base = await t.app.http.listen({ port: 0, host: '127.0.0.1' });
    key = await t.createKey({ aid: 'aff-sdk', partnerId: 'partner-sdk', thirdParties: ['shop-sdk'] });
  });
  after(async () => {
    await t.close();
  });

  it("the generated types come from the gateway's published OpenAPI document", async () => {
    const committed = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8')) as unknown;
    const published = (await t.app.http.inject('/openapi.json')).json() as unknown;
    assert.deepEqual(committed, published, 'packages/client/openapi.json is stale: run npm run generate:client');
  });

  it('search returns one typed page; searchAll follows _links.next through every page', async () => {
    const client = createClient({ baseUrl: base, key });
    const page = await client.search({ address: 'Paris', pageSize: 5 });
    assert.equal(page.results.length, 5);
    assert.ok(page.meta.hasMore, 'Paris has more than one page');
    const ids: string[] = [];
    for await (const stay of client.searchAll({ address: 'Paris', pageSize: 7, radius: 2_000 })) ids.push(stay.id);
    const all = await client.search({ address: 'Paris', pageSize: 100, radius: 2_000 });
    assert.ok(ids.length > 7, `more than one page (${ids.length})`);
    assert.deepEqual(new Set(ids), new Set(all.results.map((r) => r.id)), 'every stay once');
    assert.equal(ids.length, all.results.length, 'no stay twice');
  });

  it("transactions iterates every JSON page of the key's transactions", async () => {
    // Travellers follow the key's deeplinks to the booking pages (about one in eight books) until
    // the partner holds a few transactions: paging one record at a time then means several pages.
    const found = await t.get('/v3/accommodations?address=Paris&radius=50000&pageSize=100', { 'X-API-KEY': key });
    // Only the slots whose report the sync reads can give a transaction (the others import a CSV).
    const links = (found.body.results as any[]).flatMap((r) =>
      Object.entries(r.suppliers as Record<string, { link: string }>)
        .filter(([supplier]) => (REPORTED_SLOTS as readonly string[]).includes(supplier))
        .map(([, e]) => e.link),
    );
    const held = async () =>
      (await t.get('/v1/reporting/transactions?thirdParty=shop-sdk&format=json&limit=500', { 'X-API-KEY': key })).body.data as any[];
    // Each click has a new random id, so whether it books is chance (12%, less the sold-out dates):
    // click round the links until three have booked (1,000 clicks leave less than 1e-40 of fewer).
    for (let i = 0; i < 1_000; i++) {
      const url = new URL(links[i % links.length]);
      const click = await t.app.http.inject({ url: url.pathname + url.search });
      assert.equal(click.statusCode, 302, click.body);
      await (await fetch(String(click.headers.location))).arrayBuffer();
      if (i % 20 === 19) {
        // A traveller books up to two days after landing (the simulator's rule): let them.
        t.clock.advance(3 * 86_400_000);
        await t.app.transactions.syncAll();
        if ((await held()).length >= 3) break;
      }
    }
    t.clock.advance(3 * 86_400_000);
    await t.app.transactions.syncAll();
    const expected = await held();
    assert.ok(expected.length >= 3, `${expected.length} transactions from the clicks on ${links.length} links`);
    const client = createClient({ baseUrl: base, key });
    const seen: string[] = [];
    for await (const transaction of client.transactions({ thirdParty: 'shop-sdk', limit: 1 }))
      seen.push(`${transaction.provider}:${transaction.bookingId}`);
    assert.deepEqual(seen.sort(), expected.map((r) => `${r.provider}:${r.bookingId}`).sort(), 'every transaction of every page, once');
  });

  it("errors are StaygateErrors with the body's code, message, requestId and details", async () => {
    const client = createClient({ baseUrl: base, key });
    const error = await client.search({ lat: 48 }).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(error instanceof StaygateError, 'a StaygateError');
    assert.equal(error.status, 400);
    assert.equal(error.code, 'LOCATION_REQUIRED');
    assert.match(error.message, /lng must be given with lat/);
    assert.match(error.requestId ?? '', /./, 'the request id');
    const refused = await createClient({ baseUrl: base, key: 'sg_nope' })
      .search({ address: 'Paris' })
      .then(
        () => null,
        (e: unknown) => e,
      );
    assert.ok(refused instanceof StaygateError && refused.code === 'INVALID_API_KEY', 'a refused key');
  });

  it('a 429 is retried after Retry-After up to retry.max, then thrown as RATE_LIMIT_EXCEEDED', async () => {
    const waits: number[] = [];
    const client = createClient({
      baseUrl: base,
      retry: {
        max: 2,
        wait: async (ms) => {
          waits.push(ms);
        },
      },
    });
    // The refused key above spent one of the IP's 3 (an invalid key counts against the IP).
    for (let i = 0; i < 2; i++) await client.search({ address: 'Lyon', pageSize: 1 });
    const error = await client.search({ address: 'Lyon' }).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(error instanceof StaygateError, 'thrown after the retries');
    assert.equal(error.code, 'RATE_LIMIT_EXCEEDED');
    assert.equal(waits.length, 2, 'two retries');
    assert.ok(
      waits.every((ms) => ms >= 1_000),
      `waited Retry-After: ${waits.join(', ')}`,
    );
  });
});
