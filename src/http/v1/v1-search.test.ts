import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { defaults } from '../../defaults.ts';
import { toUsd } from '../../search/currency.ts';
import { startTestApp, type TestApp } from '../../test-support/start-test-app.ts';
import { SUPPLIER_IDS, type SupplierId } from '../../types.ts';

const V1 = '/v1/accommodations';
const V2 = '/v2/accommodations';
const V3 = '/v3/accommodations';
let now = 1_000_000;
let t: TestApp;
// The test app's quote deadlines: every v1 search is dated, and a healthy supplier is never held
// to a wall-clock budget (test files run concurrently on a shared machine).
before(async () => {
  t = await startTestApp({ app: { clock: () => now } });
});
after(async () => {
  await t.close();
});

function assertError(res: { status: number; headers: any; body: any }, status: number, code: string): void {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.code, code);
  assert.equal(res.body.requestId, res.headers['x-request-id']);
}

describe('v1 parameters', () => {
  test('provider is required; an unknown one is INVALID_PROVIDER', async () => {
    assertError(await t.get(`${V1}?address=Paris`), 400, 'VALIDATION_ERROR');
    assertError(await t.get(`${V1}?address=Paris&provider=supplier_x`), 400, 'INVALID_PROVIDER');
  });

  test('coordinates out of range are INVALID_COORDINATES', async () => {
    assertError(await t.get(`${V1}?provider=supplier_a&lat=91&lng=2`), 400, 'INVALID_COORDINATES');
    assertError(await t.get(`${V1}?provider=supplier_a&nelat=48.9&nelng=200&swlat=48.8&swlng=2.2`), 400, 'INVALID_COORDINATES');
    assertError(await t.get(`${V1}?provider=supplier_a`), 400, 'LOCATION_REQUIRED');
  });

  test('dates default to today + 90 for 3 nights; explicit dates are checked as on v3', async () => {
    const res = await t.get(`${V1}?provider=supplier_a&address=Paris`);
    assert.equal(res.status, 200);
    assert.deepEqual([res.body.meta.checkin, res.body.meta.checkout, res.body.meta.nights], ['2027-02-19', '2027-02-22', 3]);
    assertError(await t.get(`${V1}?provider=supplier_a&address=Paris&checkin=2027-02-30`), 400, 'INVALID_DATE_FORMAT');
    // A lone date is the other end of a 3-night stay ("default stay is 3 nights").
    const lone = await t.get(`${V1}?provider=supplier_a&address=Paris&checkin=2027-06-01`);
    assert.deepEqual([lone.body.meta.checkin, lone.body.meta.checkout, lone.body.meta.nights], ['2027-06-01', '2027-06-04', 3]);
    const loneOut = await t.get(`${V1}?provider=supplier_a&address=Paris&checkout=2027-06-04`);
    assert.deepEqual([loneOut.body.meta.checkin, loneOut.body.meta.checkout], ['2027-06-01', '2027-06-04']);
    // Three nights before a checkout of tomorrow would start in the past: the stay starts today.
    const soon = await t.get(`${V1}?provider=supplier_a&address=Paris&checkout=2026-11-22`);
    assert.deepEqual([soon.body.meta.checkin, soon.body.meta.nights], ['2026-11-21', 1]);
    assertError(await t.get(`${V1}?provider=supplier_a&address=Paris&checkin=2030-06-01`), 400, 'VALIDATION_ERROR');
    const explicit = await t.get(`${V1}?provider=supplier_a&address=Paris&checkin=2027-01-10&checkout=2027-01-12`);
    assert.equal(explicit.body.meta.nights, 2);
  });

  test('limit is 1-100, default 10, and there is no paging', async () => {
    assert.equal((await t.get(`${V1}?provider=supplier_a&address=Paris`)).body.meta.limit, 10);
    const five = await t.get(`${V1}?provider=supplier_a&address=Paris&limit=5&page=3`);
    assert.equal(five.body.meta.count, 5);
    assert.deepEqual(Object.keys(five.body._links), ['self']);
    assertError(await t.get(`${V1}?provider=supplier_a&address=Paris&limit=101`), 400, 'VALIDATION_ERROR');
  });

  test('min and max default to 0 and 1000 USD a night; given ones apply', async () => {
    const res = await t.get(`${V1}?provider=supplier_a&address=Paris&limit=100&max=150`);
    assert.ok(res.body.results.length > 0, 'res.body.results.length > 0');
    for (const r of res.body.results) assert.ok(r.price.total / 3 <= 150 + 0.01, 'r.price.total / 3 <= 150 + 0.01');
    const eur = await t.get(`${V1}?provider=supplier_b&address=Paris&limit=100&currency=EUR&min=200`);
    for (const r of eur.body.results)
      assert.ok(toUsd(r.price.total, 'EUR')! / 3 >= 200 - 0.01, "toUsd(r.price.total, 'EUR')! / 3 >= 200 - 0.01");
  });

  test('minstarrating applies only up to 5 and minguestrating only up to 10', async () => {
    const all = await t.get(`${V1}?provider=supplier_a&address=Paris&limit=100`);
    const four = await t.get(`${V1}?provider=supplier_a&address=Paris&limit=100&minstarrating=4`);
    assert.ok(
      four.body.results.every((r: any) => r.rating.hotelStars >= 4),
      'four.body.results.every((r: any) => r.rating.hotelStars >= 4)',
    );
    assert.ok(four.body.meta.count < all.body.meta.count, 'four.body.meta.count < all.body.meta.count');
    assert.equal((await t.get(`${V1}?provider=supplier_a&address=Paris&limit=100&minstarrating=6`)).body.meta.count, all.body.meta.count);
    assert.equal((await t.get(`${V1}?provider=supplier_a&address=Paris&limit=100&minguestrating=11`)).body.meta.count, all.body.meta.count);
  });

  test('type is hotel or rental', async () => {
    const rentals = await t.get(`${V1}?provider=supplier_d&address=Paris&type=rental&limit=50`);
    assert.ok(rentals.body.results.length > 0, 'rentals.body.results.length > 0');
    for (const r of rentals.body.results) assert.notEqual(t.listing('supplier_d', r.id).type, 'hotel');
    assertError(await t.get(`${V1}?provider=supplier_d&address=Paris&type=villa`), 400, 'VALIDATION_ERROR');
  });

  test("hotelids are the provider's plain ids", async () => {
    const seen = new Map<string, SupplierId>();
    let shared: { id: string; suppliers: SupplierId[] } | null = null;
    for (const s of SUPPLIER_IDS) {
      for (const l of t.world.listings[s]) {
        const other = seen.get(l.supplierStayId);
        if (other !== undefined && other !== s) {
          shared = { id: l.supplierStayId, suppliers: [other, s] };
          break;
        }
        seen.set(l.supplierStayId, s);
      }
      if (shared) break;
    }
    assert.ok(shared, 'shared');
    for (const s of shared.suppliers) {
      const res = await t.get(`${V1}?provider=${s}&hotelids=${shared.id}&checkin=2027-01-12&checkout=2027-01-13&adults=1`);
      for (const r of res.body.results) {
        assert.equal(r.provider, s);
        assert.equal(r.id, shared.id);
      }
    }
  });
});

describe('v1 shape and signals', () => {
  test('every field is there; coordinates are null where the supplier blurs them', async () => {
    for (const provider of ['supplier_a', 'supplier_d'] as const) {
      const res = await t.get(`${V1}?provider=${provider}&lat=48.8566&lng=2.3522&aid=blog-1`);
      assert.ok(res.body.results.length > 0, 'res.body.results.length > 0');
      for (const r of res.body.results) {
        assert.equal(r.provider, provider);
        for (const field of ['id', 'provider', 'name', 'type', 'location', 'rating', 'price', 'capacity', 'policies', 'media', 'links'])
          assert.ok(field in r, field);
        assert.equal(typeof r.location.distanceInMeters, 'number');
        assert.ok(r.location.distanceInMeters <= 10_000, 'r.location.distanceInMeters <= 10_000');
        assert.equal(typeof r.price.total, 'number');
        assert.equal(typeof r.capacity.bedrooms, 'number');
        const book = new URL(r.links.book).searchParams;
        assert.equal(book.get('aid'), 'blog-1');
        assert.equal(book.get('checkin'), res.body.meta.checkin, 'the booking link carries the stay priced');
        if (provider === 'supplier_d') assert.equal(r.location.coordinates, null);
        else assert.equal(typeof r.location.coordinates.lat, 'number');
      }
      assert.equal(res.body.meta.currency, 'USD');
    }
  });

  test('responses announce the deprecation and the sunset, errors included, and the guide is served', async () => {
    for (const url of [`${V1}?provider=supplier_a&address=Paris`, `${V1}?address=Paris`]) {
      const res = await t.get(url);
      assert.match(String(res.headers.deprecation), /^@\d+$/);
      // RFC 8594: an HTTP date, after the deprecation.
      const sunset = String(res.headers.sunset);
      assert.match(sunset, /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
      assert.ok(
        Date.parse(sunset) > Number(String(res.headers.deprecation).slice(1)) * 1000,
        'Date.parse(sunset) > Number(String(res.headers.deprecation).slice(1)) * 1000',
      );
      assert.match(String(res.headers.link), /rel="deprecation"/);
      assert.match(String(res.headers.link), /rel="sunset"/);
      assert.match(String(res.headers.link), /\/v3\/accommodations>; rel="successor-version"/);
    }
    for (const url of [`${V2}?address=Paris`, `${V3}?address=Paris`]) assert.equal((await t.get(url)).headers.sunset, undefined, url);
    const guide = await t.get('/docs/migrating-v1-to-v3');
    assert.equal(guide.status, 200);
    assert.match(String(guide.headers['content-type']), /text\/html/);
    assert.match(guide.body, /<h1[^>]*>/);
    const markdown = await t.get('/docs/migrating-v1-to-v3', { accept: 'text/markdown' });
    assert.match(String(markdown.headers['content-type']), /text\/markdown/);
    assert.match(markdown.body, /^# /m);
  });
});

describe('v1 upstream failures', () => {
  const cases: [string, number, string][] = [
    ['error', 502, 'UPSTREAM_ERROR'],
    ['malformed', 502, 'BAD_GATEWAY'],
    ['down', 502, 'BAD_GATEWAY'],
    ['timeout', 504, 'UPSTREAM_TIMEOUT'],
  ];
  let day = 1;
  for (const [mode, status, code] of cases) {
    test(`${mode} -> ${status} ${code}`, async () => {
      // A hung supplier needs a gateway that waits 300 ms for it: its own, as only supplier_c is
      // asked, and it never answers, the outcome does not depend on the machine's speed.
      const app = mode === 'timeout' ? await startTestApp({ settings: { quoteBudgetMs: 300 }, app: { clock: () => now } }) : t;
      now += defaults.breakerOpenMs + defaults.quoteCacheTtlMs;
      await app.sim.setFault('supplier_c', mode);
      try {
        const res = await app.get(
          `${V1}?provider=supplier_c&address=Paris&checkin=2027-04-${String(day++).padStart(2, '0')}&checkout=2027-04-20`,
        );
        assertError(res, status, code);
        assert.equal(res.body.provider, 'supplier_c');
      } finally {
        await app.sim.setFault('supplier_c', null);
        if (app !== t) await app.close();
      }
    });
  }

  test('an open circuit breaker is 503 SERVICE_UNAVAILABLE with Retry-After and the provider', async () => {
    now += defaults.breakerOpenMs + defaults.quoteCacheTtlMs;
    await t.sim.setFault('supplier_c', 'error');
    for (let i = 0; i < defaults.breakerFailureThreshold; i++) {
      await t.get(`${V1}?provider=supplier_c&address=Paris&checkin=2027-05-01&checkout=2027-05-0${2 + (i % 7)}`);
    }
    await t.sim.setFault('supplier_c', null);
    // 20 s into the breaker's 30 s pause: the answer still says the spec's 30 seconds.
    now += 20_000;
    const res = await t.get(`${V1}?provider=supplier_c&address=Paris&checkin=2027-05-10&checkout=2027-05-12`);
    assertError(res, 503, 'SERVICE_UNAVAILABLE');
    assert.equal(res.body.provider, 'supplier_c');
    assert.equal(res.headers['retry-after'], '30');
    assert.equal(res.body.details.retryAfter, 30);
    assert.match(res.body.message, /Retry after 30 seconds$/);
    now += defaults.breakerOpenMs + 1;
    assert.equal(
      (await t.get(`${V1}?provider=supplier_c&address=Paris&checkin=2027-05-10&checkout=2027-05-12`)).status,
      200,
      'a trial closes it again',
    );
  });
});
