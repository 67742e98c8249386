// The simulated Booking.com Demand API as a client meets it over HTTP: the bearer token and affiliate
// id, the countries/cities/details walk to the last page, page tokens that expire with the world's
// day, search priced to simQuote's cent, orders from the ledger and the stay's own page. The wire
// shapes against the published schema are the gateway's contract test
// (src/suppliers/booking-demand-contract.test.ts).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { advanceWorld } from '../advance-world.ts';
import { createBookingLedger, expectedCommissionUsdCents, type BookingLedger } from '../bookings.ts';
import { createSupplierServer, MALFORMED_BODY, type SupplierServer } from '../create-supplier-server.ts';
import { generateWorld, type World } from '../generate-world.ts';
import { mediaRoute } from '../media.ts';
import { simQuote, type SimQuoteRequest } from '../price-stay.ts';
import { SIM_CREDENTIALS } from '../sim-credentials.ts';
import { splitAddress } from '../split-address.ts';
import { BOOKING_TYPE_IDS, bookingCityId } from './booking-demand-content-routes.ts';
import { bookingDemandRoutes } from './booking-demand-routes.ts';
import { BOOKING_EXCLUDED_CHARGES, BOOKING_SEARCH_MAX_IDS } from './booking-demand-search-route.ts';

const CREDENTIALS = SIM_CREDENTIALS['booking-demand'];
const AUTH = { Authorization: `Bearer ${CREDENTIALS.key}`, 'X-Affiliate-Id': CREDENTIALS.affiliateId };
const STAY = { checkin: '2027-03-01', checkout: '2027-03-04' };
const NOW = Date.parse('2026-11-20T12:00:00Z');

let world: World;
let ledger: BookingLedger;
let server: SupplierServer;
let url: string;
let clock = NOW;

before(async () => {
  world = generateWorld({ seed: 31, stays: 1_500 });
  ledger = createBookingLedger({ world, now: () => clock });
  server = createSupplierServer({
    supplier: 'supplier_a',
    routes: [...bookingDemandRoutes({ supplier: 'supplier_a', world, ledger, credentials: CREDENTIALS }), mediaRoute('supplier_a', world)],
  });
  url = await server.listen(0, '127.0.0.1');
});
after(async () => {
  await server.close();
});

async function post(path: string, body: unknown, headers: Record<string, string> = AUTH): Promise<{ status: number; body: any }> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? null : JSON.parse(text) };
}

/** Every item of a list, following `next_page` to the end. */
async function walk(path: string, body: Record<string, unknown>): Promise<{ items: any[]; pages: number }> {
  const items: any[] = [];
  let pages = 0;
  for (let page: string | null = null; ;) {
    const answer = await post(path, page === null ? body : { ...body, page });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    pages++;
    items.push(...answer.body.data);
    page = answer.body.next_page;
    if (page === null) return { items, pages };
  }
}

const search = (ids: number[], guests: Record<string, unknown> = { number_of_adults: 2, number_of_rooms: 1 }, extra = {}) =>
  post('/accommodations/search', {
    accommodations: ids,
    booker: { country: 'nl', platform: 'desktop' },
    ...STAY,
    currency: 'EUR',
    guests,
    ...extra,
  });

describe('Booking.com (sim): credentials', () => {
  it('answers 401 without or with a wrong bearer token, 403 for another affiliate id, in its error body', async () => {
    const cases: [Record<string, string>, number, string][] = [
      [{}, 401, 'unauthorized'],
      [{ Authorization: 'Bearer not-the-token', 'X-Affiliate-Id': CREDENTIALS.affiliateId }, 401, 'unauthorized'],
      [{ Authorization: `Bearer ${CREDENTIALS.key}`, 'X-Affiliate-Id': '999' }, 403, 'forbidden'],
      [{ Authorization: `Bearer ${CREDENTIALS.key}` }, 403, 'forbidden'],
    ];
    for (const [headers, status, id] of cases) {
      const answer = await post('/common/locations/countries', {}, headers);
      assert.equal(answer.status, status, JSON.stringify(headers));
      assert.equal(answer.body.errors[0].id, id);
      assert.equal(typeof answer.body.errors[0].message, 'string');
      assert.equal(typeof answer.body.request_id, 'string');
      assert.doesNotMatch(JSON.stringify(answer.body), /not-the-token/, 'the refused token is not echoed');
    }
  });
});

describe('Booking.com (sim): content', () => {
  it('lists every listing once, country by country, each to its last page, with the cities it names', async () => {
    const countries = await walk('/common/locations/countries', { rows: 10 });
    const codes = countries.items.map((c) => c.id);
    assert.ok(countries.pages > 1, 'countries come in pages of 10');
    assert.deepEqual(codes, [...new Set(world.listings.supplier_a.map((l) => splitAddress(l.address).countryCode.toLowerCase()))].sort());
    const seen: any[] = [];
    for (const country of codes) {
      const cities = new Map((await walk('/common/locations/cities', { country, rows: 1_000 })).items.map((c) => [c.id, c.name['en-gb']]));
      const { items } = await walk('/accommodations/details', { country, rows: 25, extras: ['photos', 'rooms'] });
      for (const item of items) {
        assert.equal(item.location.country, country);
        assert.ok(cities.has(item.location.city), `city ${item.location.city} is listed`);
        seen.push({ ...item, cityName: cities.get(item.location.city) });
      }
    }
    assert.equal(seen.length, world.listings.supplier_a.length);
    const byId = new Map(seen.map((item) => [String(item.id), item]));
    for (const listing of world.listings.supplier_a) {
      const item = byId.get(listing.supplierStayId);
      assert.ok(item, listing.supplierStayId);
      const { line1, city } = splitAddress(listing.address);
      assert.equal(item.name['en-gb'], listing.name);
      assert.equal(item.accommodation_type, BOOKING_TYPE_IDS[listing.type]);
      assert.equal(item.location.address['en-gb'], line1);
      assert.equal(item.cityName, city);
      assert.equal(item.location.city, bookingCityId(world.properties[listing.propertyId].cityId));
      assert.deepEqual(item.location.coordinates, { latitude: listing.lat, longitude: listing.lng });
      assert.equal(item.rating.review_score, listing.rating.value ?? undefined);
      assert.equal(item.rating.stars, listing.rating.hotelStars ?? undefined);
      assert.equal(item.rooms[0].maximum_occupancy.adults, listing.capacity.guests);
      assert.match(item.photos[0].url.standard, new RegExp(`^${url}/img/`));
      assert.match(
        item.url,
        /^http:\/\/127\.0\.0\.1:\d+\/hotel\/[a-z]{2}\/\d+\.html\?aid=!AFFILIATE_ID!&checkin=!START_DATE!&checkout=!END_DATE!$/,
      );
    }
  });

  it('wants a location, and extras only when asked', async () => {
    const none = await post('/accommodations/details', { rows: 10 });
    assert.equal(none.status, 400);
    assert.equal(none.body.errors[0].id, 'invalid_parameter');
    const id = Number(world.listings.supplier_a[0].supplierStayId);
    const bare = await post('/accommodations/details', { accommodations: [id] });
    assert.equal(bare.body.data.length, 1);
    assert.equal(bare.body.data[0].photos, undefined);
    assert.equal(bare.body.data[0].rooms, undefined);
    const rows = await post('/accommodations/details', { country: 'fr', rows: 1_001 });
    assert.equal(rows.status, 400);
  });

  it("refuses a page token once the world's day has moved on (invalid_page), and a token that is none", async () => {
    const counts = new Map<string, number>();
    for (const l of world.listings.supplier_a) {
      const code = splitAddress(l.address).countryCode.toLowerCase();
      counts.set(code, (counts.get(code) ?? 0) + 1);
    }
    const country = [...counts].sort((a, b) => b[1] - a[1])[0][0];
    const first = await post('/accommodations/details', { country, rows: 10 });
    assert.equal(first.status, 200);
    assert.ok(first.body.next_page, 'more than one page');
    advanceWorld(world, 1);
    const stale = await post('/accommodations/details', { country, rows: 10, page: first.body.next_page });
    assert.equal(stale.status, 400);
    assert.equal(stale.body.errors[0].id, 'invalid_page');
    const bogus = await post('/accommodations/details', { country, rows: 10, page: 'not-a-token' });
    assert.equal(bogus.status, 400);
    assert.equal(bogus.body.errors[0].id, 'invalid_page');
    const again = await post('/accommodations/details', { country, rows: 10 });
    assert.equal(again.status, 200, 'the first page again is fine');
  });
});

describe('Booking.com (sim): search', () => {
  it("answers the available ids with simQuote's total (book without the excluded charges), leaves the rest out", async () => {
    const ids = world.listings.supplier_a.slice(0, BOOKING_SEARCH_MAX_IDS).map((l) => Number(l.supplierStayId));
    const answer = await search(ids, { number_of_adults: 2, number_of_rooms: 1, children: [4] });
    assert.equal(answer.status, 200);
    const request: SimQuoteRequest = { ...STAY, adults: 2, children: 1, childrenAges: [4], rooms: 1, currency: 'EUR' };
    const byId = new Map(answer.body.data.map((d: any) => [d.id, d]));
    let available = 0;
    for (const id of ids) {
      const truth = simQuote(world, 'supplier_a', String(id), request);
      const item: any = byId.get(id);
      if (!truth.available) {
        assert.equal(item, undefined, `${id} left out`);
        continue;
      }
      available++;
      assert.deepEqual([item.price.total, item.currency], [truth.total, truth.currency]);
      assert.equal(item.price.book, Math.round((truth.total / (1 + BOOKING_EXCLUDED_CHARGES)) * 100) / 100);
    }
    assert.ok(available > 0 && available < ids.length, `some available (${available}), some not`);
  });

  it('refuses more than 100 ids, a missing booker, and a bad party, with 400s', async () => {
    const ids = Array.from({ length: BOOKING_SEARCH_MAX_IDS + 1 }, (_v, i) => i + 1);
    assert.equal((await search(ids)).status, 400);
    assert.equal((await search([1], { number_of_adults: 0, number_of_rooms: 1 })).status, 400);
    const noBooker = await post('/accommodations/search', {
      accommodations: [1],
      ...STAY,
      guests: { number_of_adults: 1, number_of_rooms: 1 },
    });
    assert.equal(noBooker.status, 400);
  });
});

describe('Booking.com (sim): the stay page and orders', () => {
  it('lands a click carried in `label` under its `aid`, and reports the order with its commission and label', async () => {
    const listing = world.listings.supplier_a.find(
      (l) =>
        simQuote(world, 'supplier_a', l.supplierStayId, { ...STAY, adults: 2, children: 0, childrenAges: null, rooms: 1, currency: 'USD' })
          .available,
    )!;
    const cc = splitAddress(listing.address).countryCode.toLowerCase();
    // Enough clicks that some book (12% do).
    for (let i = 0; i < 60; i++) {
      const page = await fetch(
        `${url}/hotel/${cc}/${listing.supplierStayId}.html?aid=${CREDENTIALS.affiliateId}&label=click-${i}&checkin=${STAY.checkin}&checkout=${STAY.checkout}`,
      );
      assert.equal(page.status, 200);
      assert.equal((await page.json()).label, `click-${i}`);
    }
    const bookings = ledger.bookings('supplier_a');
    assert.ok(bookings.length > 0, 'some clicks booked');
    clock = NOW + 3_600_000;
    const from = new Date(NOW - 3_600_000).toISOString();
    const to = new Date(clock).toISOString();
    const orders = await post('/orders/details', {
      updated: { from, to },
      currency: 'USD',
      maximum_results: 10,
      sort: { by: 'updated', direction: 'ascending' },
    });
    assert.equal(orders.status, 200, JSON.stringify(orders.body));
    const all = [...orders.body.data];
    for (let page = orders.body.metadata.next_page; page !== null;) {
      const next = await post('/orders/details', { page });
      all.push(...next.body.data);
      page = next.body.metadata.next_page;
    }
    // The ledger's report of the window (its `to` inclusive) is the truth, in its order.
    const report = ledger.report('supplier_a', Date.parse(from), clock + 1);
    assert.ok(report.length > 0, 'the window has changes');
    assert.deepEqual(
      all.map((o) => o.id),
      report.map((e) => e.booking.bookingId),
    );
    assert.equal(orders.body.metadata.total_results, report.length);
    for (const order of all) {
      const { booking, state } = report.find((e) => e.booking.bookingId === order.id)!;
      assert.equal(order.updated, new Date(state.at).toISOString());
      assert.equal(
        order.commission.estimated_amount ?? order.commission.actual_amount,
        expectedCommissionUsdCents(booking, state.status) / 100,
      );
      assert.equal(order.currency, 'USD');
    }
    const stays = await post('/orders/details/accommodations', {
      orders: all.map((o) => o.id),
      currency: 'USD',
      extras: ['accommodation_details'],
    });
    assert.equal(stays.status, 200);
    for (const stay of stays.body.data) {
      const booking = bookings.find((b) => b.bookingId === stay.id)!;
      assert.equal(stay.label, booking.clickId);
      assert.equal(stay.accommodation, Number(listing.supplierStayId));
      assert.equal(stay.products.length, booking.rooms);
      assert.deepEqual([stay.checkin, stay.checkout], [booking.checkin, booking.checkout]);
    }
  });

  it('refuses a window over 7 days and a currency other than USD', async () => {
    const from = '2026-11-01T00:00:00Z';
    assert.equal((await post('/orders/details', { updated: { from, to: '2026-11-08T00:00:01Z' }, currency: 'USD' })).status, 400);
    assert.equal((await post('/orders/details', { updated: { from, to: '2026-11-08T00:00:00Z' }, currency: 'USD' })).status, 200);
    assert.equal((await post('/orders/details', { updated: { from }, currency: 'EUR' })).status, 400);
  });
});

describe('Booking.com (sim): faults', () => {
  it("hit the API's routes like any slot's: `malformed` cuts the answer short, `error` is a 500", async () => {
    try {
      await server.setFault('malformed');
      const cut = await fetch(`${url}/accommodations/details`, { method: 'POST', headers: AUTH, body: '{}' });
      assert.equal(await cut.text(), MALFORMED_BODY);
      await server.setFault('error');
      const error = await fetch(`${url}/accommodations/search`, { method: 'POST', headers: AUTH, body: '{}' });
      assert.equal(error.status, 500);
    } finally {
      await server.setFault(null);
    }
  });
});
