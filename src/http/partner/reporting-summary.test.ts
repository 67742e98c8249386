// GET /v1/reporting/summary: a partner's clicks and bookings by month, campaign, device and
// supplier, counted in the database (docs/decisions.md 41). Clicks and transactions are written
// straight into the gateway's stores, so every expected figure is known exactly.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Click } from '../../clicks/click-store.ts';
import { createKeyAdmin } from '../../auth/key-admin.ts';
import { createSqliteClickStore } from '../../clicks/sqlite-click-store.ts';
import { createSqliteTransactionStore } from '../../reporting/sqlite-transaction-store.ts';
import { row } from '../../test-support/contracts/transaction-store-contract.ts';
import { startTestApp, TEST_NOW, type TestApp } from '../../test-support/start-test-app.ts';
import { defaults } from '../../defaults.ts';

const URL_BASE = '/v1/reporting/summary';
let t: TestApp;
let keyA: string;
let keyA2: string;
let keyB: string;
let keyLimited: string;

let clickNo = 0;
function click(at: string, aid: string | null, overrides: Partial<Click> = {}): Click {
  return {
    id: `c${clickNo++}`,
    at,
    aid,
    campaign: 'summer-mail',
    stayId: 'st000000000001',
    supplier: 'supplier_a',
    supplierStayId: '1000001',
    device: 'mobile',
    ...overrides,
  };
}

before(async () => {
  // Map search counts are stored every 10 ms (the map tokens' section below waits for them).
  t = await startTestApp({ stays: 1_500, settings: { mapCountFlushMs: 10 } });
  // Partner A has two aids (two keys); partner B one. The clock is TEST_NOW, 2026-11-21.
  keyA = await t.createKey({ aid: 'aff-a', partnerId: 'partner-a', thirdParties: ['shop-a'] });
  keyA2 = await t.createKey({ aid: 'aff-a2', partnerId: 'partner-a' });
  keyB = await t.createKey({ aid: 'aff-b', partnerId: 'partner-b', thirdParties: ['shop-b'] });
  keyLimited = await t.createKey({ aid: 'aff-l', partnerId: 'partner-l', limitPerMinute: 2 });

  const database = path.join(t.dataDir, 'staygate.sqlite');
  const clicks = createSqliteClickStore({ path: database });
  for (const c of [
    click('2026-01-05T10:00:00.000Z', 'aff-a'),
    click('2026-01-06T10:00:00.000Z', 'aff-a', { device: 'desktop', campaign: null }),
    click('2026-01-31T23:59:59.999Z', 'aff-a2', { supplier: 'supplier_d' }),
    click('2026-02-01T00:00:00.000Z', 'aff-a', { campaign: 'winter-ads' }),
    click('2026-02-02T00:00:00.000Z', 'aff-a', { campaign: 'winter-ads', device: 'tablet' }),
    click('2025-12-31T23:59:59.999Z', 'aff-a'), // before the period asked below
    click('2026-01-10T00:00:00.000Z', 'aff-b'),
    click('2026-01-11T00:00:00.000Z', 'aff-b'),
    click('2026-01-12T00:00:00.000Z', null),
  ])
    await clicks.record(c);
  await clicks.close();

  const transactions = createSqliteTransactionStore({ path: database, settings: defaults });
  const sync = { syncedThrough: '2026-11-21T00:00:00.000Z', syncedAt: '2026-11-21T00:00:01.000Z' };
  await transactions.applyReport(
    'supplier_a',
    [
      row('A1', {
        partnerId: 'partner-a',
        aid: 'aff-a',
        campaign: 'summer-mail',
        bookedAt: '2026-01-05T11:00:00.000Z',
        status: 'Approved',
        commissionCents: 1_500,
      }),
      row('A2', {
        partnerId: 'partner-a',
        aid: 'aff-a',
        campaign: 'winter-ads',
        bookedAt: '2026-02-01T01:00:00.000Z',
        status: 'Pending',
        commissionCents: 2_000,
      }),
      row('A3', {
        partnerId: 'partner-a',
        aid: 'aff-a',
        campaign: 'winter-ads',
        bookedAt: '2026-02-02T01:00:00.000Z',
        status: 'Canceled',
        commissionCents: 0,
        device: 'tablet',
      }),
      row('B1', {
        partnerId: 'partner-b',
        aid: 'aff-b',
        campaign: 'b-secret',
        bookedAt: '2026-01-10T01:00:00.000Z',
        status: 'Approved',
        commissionCents: 99_900,
      }),
      row('U1', { partnerId: null, aid: null, clickId: null, bookedAt: '2026-01-12T01:00:00.000Z', commissionCents: 777 }),
    ],
    sync,
  );
  await transactions.applyReport(
    'supplier_d',
    [
      row('D1', {
        supplier: 'supplier_d',
        partnerId: 'partner-a',
        aid: 'aff-a2',
        campaign: 'summer-mail',
        bookedAt: '2026-01-31T23:59:59.999Z',
        status: 'Pending',
        commissionCents: 333,
      }),
    ],
    sync,
  );
  await transactions.close();
});
after(() => t.close());

const get = (query: string, key: string | null = keyA) => t.get(`${URL_BASE}${query}`, key === null ? {} : { 'x-api-key': key });

describe('GET /v1/reporting/summary', () => {
  it("sums the partner's clicks and bookings by month, campaign, device and supplier, over all its aids", async () => {
    const res = await get('?startDate=2026-01-01&endDate=2026-02-28');
    assert.equal(res.status, 200);
    assert.equal(res.headers['cache-control'], 'private, no-store');
    const s = res.body;
    assert.equal(s.partnerId, 'partner-a');
    assert.deepEqual(s.aids, ['aff-a', 'aff-a2']);
    assert.deepEqual(s.thirdParties, ['shop-a']);
    assert.equal(s.currency, 'USD');
    assert.deepEqual(s.totals, {
      clicks: 5,
      bookings: 4,
      conversion: 0.8,
      commission: '38.33',
      bookingsByStatus: { Pending: 2, Approved: 1, Canceled: 1 },
      commissionByStatus: { Pending: '23.33', Approved: '15.00', Canceled: '0.00' },
    });
    assert.deepEqual(
      s.months.map((m: any) => [m.month, m.clicks, m.bookings, m.conversion, m.commission]),
      [
        ['2026-01', 3, 2, 0.6667, '18.33'],
        ['2026-02', 2, 2, 1, '20.00'],
      ],
    );
    // Best campaign first (by commission, then bookings, then clicks); '' is the links without one.
    assert.deepEqual(
      s.campaigns.map((c: any) => [c.campaign, c.clicks, c.bookings, c.commission]),
      [
        ['winter-ads', 2, 2, '20.00'],
        ['summer-mail', 2, 2, '18.33'],
        ['', 1, 0, '0.00'],
      ],
    );
    assert.deepEqual(
      s.devices.map((d: any) => [d.device, d.clicks, d.bookings]),
      [
        ['desktop', 1, 0],
        ['mobile', 3, 3],
        ['tablet', 1, 1],
        ['unknown', 0, 0],
      ],
    );
    assert.deepEqual(
      s.suppliers.map((d: any) => [d.supplier, d.clicks, d.bookings, d.commission]),
      [
        ['supplier_a', 4, 3, '35.00'],
        ['supplier_b', 0, 0, '0.00'],
        ['supplier_c', 0, 0, '0.00'],
        ['supplier_d', 1, 1, '3.33'],
      ],
    );
    // Latest first, as the transactions route shows records.
    assert.deepEqual(
      s.latest.map((r: any) => r.bookingId),
      ['A3', 'A2', 'D1', 'A1'],
    );
    assert.equal(s.latest[0].bookingStatus, 'Canceled');
    assert.equal(s.latest[0].commission, '0.00');
  });

  it('counts whole UTC days, both ends included, and zero-fills every month of the period', async () => {
    const s = (await get('?startDate=2026-01-31&endDate=2026-04-02')).body;
    assert.deepEqual(
      s.months.map((m: any) => [m.month, m.clicks, m.bookings]),
      [
        ['2026-01', 1, 1],
        ['2026-02', 2, 2],
        ['2026-03', 0, 0],
        ['2026-04', 0, 0],
      ],
    );
    assert.equal(s.months[2].conversion, null, 'no clicks: no conversion rate');
    const one = (await get('?startDate=2025-12-31&endDate=2025-12-31')).body;
    assert.deepEqual(
      one.months.map((m: any) => [m.month, m.clicks]),
      [['2025-12', 1]],
    );
  });

  it('covers the year up to today (UTC) by default, and lists `top` campaigns', async () => {
    const s = (await get('?top=1')).body;
    assert.equal(s.startDate, '2025-11-21');
    assert.equal(s.endDate, '2026-11-21');
    assert.equal(s.months.length, 13);
    assert.equal(s.totals.clicks, 6);
    assert.deepEqual(
      s.campaigns.map((c: any) => c.campaign),
      ['winter-ads'],
    );
  });

  it('shows a partner its own figures only, whichever of its keys asks, whatever the query names', async () => {
    const a2 = (await get('?startDate=2026-01-01&endDate=2026-02-28', keyA2)).body;
    assert.equal(a2.partnerId, 'partner-a');
    assert.equal(a2.totals.clicks, 5);
    const b = (await get('?startDate=2026-01-01&endDate=2026-02-28&partnerId=partner-a&aid=aff-a', keyB)).body;
    assert.equal(b.partnerId, 'partner-b');
    assert.deepEqual(b.aids, ['aff-b']);
    assert.deepEqual(b.totals.bookingsByStatus, { Pending: 0, Approved: 1, Canceled: 0 });
    assert.equal(b.totals.clicks, 2);
    assert.equal(b.totals.commission, '999.00');
    assert.deepEqual(
      b.campaigns.map((c: any) => c.campaign),
      ['b-secret', 'summer-mail'],
    );
    assert.deepEqual(
      b.latest.map((r: any) => r.bookingId),
      ['B1'],
    );
    // Partner A never sees B's campaign, clicks or booking, nor the unattributed ones.
    const a = (await get('?startDate=2026-01-01&endDate=2026-02-28')).body;
    assert.ok(!JSON.stringify(a).includes('b-secret'), "!JSON.stringify(a).includes('b-secret')");
    assert.ok(
      !a.latest.some((r: any) => r.bookingId === 'B1' || r.bookingId === 'U1'),
      "!a.latest.some((r: any) => r.bookingId === 'B1' || r.bookingId === 'U1')",
    );
  });

  it('answers bad input with one 400 naming every offending parameter, with its requestId', async () => {
    const bad = async (query: string, code: string, params: string[]) => {
      const res = await get(query);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.code, code, query);
      assert.deepEqual(Object.keys(res.body.details.params).sort(), params.sort(), query);
      assert.equal(typeof res.body.requestId, 'string');
      assert.equal(res.headers['x-request-id'], res.body.requestId);
      assert.equal(res.body.error, 'Bad Request');
    };
    await bad('?startDate=2026-02-30', 'INVALID_DATE_FORMAT', ['startDate']);
    await bad('?startDate=2026-01-01&endDate=26-01-31', 'INVALID_DATE_FORMAT', ['endDate']);
    await bad('?startDate=2026-03-01&endDate=2026-02-01', 'VALIDATION_ERROR', ['startDate']);
    await bad('?startDate=2026-12-01', 'VALIDATION_ERROR', ['startDate']); // after today, the default end
    await bad('?startDate=2024-01-01&endDate=2026-01-01', 'VALIDATION_ERROR', ['endDate']); // 732 days
    await bad('?top=0', 'VALIDATION_ERROR', ['top']);
    await bad('?top=abc&startDate=2026-1-1', 'VALIDATION_ERROR', ['top', 'startDate']);
    await bad('?top=3&top=4', 'VALIDATION_ERROR', ['top']);
    assert.equal((await get('?startDate=2024-01-01&endDate=2025-12-31')).status, 200, '731 days is allowed');
  });

  it('needs a key, and is rate limited per key like every endpoint', async () => {
    const none = await get('', null);
    assert.equal(none.status, 401);
    assert.equal(none.body.code, 'MISSING_API_KEY');
    const wrong = await get('', 'sg_nope_nope');
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.code, 'INVALID_API_KEY');
    const first = await get('', keyLimited);
    assert.equal(first.status, 200);
    assert.equal(first.headers['x-ratelimit-limit'], '2');
    assert.equal(first.headers['x-ratelimit-remaining'], '1');
    assert.equal((await get('', keyLimited)).status, 200);
    const refused = await get('', keyLimited);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.code, 'RATE_LIMIT_EXCEEDED');
    assert.ok(Number(refused.headers['retry-after']) >= 1, "Number(refused.headers['retry-after']) >= 1");
    // Its own bucket: the transactions route of the same key is not spent.
    assert.notEqual((await t.get('/v1/reporting/transactions?thirdParty=x&format=json', { 'x-api-key': keyLimited })).status, 429);
  });
});

describe("GET /v1/reporting/summary: the partner's map tokens (docs/decisions.md 101)", () => {
  let tokenA: string;
  let revokedA: string;
  let tokenB: string;
  const BOX = 'nelat=49&nelng=2.6&swlat=48.7&swlng=2.1&cluster=auto&pageSize=50';
  const mapSearch = (token: string, origin: string) =>
    t.app.http.inject({ url: `/map/v3/accommodations?${BOX}&token=${token}`, headers: { origin }, remoteAddress: '10.9.0.1' });

  before(async () => {
    const stores = await t.openStores();
    try {
      // A clock a second further at each record: the tokens are listed by creation time (then by
      // token), and two made within one millisecond of the real clock came out in either order.
      let at = Date.parse('2026-11-01T00:00:00Z');
      const admin = createKeyAdmin(stores.keys, { now: () => new Date((at += 1_000)) });
      tokenA = (await admin.createMapToken({ keyOrId: keyA, origins: ['https://a.example', 'https://*.a.example'] })).token;
      revokedA = (await admin.createMapToken({ keyOrId: keyA2, origins: ['https://old.a.example'] })).token;
      await admin.revokeMapToken(revokedA);
      tokenB = (await admin.createMapToken({ keyOrId: keyB, origins: ['https://b.example'] })).token;
    } finally {
      await stores.close();
    }
    // Map searches in two months: 2 in October and 3 in November with A's token, 4 with B's; the
    // revoked token is refused and counts nothing.
    t.clock.set(new Date('2026-10-15T12:00:00Z'));
    try {
      for (let i = 0; i < 2; i++) assert.equal((await mapSearch(tokenA, 'https://a.example')).statusCode, 200);
    } finally {
      t.clock.set(TEST_NOW);
    }
    for (let i = 0; i < 3; i++) assert.equal((await mapSearch(tokenA, 'https://www.a.example')).statusCode, 200);
    for (let i = 0; i < 4; i++) assert.equal((await mapSearch(tokenB, 'https://b.example')).statusCode, 200);
    assert.equal((await mapSearch(revokedA, 'https://old.a.example')).statusCode, 403, 'a revoked token is refused');
    // The gateway stores its counts every 10 ms: wait until all 9 are stored.
    const stored = await t.openStores();
    try {
      for (;;) {
        const counts = [...(await stored.keys.mapSearches('partner-a')), ...(await stored.keys.mapSearches('partner-b'))];
        if (counts.reduce((n, c) => n + c.searches, 0) >= 9) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      await stored.close();
    }
  });

  it("lists the partner's tokens, revoked ones included, with the searches counted per token and month of the period", async () => {
    const s = (await get('?startDate=2026-09-01&endDate=2026-11-21')).body;
    assert.deepEqual(
      s.mapTokens.map((m: any) => [m.token, m.origins, m.status, m.revokedAt === null, m.limitPerMinute, m.searches]),
      [
        [tokenA, ['https://a.example', 'https://*.a.example'], 'active', true, null, 5],
        [revokedA, ['https://old.a.example'], 'revoked', false, null, 0],
      ],
    );
    assert.deepEqual(s.mapTokens[0].months, [
      { month: '2026-09', searches: 0 },
      { month: '2026-10', searches: 2 },
      { month: '2026-11', searches: 3 },
    ]);
    assert.match(s.mapTokens[0].createdAt, /^\d{4}-\d\d-\d\dT/);
    // Another period counts its own months only.
    const november = (await get('?startDate=2026-11-01&endDate=2026-11-21')).body;
    assert.deepEqual(november.mapTokens[0].months, [{ month: '2026-11', searches: 3 }]);
    assert.equal(november.mapTokens[0].searches, 3);
  });

  it("never shows a partner another partner's tokens or counts, whichever key asks", async () => {
    const a = (await get('?startDate=2026-09-01&endDate=2026-11-21', keyA2)).body;
    assert.deepEqual(
      a.mapTokens.map((m: any) => m.token),
      [tokenA, revokedA],
      "either of partner A's keys sees both of A's tokens",
    );
    assert.ok(!JSON.stringify(a).includes(tokenB), "partner A's summary does not carry B's token");
    const b = (await get('?startDate=2026-09-01&endDate=2026-11-21', keyB)).body;
    assert.deepEqual(
      b.mapTokens.map((m: any) => [m.token, m.searches]),
      [[tokenB, 4]],
    );
    assert.ok(
      !JSON.stringify(b).includes(tokenA) && !JSON.stringify(b).includes(revokedA),
      "partner B's summary carries none of A's tokens",
    );
    const none = (await get('', await t.createKey({ aid: 'aff-n', partnerId: 'partner-n' }))).body;
    assert.deepEqual(none.mapTokens, [], 'a partner without a token has none listed');
  });
});
