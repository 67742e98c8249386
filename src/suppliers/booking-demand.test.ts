// The Booking.com Demand API driver against a small fake Booking.com (fixture-server.ts): the
// driver contract (refused credentials, 429s, paging to the end, failures, what is not available,
// a caller's abort: supplier-driver-contract.ts) on Booking.com's wire format, then its own rules:
// headers and bodies, the country walk and its restart when a page token is refused, the review
// scale, prices (`total`, not `book`), the largest id batch, and the orders as a commission report.
// Against the simulator and the published schema: booking-demand-contract.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BOOKING_ACCOMMODATION_TYPES } from './booking-demand-types.ts';
import { BOOKING_BACKOFF_MS, BOOKING_DEFAULT_CHILD_AGE, BOOKING_MAX_IDS_PER_QUOTE, createBookingDemandDriver } from './booking-demand.ts';
import { BOOKING_MAX_RESTARTS } from './booking-demand-pages.ts';
import { orderWindows } from './booking-demand-orders.ts';
import { runSupplierDriverContract } from '../test-support/contracts/supplier-driver-contract.ts';
import { expectSupplierError } from '../test-support/expect-supplier-error.ts';
import { collectPages, startFixtureServer, type FixtureResponse } from '../test-support/fixture-server.ts';
import type { QuoteRequest, Supplier } from './supplier.ts';
import { defaults } from '../defaults.ts';

const KEY = 'test-booking-bearer-token';
const AFFILIATE = '7654321';

const driverAt = (baseUrl: string): Supplier =>
  createBookingDemandDriver(
    {
      id: 'supplier_a',
      api: 'booking-demand',
      baseUrl: `${baseUrl}/3.1`,
      key: KEY,
      secret: '',
      affiliateId: AFFILIATE,
    },
    defaults,
  );

const quoteRequest = (ids: string[], party: Partial<QuoteRequest> = {}): QuoteRequest => ({
  supplierStayIds: ids,
  checkin: '2027-03-01',
  checkout: '2027-03-04',
  adults: 2,
  children: 0,
  childrenAges: null,
  rooms: 1,
  currency: 'EUR',
  ...party,
});

/** An accommodation as /accommodations/details writes it. */
const accommodation = (id: number, country: string, extra: Record<string, unknown> = {}) => ({
  id,
  accommodation_type: 204,
  currency: 'EUR',
  location: { address: { 'en-gb': `${id} Main Street` }, city: -100, coordinates: { latitude: 52.37, longitude: 4.89 }, country },
  name: { 'en-gb': `Stay ${id}` },
  rating: { number_of_reviews: 120, review_score: 8.7, stars: 4 },
  url: `https://www.booking.com/hotel/${country}/stay-${id}.html?aid=!AFFILIATE_ID!`,
  ...extra,
});

const token = (what: string): string => Buffer.from(what).toString('base64url');
const json = (body: string): Record<string, any> => JSON.parse(body) as Record<string, any>;

/**
 * A fake Booking.com: two countries (nl in two details pages, be in one), each with one city; the
 * countries list in two pages. `refuse` names page tokens answered 400 (once each).
 */
function fakeContent(refuse = new Set<string>()) {
  return (url: URL, body: Record<string, any>): FixtureResponse => {
    if (body.page !== undefined && refuse.delete(body.page))
      return { status: 400, body: { request_id: 'r', errors: [{ id: 'invalid_page', message: 'The page token has expired' }] } };
    switch (url.pathname) {
      case '/3.1/common/locations/countries':
        return body.page === undefined
          ? { body: { request_id: 'r', data: [{ id: 'nl', name: { 'en-gb': 'Netherlands' } }], next_page: token('countries-2') } }
          : { body: { request_id: 'r', data: [{ id: 'be', name: { 'en-gb': 'Belgium' } }], next_page: null } };
      case '/3.1/common/locations/cities':
        return {
          body: {
            request_id: 'r',
            data: [{ id: -100, name: { 'en-gb': body.country === 'nl' ? 'Amsterdam' : 'Brussels' } }],
            next_page: null,
          },
        };
      case '/3.1/accommodations/details':
        if (body.country === 'be') return { body: { request_id: 'r', data: [accommodation(3, 'be')], next_page: null } };
        return body.page === undefined
          ? { body: { request_id: 'r', data: [accommodation(1, 'nl')], next_page: token('nl-2') } }
          : { body: { request_id: 'r', data: [accommodation(2, 'nl', { rating: { number_of_reviews: 0 } })], next_page: null } };
      default:
        return { status: 404, body: { errors: [{ id: 'not_found', message: url.pathname }] } };
    }
  };
}

runSupplierDriverContract('Booking.com', {
  supplier: 'supplier_a',
  driverAt: (baseUrl, settings) =>
    createBookingDemandDriver(
      { id: 'supplier_a', api: 'booking-demand', baseUrl: `${baseUrl}/3.1`, key: KEY, secret: '', affiliateId: AFFILIATE },
      settings,
    ),
  key: KEY,
  backoffMs: BOOKING_BACKOFF_MS,
  ids: ['11', '12', '13', '14', '15'],
  foreignId: 'abc',
  // One country and its city; the accommodations in pages of `perPage` chained by `next_page`.
  content: (ids, perPage) => (url, request) => {
    const body = json(request.body);
    if (url.pathname === '/3.1/common/locations/countries') return { body: { request_id: 'r', data: [{ id: 'nl' }], next_page: null } };
    if (url.pathname === '/3.1/common/locations/cities')
      return { body: { request_id: 'r', data: [{ id: -100, name: { 'en-gb': 'Amsterdam' } }], next_page: null } };
    const from = body.page === undefined ? 0 : Number(body.page);
    const next = from + perPage < ids.length ? String(from + perPage) : null;
    return {
      body: { request_id: 'r', data: ids.slice(from, from + perPage).map((id) => accommodation(Number(id), 'nl')), next_page: next },
    };
  },
  quotes: (prices, currency) => () => ({
    body: {
      request_id: 'r',
      data: [...prices].map(([id, total]) => ({ id: Number(id), currency, price: { book: total - 1, total } })),
      next_page: null,
    },
  }),
  refusal: (message) => ({ request_id: 'r', errors: [{ id: 'unauthorized', message }] }),
});

describe('Booking.com driver: content', () => {
  it('walks every country, each to its last page, POSTing JSON with the bearer token and affiliate id', async () => {
    const fake = fakeContent();
    const server = await startFixtureServer((url, request) => fake(url, json(request.body)));
    try {
      const pages = await collectPages(driverAt(server.baseUrl).contentPages({ pageSize: 500 }));
      assert.deepEqual(
        pages.map((page) => page.map((l) => l.supplierStayId)),
        [['1'], ['2'], ['3']],
      );
      for (const request of server.received) {
        assert.equal(request.method, 'POST');
        assert.equal(request.headers.authorization, `Bearer ${KEY}`);
        assert.equal(request.headers['x-affiliate-id'], AFFILIATE);
        assert.equal(request.headers['content-type'], 'application/json');
        assert.ok(!request.url.includes(KEY), 'no credential in a URL');
      }
      const details = server.received.filter((r) => r.url === '/3.1/accommodations/details').map((r) => json(r.body));
      assert.deepEqual(details[0], { country: 'nl', extras: ['photos', 'rooms'], languages: ['en-gb'], rows: 500 });
      assert.deepEqual(details[1], { ...details[0], page: token('nl-2') }, 'the next page: the same body with `page`');
      assert.equal(details[2].country, 'be');
      const [first] = pages[0];
      assert.deepEqual(
        { ...first, capacity: undefined },
        {
          supplier: 'supplier_a',
          supplierStayId: '1',
          name: 'Stay 1',
          typeLabel: 'Hotel',
          type: 'hotel',
          address: '1 Main Street, Amsterdam, NL',
          lat: 52.37,
          lng: 4.89,
          rating: { value: 8.7, hotelStars: 4, count: 120 },
          capacity: undefined,
          policies: { instantBook: true, freeCancellation: false },
          media: { thumbnail: '', logoSquare: '' },
          url: 'https://www.booking.com/hotel/nl/stay-1.html?aid=!AFFILIATE_ID!',
        },
      );
    } finally {
      await server.close();
    }
  });

  it('reads the review score on its own 1-10 scale; no score and no stars are null (count 0), never 0', async () => {
    const fake = fakeContent();
    const server = await startFixtureServer((url, request) => fake(url, json(request.body)));
    try {
      const listings = (await collectPages(driverAt(server.baseUrl).contentPages())).flat();
      const second = listings.find((l) => l.supplierStayId === '2')!;
      assert.deepEqual(second.rating, { value: null, hotelStars: null, count: 0 });
    } finally {
      await server.close();
    }
  });

  it('restarts a country from its first page when a page token is refused, yielding nothing twice', async () => {
    const fake = fakeContent(new Set([token('nl-2')]));
    const server = await startFixtureServer((url, request) => fake(url, json(request.body)));
    try {
      const ids = (await collectPages(driverAt(server.baseUrl).contentPages())).flat().map((l) => l.supplierStayId);
      assert.deepEqual(ids, ['1', '2', '3']);
      const nl = server.received.filter((r) => r.url === '/3.1/accommodations/details' && json(r.body).country === 'nl');
      assert.deepEqual(
        nl.map((r) => json(r.body).page ?? null),
        [null, token('nl-2'), null, token('nl-2')],
        'refused, then the country again from its first page',
      );
    } finally {
      await server.close();
    }
  });

  it(`fails after ${BOOKING_MAX_RESTARTS} restarts of one list: a token that never lasts is a broken API`, async () => {
    const server = await startFixtureServer((url, request) => {
      const body = json(request.body);
      if (body.page !== undefined) return { status: 400, body: { errors: [{ id: 'invalid_page', message: 'expired' }] } };
      return { body: { request_id: 'r', data: [{ id: 'nl', name: { 'en-gb': 'NL' } }], next_page: token('again') } };
    });
    try {
      await assert.rejects(
        collectPages(driverAt(server.baseUrl).contentPages()),
        expectSupplierError('supplier_a', 'http', /page token refused/),
      );
      assert.equal(server.received.length, 2 * (BOOKING_MAX_RESTARTS + 1));
    } finally {
      await server.close();
    }
  });

  it('maps accommodation types to stay types, an unknown id to a hotel named by its number', async () => {
    assert.deepEqual(BOOKING_ACCOMMODATION_TYPES[227], { type: 'riad', label: 'Riad' });
    const fake = fakeContent();
    const server = await startFixtureServer((url, request) => {
      const answer = fake(url, json(request.body));
      if (url.pathname === '/3.1/accommodations/details' && json(request.body).country === 'be')
        return { body: { request_id: 'r', data: [accommodation(3, 'be', { accommodation_type: 999 })], next_page: null } };
      return answer;
    });
    try {
      const listing = (await collectPages(driverAt(server.baseUrl).contentPages())).flat().find((l) => l.supplierStayId === '3')!;
      assert.deepEqual([listing.type, listing.typeLabel], ['hotel', 'Accommodation type 999']);
    } finally {
      await server.close();
    }
  });
});

describe('Booking.com driver: quotes', () => {
  it("prices `total` (not `book`) of each answered id in the answer's currency; ids left out are not available", async () => {
    const server = await startFixtureServer(() => ({
      body: {
        request_id: 'r',
        data: [
          { id: 11, currency: 'EUR', price: { book: 300, total: 315.5 } },
          { id: 13, currency: 'EUR', price: { book: 90, total: 99.99 } },
        ],
        next_page: null,
      },
    }));
    try {
      const answer = await driverAt(server.baseUrl).quote(
        quoteRequest(['11', '12', '13', 'abc', '0'], { children: 2, childrenAges: null }),
        AbortSignal.timeout(5_000),
      );
      assert.deepEqual(Object.fromEntries(answer), {
        11: { available: true, total: 315.5, currency: 'EUR' },
        12: { available: false },
        13: { available: true, total: 99.99, currency: 'EUR' },
        abc: { available: false },
        0: { available: false },
      });
      assert.equal(server.received.length, 1);
      assert.equal(server.received[0].url, '/3.1/accommodations/search');
      assert.deepEqual(json(server.received[0].body), {
        accommodations: [11, 12, 13],
        booker: { country: 'nl', platform: 'desktop' },
        checkin: '2027-03-01',
        checkout: '2027-03-04',
        currency: 'EUR',
        guests: { number_of_adults: 2, number_of_rooms: 1, children: [BOOKING_DEFAULT_CHILD_AGE, BOOKING_DEFAULT_CHILD_AGE] },
        rows: 100,
      });
    } finally {
      await server.close();
    }
  });

  it(`asks at most ${BOOKING_MAX_IDS_PER_QUOTE} ids a call (the spec's maxItems): more is a RangeError and no call`, async () => {
    const server = await startFixtureServer(() => ({ body: { request_id: 'r', data: [], next_page: null } }));
    try {
      const driver = driverAt(server.baseUrl);
      assert.equal(driver.maxIdsPerQuote, 100);
      const ids = Array.from({ length: 101 }, (_v, i) => String(i + 1));
      await assert.rejects(driver.quote(quoteRequest(ids), AbortSignal.timeout(5_000)), RangeError);
      assert.equal(server.received.length, 0);
      const answer = await driver.quote(quoteRequest(ids.slice(0, 100)), AbortSignal.timeout(5_000));
      assert.equal(json(server.received[0].body).accommodations.length, 100);
      assert.ok(
        [...answer.values()].every((q) => !q.available),
        'an empty answer: nothing available',
      );
    } finally {
      await server.close();
    }
  });

  it('follows `next_page` of a search to the end', async () => {
    const server = await startFixtureServer((_url, request) =>
      json(request.body).page === undefined
        ? { body: { request_id: 'r', data: [{ id: 1, currency: 'USD', price: { book: 1, total: 2 } }], next_page: 'p2' } }
        : { body: { request_id: 'r', data: [{ id: 2, currency: 'USD', price: { book: 3, total: 4 } }], next_page: null } },
    );
    try {
      const answer = await driverAt(server.baseUrl).quote(quoteRequest(['1', '2']), AbortSignal.timeout(5_000));
      assert.deepEqual(
        [answer.get('1'), answer.get('2')],
        [
          { available: true, total: 2, currency: 'USD' },
          { available: true, total: 4, currency: 'USD' },
        ],
      );
    } finally {
      await server.close();
    }
  });
});

describe('Booking.com driver: orders as the commission report', () => {
  it('cuts the period into windows of at most 7 days, each `to` inclusive (1 ms before the next)', () => {
    const windows = orderWindows(new Date('2026-11-01T00:00:00Z'), new Date('2026-11-16T00:00:00Z'));
    assert.deepEqual(windows, [
      { from: '2026-11-01T00:00:00.000Z', to: '2026-11-07T23:59:59.999Z' },
      { from: '2026-11-08T00:00:00.000Z', to: '2026-11-14T23:59:59.999Z' },
      { from: '2026-11-15T00:00:00.000Z', to: '2026-11-15T23:59:59.999Z' },
    ]);
  });

  it('pages the orders, adds their stays, dates, rooms, label and city, and maps statuses and commissions', async () => {
    const order = (id: string, status: string, commission: Record<string, unknown>, updated: string) => ({
      id,
      accommodations: { reservation: 1 },
      booker: { address: { city: null, country: 'de' } },
      created: '2026-11-02T10:00:00+00:00',
      commission,
      currency: 'USD',
      status,
      updated,
    });
    const server = await startFixtureServer((url, request) => {
      const body = json(request.body);
      switch (url.pathname) {
        case '/3.1/orders/details':
          if (body.page === 'orders-2')
            return {
              body: {
                data: [order('B', 'stayed', { actual_amount: 12.34, estimated_amount: null }, '2026-11-03T00:00:00Z')],
                metadata: { next_page: null },
              },
            };
          return {
            body: {
              data: [
                order('A', 'booked', { actual_amount: null, estimated_amount: 5.5 }, '2026-11-02T10:00:00+00:00'),
                // Past the asked period: Booking.com's `to` is inclusive, ours is not.
                order('X', 'booked', { actual_amount: null, estimated_amount: 1 }, '2026-11-04T00:00:00Z'),
              ],
              metadata: { next_page: 'orders-2', total_results: 3 },
            },
          };
        case '/3.1/orders/details/accommodations':
          return {
            body: {
              data: body.orders.map((id: string) => ({
                id,
                accommodation: 42,
                accommodation_details: { name: 'Stay 42', location: { city: -100, country: 'nl' } },
                checkin: '2026-12-01',
                checkout: '2026-12-03',
                label: id === 'A' ? 'click-1' : '',
                products: id === 'A' ? [{}, {}] : [{}],
              })),
            },
          };
        case '/3.1/common/locations/cities':
          return { body: { data: [{ id: -100, name: { 'en-gb': 'Amsterdam' } }], next_page: null } };
        default:
          return { status: 404, body: {} };
      }
    });
    try {
      const records = (
        await collectPages(
          driverAt(server.baseUrl).commissionReport!({
            from: new Date('2026-11-01T00:00:00Z'),
            to: new Date('2026-11-04T00:00:00Z'),
            pageSize: 50,
          }),
        )
      ).flat();
      assert.deepEqual(records, [
        {
          bookingId: 'A',
          clickId: 'click-1',
          supplierStayId: '42',
          bookedAt: '2026-11-02T10:00:00.000Z',
          checkin: '2026-12-01',
          checkout: '2026-12-03',
          rooms: 2,
          status: 'Pending',
          commissionUsdCents: 550,
          propertyName: 'Stay 42',
          destination: 'Amsterdam, NL',
          guestCountry: 'DE',
          updatedAt: '2026-11-02T10:00:00.000Z',
        },
        {
          bookingId: 'B',
          clickId: null,
          supplierStayId: '42',
          bookedAt: '2026-11-02T10:00:00.000Z',
          checkin: '2026-12-01',
          checkout: '2026-12-03',
          rooms: 1,
          status: 'Approved',
          commissionUsdCents: 1234,
          propertyName: 'Stay 42',
          destination: 'Amsterdam, NL',
          guestCountry: 'DE',
          updatedAt: '2026-11-03T00:00:00.000Z',
        },
      ]);
      const orders = server.received.filter((r) => r.url === '/3.1/orders/details').map((r) => json(r.body));
      assert.deepEqual(orders, [
        {
          updated: { from: '2026-11-01T00:00:00.000Z', to: '2026-11-03T23:59:59.999Z' },
          currency: 'USD',
          maximum_results: 50,
          services: ['accommodations'],
          sort: { by: 'updated', direction: 'ascending' },
        },
        { page: 'orders-2' },
      ]);
      assert.equal(server.received.filter((r) => r.url === '/3.1/common/locations/cities').length, 1, 'one city asked once');
    } finally {
      await server.close();
    }
  });
});
