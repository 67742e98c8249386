// The LiteAPI driver against a fixture server that answers as LiteAPI's spec writes it: the driver
// contract (refused credentials, 429s, paging to the end, failures, what is not available, a
// caller's abort: supplier-driver-contract.ts) on LiteAPI's wire format, then its own rules: the
// country walk and offset paging, the hotel fields (rating 0-10, stars, types), the rates call
// (occupancies, 204, offerRetailRate as an array, the cheapest offer) and the largest batch.
// Against the simulator and the published schemas: liteapi-contract.test.ts.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { testSupplierConfig } from '../test-support/supplier-config.ts';
import { expectSupplierError } from '../test-support/expect-supplier-error.ts';
import { runSupplierDriverContract } from '../test-support/contracts/supplier-driver-contract.ts';
import { FeedRecord } from './feed-record.ts';
import {
  collectPages,
  startFixtureServer,
  type FixtureRequest,
  type FixtureResponse,
  type FixtureServer,
} from '../test-support/fixture-server.ts';
import { createLiteapiDriver, LITEAPI_BACKOFF_MS, LITEAPI_MAX_IDS_PER_QUOTE } from './liteapi.ts';
import { decodeLiteapiHotel, liteapiHotelType } from './liteapi-content.ts';
import { hotelTotal, LITEAPI_DEFAULT_CHILD_AGE, liteapiOccupancies } from './liteapi-rates.ts';
import type { QuoteRequest, Supplier } from './supplier.ts';
import { defaults } from '../defaults.ts';

const KEY = 'liteapi-test-key-0123456789';

const hotel = (id: string, overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  id,
  name: `Hotel ${id}`,
  currency: 'EUR',
  country: 'HR',
  city: 'Sibenik',
  latitude: 43.73464,
  longitude: 15.88974,
  address: 'Obala dr. Franje Tudmana 52',
  thumbnail: `https://static.example/${id}.jpg`,
  hotelTypeId: 204,
  stars: 3,
  rating: 8.46,
  reviewCount: 120,
  ...overrides,
});

/** The fixture's inventory: two countries, and one in the list with no hotel. */
const HOTELS: Record<string, Record<string, unknown>[]> = {
  FR: [hotel('lp1a'), hotel('lp1b'), hotel('lp1c')],
  HR: [hotel('lp42fec'), hotel('lp50f7f', { hotelTypeId: 201 })],
  AD: [],
};

let respond: (url: URL, request: FixtureRequest) => FixtureResponse | undefined = () => undefined;
let server: FixtureServer;

function inventory(url: URL, request: FixtureRequest): FixtureResponse {
  if (request.headers['x-api-key'] !== KEY) return { status: 401, body: { error: { code: 401, message: 'Unauthorized' } } };
  if (url.pathname === '/v3.0/data/countries') return { body: { data: Object.keys(HOTELS).map((code) => ({ code, name: code })) } };
  if (url.pathname === '/v3.0/data/hotels') {
    const country = url.searchParams.get('countryCode');
    if (country === null)
      return { status: 400, body: { error: { code: 4000, description: 'countryCode is required', message: 'bad request' } } };
    const all = HOTELS[country] ?? [];
    const offset = Number(url.searchParams.get('offset'));
    const limit = Number(url.searchParams.get('limit'));
    const data = all.slice(offset, offset + limit);
    return { body: { data, hotelIds: data.map((h) => h.id), total: all.length } };
  }
  return { status: 404, body: { error: { code: 404, message: 'not found' } } };
}

before(async () => {
  server = await startFixtureServer((url, request) => respond(url, request) ?? inventory(url, request));
});
after(() => server.close());
beforeEach(() => {
  respond = () => undefined;
});

const driver = (key = KEY): Supplier =>
  createLiteapiDriver({ ...testSupplierConfig('supplier_c', `${server.baseUrl}/v3.0`, 'liteapi'), key }, defaults);

const party = (ids: string[], overrides: Partial<QuoteRequest> = {}): QuoteRequest => ({
  supplierStayIds: ids,
  checkin: '2027-01-15',
  checkout: '2027-01-17',
  adults: 2,
  children: 0,
  childrenAges: null,
  rooms: 1,
  currency: 'USD',
  ...overrides,
});

const price = (amount: number, currency = 'USD') => [{ amount, currency }];

/** An offer (roomTypes[] entry) of `rooms` rates at `amount` in all. */
const offer = (amount: number, rooms = 1, extra: Record<string, unknown> = {}) => ({
  roomTypeId: `rt-${amount}`,
  offerId: `offer-${amount}`,
  rates: Array.from({ length: rooms }, (_v, i) => ({
    rateId: `rate-${amount}-${i}`,
    occupancyNumber: i + 1,
    retailRate: { total: price(amount / rooms), taxesAndFees: [{ included: true, amount: 1, currency: 'USD' }] },
  })),
  offerRetailRate: price(amount),
  ...extra,
});

const body = (request: FixtureRequest): Record<string, any> => JSON.parse(request.body) as Record<string, any>;

runSupplierDriverContract('LiteAPI', {
  supplier: 'supplier_c',
  driverAt: (baseUrl, settings) =>
    createLiteapiDriver({ ...testSupplierConfig('supplier_c', `${baseUrl}/v3.0`, 'liteapi'), key: KEY }, settings),
  key: KEY,
  backoffMs: LITEAPI_BACKOFF_MS,
  ids: ['lp1a', 'lp1b', 'lp1c', 'lp1d', 'lp1e'],
  foreignId: 'lp1,lp2',
  // One country; its hotels by offset/limit, with their total.
  content: (ids, _perPage) => (url) => {
    if (url.pathname === '/v3.0/data/countries') return { body: { data: [{ code: 'FR', name: 'France' }] } };
    const [offset, limit] = [Number(url.searchParams.get('offset')), Number(url.searchParams.get('limit'))];
    const data = ids.slice(offset, offset + limit).map((id) => hotel(id));
    return { body: { data, hotelIds: data.map((h) => h.id), total: ids.length } };
  },
  quotes: (prices, currency) => () => ({
    body: {
      data: [...prices].map(([hotelId, total]) => ({ hotelId, roomTypes: [offer(total, 1, { offerRetailRate: price(total, currency) })] })),
    },
  }),
  refusal: (message) => ({ error: { code: 401, message } }),
});

describe('LiteAPI driver: content', () => {
  it('walks the country list and pages each country by offset/limit to its total, key in the header only', async () => {
    const start = server.received.length;
    const pages = await collectPages(driver().contentPages({ pageSize: 2 }));
    const sent = server.received.slice(start);
    assert.deepEqual(
      sent.map((r) => r.url),
      [
        '/v3.0/data/countries',
        '/v3.0/data/hotels?countryCode=FR&offset=0&limit=2',
        '/v3.0/data/hotels?countryCode=FR&offset=2&limit=2',
        '/v3.0/data/hotels?countryCode=HR&offset=0&limit=2',
        '/v3.0/data/hotels?countryCode=AD&offset=0&limit=2',
      ],
    );
    assert.ok(
      sent.every((r) => r.headers['x-api-key'] === KEY && !r.url.includes(KEY)),
      'X-API-Key on every request, never in a URL',
    );
    assert.deepEqual(
      pages.map((page) => page.map((l) => l.supplierStayId)),
      [['lp1a', 'lp1b'], ['lp1c'], ['lp42fec', 'lp50f7f']],
    );
  });

  it('stops at a short page when the answer carries no total, and asks at most 5,000 a page', async () => {
    respond = (url) =>
      url.pathname === '/v3.0/data/hotels'
        ? { body: { data: (HOTELS[url.searchParams.get('countryCode')!] ?? []).slice(Number(url.searchParams.get('offset')), 2) } }
        : undefined;
    const start = server.received.length;
    const pages = await collectPages(driver().contentPages({ pageSize: 9_999 }));
    assert.deepEqual(
      server.received.slice(start + 1).map((r) => new URL(r.url, 'http://x').searchParams.get('limit')),
      ['5000', '5000', '5000'],
    );
    assert.equal(pages.flat().length, 4);
  });

  it('decodes a hotel: string id, type by hotelTypeId, rating already 0-10 with its count, stars, address, photo', () => {
    const listing = decodeLiteapiHotel(
      FeedRecord.of('supplier_c', 'test', hotel('lp42fec', { main_photo: 'https://static.example/main.jpg' })),
      'supplier_c',
    );
    assert.deepEqual(listing, {
      supplier: 'supplier_c',
      supplierStayId: 'lp42fec',
      name: 'Hotel lp42fec',
      typeLabel: 'Hotel',
      type: 'hotel',
      address: 'Obala dr. Franje Tudmana 52, Sibenik, HR',
      lat: 43.73464,
      lng: 15.88974,
      rating: { value: 8.5, hotelStars: 3, count: 120 },
      capacity: { guests: 2, bedrooms: null, beds: null, bathrooms: 1 },
      policies: { instantBook: true, freeCancellation: false },
      media: { thumbnail: 'https://static.example/lp42fec.jpg', logoSquare: '' },
    });
  });

  it('reads no rating and no stars as null, never 0; half stars; the room size where the hotel gives it', () => {
    const decode = (overrides: Record<string, unknown>) =>
      decodeLiteapiHotel(FeedRecord.of('supplier_c', 'test', hotel('lp1', overrides)), 'supplier_c');
    const bare = decode({ rating: undefined, reviewCount: undefined, stars: undefined, thumbnail: undefined });
    assert.deepEqual([bare.rating, bare.media.thumbnail], [{ value: null, hotelStars: null, count: 0 }, '']);
    assert.deepEqual(decode({ rating: 0, reviewCount: 0, stars: 0 }).rating, { value: null, hotelStars: null, count: 0 });
    assert.deepEqual(decode({ rating: 10, reviewCount: 3, stars: 2.5 }).rating, { value: 10, hotelStars: 2.5, count: 3 });
    const sized = decode({ accessibilityAttributes: { attributes: [], roomMaxGuestsNumber: 5 } });
    assert.equal(sized.capacity.guests, 5);
    assert.equal(decode({ accessibilityAttributes: { attributes: [], roomMaxGuestsNumber: 0 } }).capacity.guests, 2);
  });

  it('maps hotel types, an unknown id to a hotel under its id', () => {
    assert.deepEqual(liteapiHotelType(201), { type: 'apartment', label: 'Apartment' });
    assert.deepEqual(liteapiHotelType(219), { type: 'aparthotel', label: 'Aparthotel' });
    assert.deepEqual(liteapiHotelType(999), { type: 'hotel', label: 'Hotel type 999' });
    assert.deepEqual(liteapiHotelType(null), { type: 'hotel', label: 'Hotel' });
  });

  it('fails the feed on a rating off the 0-10 scale, naming the field; with onSkipped the record is skipped', async () => {
    respond = (url) =>
      url.pathname === '/v3.0/data/hotels' && url.searchParams.get('countryCode') === 'FR'
        ? { body: { data: [hotel('lp1a', { rating: 85 }), hotel('lp1b')], total: 2 } }
        : undefined;
    await assert.rejects(
      collectPages(driver().contentPages()),
      expectSupplierError('supplier_c', 'malformed', /FR page 1\.data\[0\]\.rating/),
    );
    const skipped: string[] = [];
    const pages = await collectPages(driver().contentPages({ onSkipped: (error) => skipped.push(error.message) }));
    assert.equal(skipped.length, 1);
    assert.ok(
      pages.flat().some((l) => l.supplierStayId === 'lp1b'),
      'the good record of the page is kept',
    );
  });
});

describe('LiteAPI driver: rates', () => {
  it('asks by hotel ids with one occupancy per room, children as ages, limit = the ids, guestNationality', async () => {
    respond = (url) => (url.pathname === '/v3.0/hotels/rates' ? { status: 204, body: '' } : undefined);
    const start = server.received.length;
    const answer = await driver().quote(
      party(['lp1', 'lp2', 'lp1', 'has space'], { adults: 3, children: 2, childrenAges: [4, 15], rooms: 2, currency: 'EUR' }),
      AbortSignal.timeout(5_000),
    );
    const [sent, ...more] = server.received.slice(start);
    assert.equal(more.length, 0, 'one call');
    assert.equal(sent.method, 'POST');
    assert.equal(sent.headers['x-api-key'], KEY);
    assert.deepEqual(body(sent), {
      hotelIds: ['lp1', 'lp2'],
      occupancies: [
        { adults: 2, children: [4] },
        { adults: 1, children: [15] },
      ],
      currency: 'EUR',
      guestNationality: 'US',
      checkin: '2027-01-15',
      checkout: '2027-01-17',
      limit: 2,
    });
    // 204: nothing available, every asked id answered.
    assert.deepEqual(
      [...answer],
      [
        ['lp1', { available: false }],
        ['lp2', { available: false }],
        ['has space', { available: false }],
      ],
    );
  });

  it('sends default ages for children of unknown age', () => {
    assert.deepEqual(liteapiOccupancies(party([], { adults: 1, children: 2, childrenAges: null })), [
      { adults: 1, children: [LITEAPI_DEFAULT_CHILD_AGE, LITEAPI_DEFAULT_CHILD_AGE] },
    ]);
    assert.deepEqual(liteapiOccupancies(party([], { adults: 4, rooms: 2 })), [{ adults: 2 }, { adults: 2 }]);
  });

  it('prices each hotel at its cheapest offer (offerRetailRate, an array); a hotel left out is not available', async () => {
    respond = (url) =>
      url.pathname === '/v3.0/hotels/rates'
        ? {
            body: {
              data: [
                { hotelId: 'lp1', roomTypes: [offer(210.5), offer(163.66), offer(190)] },
                { hotelId: 'lp2', roomTypes: [offer(99.99)] },
              ],
              guestLevel: 0,
              sandbox: false,
            },
          }
        : undefined;
    const answer = await driver().quote(party(['lp1', 'lp2', 'lp3']), AbortSignal.timeout(5_000));
    assert.deepEqual(Object.fromEntries(answer), {
      lp1: { available: true, total: 163.66, currency: 'USD' },
      lp2: { available: true, total: 99.99, currency: 'USD' },
      lp3: { available: false },
    });
  });

  it('adds fees paid at the property; skips an offer that does not price every room; prefers the asked currency', () => {
    const record = (value: unknown) => FeedRecord.of('supplier_c', 'test', value);
    const fee = offer(163.66);
    fee.rates[0].retailRate.taxesAndFees.push({ included: false, amount: 43.61, currency: 'USD' });
    assert.deepEqual(hotelTotal(record({ hotelId: 'lp1', roomTypes: [fee] }), 1, 'USD'), { cents: 20_727, currency: 'USD' });
    const oneRoomOnly = offer(50, 1);
    assert.deepEqual(hotelTotal(record({ hotelId: 'lp1', roomTypes: [oneRoomOnly, offer(300, 2)] }), 2, 'USD'), {
      cents: 30_000,
      currency: 'USD',
    });
    assert.equal(hotelTotal(record({ hotelId: 'lp1', roomTypes: [oneRoomOnly] }), 2, 'USD'), null);
    const euros = offer(90, 1, { offerRetailRate: [...price(100), ...price(90, 'EUR')] });
    assert.deepEqual(hotelTotal(record({ hotelId: 'lp1', roomTypes: [offer(80), euros] }), 1, 'EUR'), { cents: 9_000, currency: 'EUR' });
  });

  it('fails the call on a price that is not an amount', async () => {
    respond = (url) =>
      url.pathname === '/v3.0/hotels/rates'
        ? { body: { data: [{ hotelId: 'lp1', roomTypes: [offer(10, 1, { offerRetailRate: { amount: 10, currency: 'USD' } })] }] } }
        : undefined;
    await assert.rejects(
      driver().quote(party(['lp1']), AbortSignal.timeout(5_000)),
      expectSupplierError('supplier_c', 'malformed', /offerRetailRate: expected an array/),
    );
  });

  it('asks at most 5,000 ids a call: more is a RangeError and no call', async () => {
    assert.equal(driver().maxIdsPerQuote, LITEAPI_MAX_IDS_PER_QUOTE);
    assert.equal(LITEAPI_MAX_IDS_PER_QUOTE, 5_000);
    respond = (url) => (url.pathname === '/v3.0/hotels/rates' ? { status: 204, body: '' } : undefined);
    const ids = Array.from({ length: 5_001 }, (_v, i) => `lp${i.toString(16)}`);
    const start = server.received.length;
    await assert.rejects(driver().quote(party(ids), AbortSignal.timeout(5_000)), RangeError);
    assert.equal(server.received.length, start, 'no call');
    await driver().quote(party(ids.slice(0, 5_000)), AbortSignal.timeout(5_000));
    const sent = body(server.received.at(-1)!);
    assert.deepEqual([sent.hotelIds.length, sent.limit], [5_000, 5_000]);
  });
});
