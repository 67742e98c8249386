import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { distanceMeters } from '../../geo/distance.ts';
import { RENTAL_TYPES, SUPPLIER_IDS } from '../../types.ts';
import { startTestApp, type TestApp } from '../../test-support/start-test-app.ts';
import { defaults } from '../../defaults.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const PARIS_BOX = 'nelat=48.90&nelng=2.42&swlat=48.82&swlng=2.27';
const V3 = '/v3/accommodations';

/** The review-weighted score the ranking uses (docs/decisions.md 10). */
function score(r: { value: number; count: number }): number {
  return (r.value * r.count + defaults.rankPriorMean * defaults.rankPriorCount) / (r.count + defaults.rankPriorCount);
}

/** Normalised type of a result, from the ground truth of its supplier entries. */
function typeOf(result: any): string {
  const [supplier, entry] = Object.entries<any>(result.suppliers)[0];
  const id = decodeURIComponent(new URL(entry.link).pathname.split('/').pop()!);
  return t.listing(supplier, id).type;
}

function assertError(res: { status: number; headers: any; body: any }, status: number, code: string): void {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.statusCode, status);
  assert.equal(res.body.code, code);
  assert.equal(typeof res.body.message, 'string');
  assert.equal(typeof res.body.error, 'string');
  assert.equal(res.body.requestId, res.headers['x-request-id']);
}

describe('location rule', () => {
  test('no location and no hotelids is LOCATION_REQUIRED', async () => {
    assertError(await t.get(`${V3}?pageSize=5`), 400, 'LOCATION_REQUIRED');
  });
  test('a partial bounding box names the missing corners, as LOCATION_REQUIRED', async () => {
    const res = await t.get(`${V3}?nelat=48.9&nelng=2.4`);
    assertError(res, 400, 'LOCATION_REQUIRED');
    assert.ok(
      res.body.details.params.swlat && res.body.details.params.swlng,
      'res.body.details.params.swlat && res.body.details.params.swlng',
    );
  });
  test('lat without lng is LOCATION_REQUIRED', async () => {
    const res = await t.get(`${V3}?lat=48.85`);
    assertError(res, 400, 'LOCATION_REQUIRED');
    assert.ok(res.body.details.params.lng, 'res.body.details.params.lng');
  });
  test('out-of-range coordinates are a VALIDATION_ERROR on v3', async () => {
    assertError(await t.get(`${V3}?lat=91&lng=2`), 400, 'VALIDATION_ERROR');
  });
});

describe('bounding box search', () => {
  test('returns ranked stays inside the box with meta and links', async () => {
    const res = await t.get(`${V3}?${PARIS_BOX}&pageSize=20`);
    assert.equal(res.status, 200);
    const { meta, results, _links } = res.body;
    assert.equal(meta.pageSize, 20);
    assert.equal(meta.count, 20);
    assert.equal(meta.page, 1);
    assert.equal(meta.hasMore, true);
    assert.ok(meta.total > 20, 'meta.total > 20');
    assert.equal(meta.currency, 'USD');
    assert.deepEqual(meta.unresolved, []);
    for (const r of results) {
      assert.ok(
        r.location.coordinates.lat >= 48.82 && r.location.coordinates.lat <= 48.9,
        'r.location.coordinates.lat >= 48.82 && r.location.coordinates.lat <= 48.90',
      );
      assert.ok(
        r.location.coordinates.lng >= 2.27 && r.location.coordinates.lng <= 2.42,
        'r.location.coordinates.lng >= 2.27 && r.location.coordinates.lng <= 2.42',
      );
    }
    const scores = results.map((r: any) => score(r.averageRatings));
    for (let i = 1; i < scores.length; i++) assert.ok(scores[i - 1] >= scores[i] - 1e-9, `rank order broken at ${i}`);
    assert.match(_links.self.href, /^http:\/\/gw\.test\/v3\/accommodations\?.*page=1/);
    assert.match(_links.first.href, /page=1/);
    assert.match(_links.next.href, /page=2/);
    assert.equal(_links.prev, undefined);
    assert.match(_links.next.href, /nelat=48\.90/, 'links carry the same query');
  });

  test('pages are disjoint, prev appears, and the last page has no next', async () => {
    const p1 = (await t.get(`${V3}?${PARIS_BOX}&pageSize=10&page=1`)).body;
    const p2 = (await t.get(`${V3}?${PARIS_BOX}&pageSize=10&page=2`)).body;
    const ids1 = new Set(p1.results.map((r: any) => r.id));
    assert.ok(
      p2.results.every((r: any) => !ids1.has(r.id)),
      'p2.results.every((r: any) => !ids1.has(r.id))',
    );
    assert.match(p2._links.prev.href, /page=1/);
    const last = Math.ceil(p1.meta.total / 10);
    const pl = (await t.get(`${V3}?${PARIS_BOX}&pageSize=10&page=${last}`)).body;
    assert.equal(pl.meta.hasMore, false);
    assert.equal(pl._links.next, undefined);
    assert.equal(pl.meta.count, p1.meta.total - (last - 1) * 10);
  });

  test('a page far past the end links prev to the last page with results, on v2 and v3; none without results', async () => {
    for (const path of [V3, '/v2/accommodations']) {
      const far = (await t.get(`${path}?${PARIS_BOX}&pageSize=10&page=9999`)).body;
      assert.equal(far.results.length, 0, `${path}: page 9999 is empty`);
      assert.equal(far._links.next, undefined);
      const last = Math.ceil(far.meta.total / 10);
      assert.ok(last >= 2, `${path}: the box holds several pages (${far.meta.total} stays)`);
      assert.match(far._links.prev.href, new RegExp(`[?&]page=${last}(&|$)`), `${path}: prev is page ${last}`);
      const prev = (await t.get(far._links.prev.href.replace('http://gw.test', ''))).body;
      assert.ok(prev.results.length > 0, `${path}: the page prev links to has results`);
      assert.equal(prev.meta.hasMore, false, `${path}: and it is the last one`);
      // The page just past the end: its prev is the one before it, as always.
      const next = (await t.get(`${path}?${PARIS_BOX}&pageSize=10&page=${last + 1}`)).body;
      assert.match(next._links.prev.href, new RegExp(`[?&]page=${last}(&|$)`));
      // Nothing at all: no page has results to go back to; first remains.
      const none = (await t.get(`${path}?${PARIS_BOX}&minratingcount=100000000&page=3`)).body;
      assert.equal(none.meta.total, 0);
      assert.equal(none._links.prev, undefined, `${path}: no prev without any result`);
      assert.match(none._links.first.href, /[?&]page=1(&|$)/);
    }
  });

  test('page below 1 is clamped to 1; pageSize outside 1-100 is refused', async () => {
    const res = await t.get(`${V3}?${PARIS_BOX}&page=0`);
    assert.equal(res.status, 200);
    assert.equal(res.body.meta.page, 1);
    assertError(await t.get(`${V3}?${PARIS_BOX}&pageSize=101`), 400, 'VALIDATION_ERROR');
    assertError(await t.get(`${V3}?${PARIS_BOX}&pageSize=0`), 400, 'VALIDATION_ERROR');
  });

  test('the key parameter never appears in links', async () => {
    const key = await t.createKey({ aid: 'links-test' });
    const res = await t.get(`${V3}?${PARIS_BOX}&key=${key}`);
    assert.equal(res.status, 200);
    assert.ok(!JSON.stringify(res.body._links).includes(key), '!JSON.stringify(res.body._links).includes(key)');
  });
});

describe('radius and address search', () => {
  test('a centre with radius returns stays within the radius, distances measured from the centre', async () => {
    const res = await t.get(`${V3}?lat=48.8566&lng=2.3522&radius=1500&pageSize=50`);
    assert.equal(res.status, 200);
    assert.ok(res.body.results.length > 0, 'res.body.results.length > 0');
    for (const r of res.body.results) {
      const d = distanceMeters(48.8566, 2.3522, r.location.coordinates.lat, r.location.coordinates.lng);
      assert.ok(d <= 1500, `${d} m is outside the radius`);
      assert.ok(Math.abs(r.location.distanceInMeters - d) <= 1, 'Math.abs(r.location.distanceInMeters - d) <= 1');
    }
    const wider = await t.get(`${V3}?lat=48.8566&lng=2.3522&radius=5000`);
    assert.ok(wider.body.meta.total > res.body.meta.total, 'a wider radius finds more');
  });

  test('radius defaults to 10 km', async () => {
    const a = await t.get(`${V3}?lat=48.8566&lng=2.3522`);
    const b = await t.get(`${V3}?lat=48.8566&lng=2.3522&radius=10000`);
    assert.equal(a.body.meta.total, b.body.meta.total);
  });

  test('an address resolves to a centre searched with radius, tolerant of case and accents', async () => {
    const a = await t.get(`${V3}?address=Paris&radius=3000`);
    assert.equal(a.status, 200);
    assert.ok(a.body.meta.total > 0, 'a.body.meta.total > 0');
    for (const r of a.body.results) assert.ok(r.location.distanceInMeters <= 3000, 'r.location.distanceInMeters <= 3000');
    const b = await t.get(`${V3}?address=${encodeURIComponent('PÂRIS, France')}&radius=3000`);
    assert.equal(b.body.meta.total, a.body.meta.total);
  });

  test('an unresolvable address is a VALIDATION_ERROR naming address', async () => {
    const res = await t.get(`${V3}?address=Qwxzzyplace`);
    assertError(res, 400, 'VALIDATION_ERROR');
    assert.ok(res.body.details.params.address, 'res.body.details.params.address');
  });
});

describe('filters', () => {
  test('provider as single value, comma list and repeated parameter', async () => {
    const single = (await t.get(`${V3}?${PARIS_BOX}&provider=supplier_b&pageSize=30`)).body;
    assert.ok(single.results.length > 0, 'single.results.length > 0');
    for (const r of single.results) assert.deepEqual(Object.keys(r.suppliers), ['supplier_b']);
    const comma = (await t.get(`${V3}?${PARIS_BOX}&provider=supplier_a,supplier_d&pageSize=30`)).body;
    const repeated = (await t.get(`${V3}?${PARIS_BOX}&provider=supplier_a&provider=supplier_d&pageSize=30`)).body;
    assert.deepEqual(
      repeated.results.map((r: any) => r.id),
      comma.results.map((r: any) => r.id),
    );
    for (const r of comma.results) {
      const keys = Object.keys(r.suppliers);
      assert.ok(
        keys.length > 0 && keys.every((k) => k === 'supplier_a' || k === 'supplier_d'),
        "keys.length > 0 && keys.every((k) => k === 'supplier_a' || k === 'supplier_d')",
      );
    }
    const all = (await t.get(`${V3}?${PARIS_BOX}`)).body;
    assert.ok(single.meta.total < all.meta.total, 'single.meta.total < all.meta.total');
  });

  test('an unknown provider is a VALIDATION_ERROR', async () => {
    assertError(await t.get(`${V3}?${PARIS_BOX}&provider=supplier_x`), 400, 'VALIDATION_ERROR');
  });

  test('type hotel, rental, concrete types, and rental absorbing its concrete types', async () => {
    const hotels = (await t.get(`${V3}?${PARIS_BOX}&type=hotel&pageSize=50`)).body;
    assert.ok(hotels.results.length > 0, 'hotels.results.length > 0');
    for (const r of hotels.results) assert.equal(typeOf(r), 'hotel');
    const rentals = (await t.get(`${V3}?${PARIS_BOX}&type=rental&pageSize=50`)).body;
    assert.ok(rentals.results.length > 0, 'rentals.results.length > 0');
    for (const r of rentals.results)
      assert.ok((RENTAL_TYPES as readonly string[]).includes(typeOf(r)), '(RENTAL_TYPES as readonly string[]).includes(typeOf(r))');
    const apartments = (await t.get(`${V3}?${PARIS_BOX}&type=apartment&pageSize=50`)).body;
    for (const r of apartments.results) assert.equal(typeOf(r), 'apartment');
    const both = (await t.get(`${V3}?${PARIS_BOX}&type=hotel,apartment`)).body;
    assert.equal(both.meta.total, hotels.meta.total + apartments.meta.total);
    const absorbed = (await t.get(`${V3}?${PARIS_BOX}&type=rental,villa`)).body;
    assert.equal(absorbed.meta.total, rentals.meta.total);
    const all = (await t.get(`${V3}?${PARIS_BOX}`)).body;
    assert.equal(hotels.meta.total + rentals.meta.total, all.meta.total);
    assertError(await t.get(`${V3}?${PARIS_BOX}&type=castle`), 400, 'VALIDATION_ERROR');
  });

  test('minstarrating, minguestrating and minratingcount filter; 0 means no filter', async () => {
    const all = (await t.get(`${V3}?${PARIS_BOX}`)).body.meta.total;
    for (const [param, value] of [
      ['minstarrating', 4],
      ['minguestrating', 8.5],
      ['minratingcount', 200],
    ] as const) {
      const res = (await t.get(`${V3}?${PARIS_BOX}&${param}=${value}&pageSize=100`)).body;
      assert.ok(res.meta.total > 0 && res.meta.total < all, `${param} filters something`);
      for (const r of res.results) {
        const a = r.averageRatings;
        if (param === 'minstarrating')
          assert.ok(a.hotelStars !== null && a.hotelStars >= value, 'a.hotelStars !== null && a.hotelStars >= value');
        if (param === 'minguestrating') assert.ok(a.value >= value, 'a.value >= value');
        if (param === 'minratingcount') assert.ok(a.count >= value, 'a.count >= value');
      }
      assert.equal((await t.get(`${V3}?${PARIS_BOX}&${param}=0`)).body.meta.total, all, `${param}=0 is no filter`);
    }
    assertError(await t.get(`${V3}?${PARIS_BOX}&minstarrating=6`), 400, 'VALIDATION_ERROR');
    assertError(await t.get(`${V3}?${PARIS_BOX}&minguestrating=11`), 400, 'VALIDATION_ERROR');
    assertError(await t.get(`${V3}?${PARIS_BOX}&minratingcount=-1`), 400, 'VALIDATION_ERROR');
  });
});

describe('result shape', () => {
  test('suppliers map with link, media, rating and policies; averageRatings is the review-weighted average', async () => {
    const res = (await t.get(`${V3}?${PARIS_BOX}&pageSize=100`)).body;
    let multi = 0;
    for (const r of res.results) {
      assert.equal(typeof r.id, 'string');
      assert.equal(typeof r.name, 'string');
      assert.equal(typeof r.type, 'string');
      assert.ok(r.type.length > 0, 'r.type.length > 0');
      assert.equal(typeof r.location.address, 'string');
      assert.ok(
        typeof r.capacity.guests === 'number' && typeof r.capacity.bathrooms === 'number',
        "typeof r.capacity.guests === 'number' && typeof r.capacity.bathrooms === 'number'",
      );
      const entries = Object.entries<any>(r.suppliers);
      assert.ok(entries.length >= 1, 'entries.length >= 1');
      if (entries.length > 1) multi++;
      for (const [supplier, e] of entries) {
        assert.ok((SUPPLIER_IDS as readonly string[]).includes(supplier), '(SUPPLIER_IDS as readonly string[]).includes(supplier)');
        assert.equal(typeof e.link, 'string');
        assert.equal(typeof e.media.thumbnail, 'string');
        assert.equal(typeof e.media.logoSquare, 'string');
        // null: the supplier's API has no guest rating (docs/decisions.md 135).
        assert.ok(e.rating.value === null || typeof e.rating.value === 'number', `${supplier} rating ${e.rating.value}`);
        assert.equal(typeof e.policies.instantBook, 'boolean');
        assert.equal('price' in e, false, 'static searches carry no price');
      }
      // The average is over the suppliers that rate the stay; with none, null and count 0.
      const rated = entries.map(([, e]) => e.rating).filter((rating) => rating.value !== null);
      const count = rated.reduce((s, rating) => s + rating.count, 0);
      assert.equal(r.averageRatings.count, count);
      if (rated.length === 0) {
        assert.equal(r.averageRatings.value, null, `${r.id} has no rating`);
        continue;
      }
      const weighted =
        count === 0
          ? rated.reduce((s, rating) => s + rating.value, 0) / rated.length
          : rated.reduce((s, rating) => s + rating.value * rating.count, 0) / count;
      assert.ok(Math.abs(r.averageRatings.value - weighted) <= 0.051, `${r.averageRatings.value} vs ${weighted}`);
    }
    assert.ok(multi > 0, 'some stays are sold by several suppliers');
  });

  test('aid and campaign are carried into every link', async () => {
    const res = (await t.get(`${V3}?${PARIS_BOX}&aid=partner-42&campaign=summer-blog`)).body;
    for (const r of res.results) {
      const url = new URL(r.url);
      assert.equal(url.pathname, `/go/${r.id}`);
      assert.equal(url.searchParams.get('aid'), 'partner-42');
      assert.equal(url.searchParams.get('campaign'), 'summer-blog');
      for (const [supplier, e] of Object.entries<any>(r.suppliers)) {
        const link = new URL(e.link);
        assert.match(link.pathname, new RegExp(`^/go/${supplier}/`));
        assert.equal(link.searchParams.get('aid'), 'partner-42');
        assert.equal(link.searchParams.get('campaign'), 'summer-blog');
      }
    }
  });
});

describe('hotelids', () => {
  /** A bare id that two suppliers use for different properties. */
  function overlappingId(): { id: string; suppliers: string[] } {
    const seen = new Map<string, string>();
    for (const supplier of SUPPLIER_IDS) {
      for (const l of t.world.listings[supplier]) {
        const other = seen.get(l.supplierStayId);
        if (other !== undefined && other !== supplier) return { id: l.supplierStayId, suppliers: [other, supplier] };
        seen.set(l.supplierStayId, supplier);
      }
    }
    throw new Error('the world has no overlapping ids');
  }

  test('a bare id that two suppliers use resolves to both stays', async () => {
    const { id, suppliers } = overlappingId();
    const res = (await t.get(`${V3}?hotelids=${id}`)).body;
    assert.equal(res.meta.total, 2);
    const found = res.results.flatMap((r: any) => Object.keys(r.suppliers));
    for (const s of suppliers) assert.ok(found.includes(s), 'found.includes(s)');
  });

  test('a prefix resolves exactly one; prefixed, bare and service ids mix; misses are unresolved', async () => {
    const { id, suppliers } = overlappingId();
    const pre = (await t.get(`${V3}?hotelids=${suppliers[0]}:${id}`)).body;
    assert.equal(pre.meta.total, 1);
    assert.ok(suppliers[0] in pre.results[0].suppliers, 'suppliers[0] in pre.results[0].suppliers');
    const serviceId = pre.results[0].id;
    const b = t.world.listings.supplier_b[0].supplierStayId;
    const mixed = (await t.get(`${V3}?hotelids=${serviceId},${b},nope-123,supplier_c:0`)).body;
    assert.equal(mixed.meta.total, 2);
    assert.equal(mixed.results[0].id, serviceId, 'results follow the order asked');
    assert.deepEqual(mixed.meta.unresolved, ['nope-123', 'supplier_c:0']);
  });

  test("with a single provider, bare ids are read in that supplier's namespace", async () => {
    const { id, suppliers } = overlappingId();
    const res = (await t.get(`${V3}?hotelids=${id}&provider=${suppliers[1]}`)).body;
    assert.equal(res.meta.total, 1);
    assert.deepEqual(Object.keys(res.results[0].suppliers), [suppliers[1]]);
  });

  test('unknown prefix, more than 100 entries, and several providers are refused', async () => {
    assertError(await t.get(`${V3}?hotelids=acme:12`), 400, 'VALIDATION_ERROR');
    const many = Array.from({ length: 101 }, (_, i) => String(i)).join(',');
    assertError(await t.get(`${V3}?hotelids=${many}`), 400, 'VALIDATION_ERROR');
    assertError(await t.get(`${V3}?hotelids=1&provider=supplier_a,supplier_b`), 400, 'VALIDATION_ERROR');
  });

  test('hotelids need no location', async () => {
    const b = t.world.listings.supplier_b[0].supplierStayId;
    const res = await t.get(`${V3}?hotelids=supplier_b:${b}`);
    assert.equal(res.status, 200);
    assert.equal(res.body.results[0].location.distanceInMeters, 0);
  });
});

describe('hotelsearch', () => {
  function hotelNear(): { name: string; lat: number; lng: number } {
    const l = t.world.listings.supplier_a.find(
      (x) => x.type === 'hotel' && Math.abs(x.lat - 48.86) < 0.03 && Math.abs(x.lng - 2.35) < 0.04,
    );
    assert.ok(l, 'a Paris hotel exists');
    return l;
  }

  test('finds hotels by name, ordered by distance', async () => {
    const word = hotelNear()
      .name.split(' ')
      .sort((a, b) => b.length - a.length)[0];
    const res = (await t.get(`${V3}?hotelsearch=${encodeURIComponent(word.toUpperCase())}&lat=48.8566&lng=2.3522&pageSize=50`)).body;
    assert.ok(res.results.length > 0, 'res.results.length > 0');
    for (const r of res.results) assert.equal(typeOf(r), 'hotel');
    const d = res.results.map((r: any) => r.location.distanceInMeters);
    for (let i = 1; i < d.length; i++) assert.ok(d[i - 1] <= d[i], 'ordered by distance');
  });

  test('is refused with hotelids, a bounding box, clustering, a non-hotel type, or two location methods', async () => {
    assertError(await t.get(`${V3}?hotelsearch=ibis&hotelids=1`), 400, 'VALIDATION_ERROR');
    assertError(await t.get(`${V3}?hotelsearch=ibis&${PARIS_BOX}`), 400, 'VALIDATION_ERROR');
    assertError(await t.get(`${V3}?hotelsearch=ibis&address=Paris&cluster=auto`), 400, 'VALIDATION_ERROR');
    assertError(await t.get(`${V3}?hotelsearch=ibis&address=Paris&type=rental`), 400, 'VALIDATION_ERROR');
    assertError(await t.get(`${V3}?hotelsearch=ibis&address=Paris&lat=48.85&lng=2.35`), 400, 'VALIDATION_ERROR');
    assertError(await t.get(`${V3}?hotelsearch=ibis`), 400, 'LOCATION_REQUIRED');
    assert.equal((await t.get(`${V3}?hotelsearch=ibis&address=Paris&type=hotel`)).status, 200);
  });
});

describe('validation of the other parameters', () => {
  test('lang is an ISO 639-1 code, case-insensitive', async () => {
    assert.equal((await t.get(`${V3}?${PARIS_BOX}&lang=EN`)).status, 200);
    assertError(await t.get(`${V3}?${PARIS_BOX}&lang=xx`), 400, 'VALIDATION_ERROR');
    assertError(await t.get(`${V3}?${PARIS_BOX}&lang=eng`), 400, 'VALIDATION_ERROR');
  });

  test('dates: a non-calendar date is INVALID_DATE_FORMAT; window and order are VALIDATION_ERROR', async () => {
    assertError(await t.get(`${V3}?${PARIS_BOX}&checkin=2027-02-30&checkout=2027-03-02`), 400, 'INVALID_DATE_FORMAT');
    assertError(await t.get(`${V3}?${PARIS_BOX}&checkin=12/01/2027&checkout=2027-03-02`), 400, 'INVALID_DATE_FORMAT');
    assertError(await t.get(`${V3}?${PARIS_BOX}&checkin=2026-11-20&checkout=2026-11-23`), 400, 'VALIDATION_ERROR');
    assertError(await t.get(`${V3}?${PARIS_BOX}&checkin=2028-11-20&checkout=2028-11-23`), 400, 'VALIDATION_ERROR');
    assertError(await t.get(`${V3}?${PARIS_BOX}&checkin=2027-01-10&checkout=2027-01-10`), 400, 'VALIDATION_ERROR');
    assert.equal((await t.get(`${V3}?${PARIS_BOX}&checkin=2026-11-21&checkout=2026-11-22`)).status, 200, 'today is allowed');
  });

  test('currency, occupancy, childrenAges, cluster, precision and cell are validated', async () => {
    assert.equal((await t.get(`${V3}?${PARIS_BOX}&currency=eur`)).body.meta.currency, 'EUR');
    assertError(await t.get(`${V3}?${PARIS_BOX}&currency=ABC`), 400, 'VALIDATION_ERROR');
    assertError(await t.get(`${V3}?${PARIS_BOX}&adults=0`), 400, 'VALIDATION_ERROR');
    assertError(await t.get(`${V3}?${PARIS_BOX}&rooms=0`), 400, 'VALIDATION_ERROR');
    assertError(await t.get(`${V3}?${PARIS_BOX}&children=2&childrenAges=5`), 400, 'VALIDATION_ERROR');
    assertError(await t.get(`${V3}?${PARIS_BOX}&children=1&childrenAges=18`), 400, 'VALIDATION_ERROR');
    assert.equal((await t.get(`${V3}?${PARIS_BOX}&children=2&childrenAges=4,17`)).status, 200);
    assertError(await t.get(`${V3}?${PARIS_BOX}&cluster=maybe`), 400, 'VALIDATION_ERROR');
    assertError(await t.get(`${V3}?${PARIS_BOX}&precision=16`), 400, 'VALIDATION_ERROR');
    assert.equal((await t.get(`${V3}?${PARIS_BOX}&precision=r9`)).status, 200);
    assertError(await t.get(`${V3}?${PARIS_BOX}&cell=zzz`), 400, 'VALIDATION_ERROR');
    assertError(await t.get(`${V3}?${PARIS_BOX}&min=100&max=50&checkin=2027-01-10&checkout=2027-01-12`), 400, 'VALIDATION_ERROR');
  });

  test('several failures give one 400 that lists them all', async () => {
    const res = await t.get(`${V3}?${PARIS_BOX}&pageSize=500&currency=ABC&checkin=2027-13-01&checkout=2027-12-03&provider=nope`);
    assertError(res, 400, 'VALIDATION_ERROR');
    const params = Object.keys(res.body.details.params).sort();
    assert.deepEqual(params, ['checkin', 'currency', 'pageSize', 'provider']);
    assert.equal(res.body.details.errors.find((e: any) => e.param === 'checkin').code, 'INVALID_DATE_FORMAT');
  });

  test('a scalar parameter given twice is refused', async () => {
    assertError(await t.get(`${V3}?${PARIS_BOX}&lat=1&lat=2&lng=3`), 400, 'VALIDATION_ERROR');
  });
});

describe('total', () => {
  test('meta.total saturates at the configured cap', async () => {
    const capped = await startTestApp({ stays: 2_000, settings: { totalCap: 50 } });
    try {
      const res = (await capped.get(`${V3}?nelat=89&nelng=179&swlat=-89&swlng=-179`)).body;
      assert.equal(res.meta.total, 50);
      assert.equal(res.meta.hasMore, true);
    } finally {
      await capped.close();
    }
  });
});
