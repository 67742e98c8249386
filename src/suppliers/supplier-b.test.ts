import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Listing } from '../types.ts';
import { collectPages, startFixtureServer, type FixtureResponse, type FixtureServer } from './fixture-server.ts';
import { createSupplierB } from './supplier-b.ts';
import { expectSupplierError } from './expect-supplier-error.ts';
import { SupplierError, type SupplierErrorKind } from './supplier-error.ts';
import type { QuoteRequest, Supplier } from './supplier.ts';
import { testSupplierConfig } from '../test-support/supplier-config.ts';

function hotel(id: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    hotel_id: id,
    name: 'Grand Hotel Europa',
    kind_id: 0,
    kind: 'Hotel',
    lat: 48.85,
    lon: 2.35,
    street: '12 Rue Lafayette',
    city: 'Paris',
    country: 'FR',
    stars: 4.5,
    review_score: 4.35,
    review_count: 120,
    max_occupancy: 2,
    bedroom_count: null,
    bed_count: 1,
    bathroom_count: 1,
    instant_confirmation: true,
    free_cancellation: true,
    photo_url: 'https://img/p.jpg',
    logo_url: 'https://img/l.png',
    ...overrides,
  };
}

describe('supplier_b adapter', () => {
  let server: FixtureServer;
  let body2: unknown = null;
  before(async () => {
    server = await startFixtureServer((url) => {
      if (url.pathname !== '/v2/hotels') return { status: 404, body: { error: 'not found' } };
      if (!url.searchParams.has('cursor')) {
        return { body: { hotels: [hotel('HB0000001'), hotel('HB0000002', { kind_id: 10, kind: 'Apartment' })], next_cursor: 'c/2=' } };
      }
      return { body: body2 };
    });
  });
  after(() => server.close());

  it('follows the cursor and decodes every record exactly', async () => {
    body2 = { hotels: [hotel('HB0000003', { review_score: 2.05, stars: null })], next_cursor: null };
    const supplier = createSupplierB(testSupplierConfig('supplier_b', server.baseUrl));
    const start = server.requests.length;
    const pages = await collectPages(supplier.contentPages({ pageSize: 2 }));
    assert.deepEqual(server.requests.slice(start), ['/v2/hotels?limit=2', '/v2/hotels?limit=2&cursor=c%2F2%3D']);
    assert.deepEqual(
      pages.map((page) => page.map((listing) => listing.supplierStayId)),
      [['HB0000001', 'HB0000002'], ['HB0000003']],
    );
    const expected: Listing = {
      supplier: 'supplier_b',
      supplierStayId: 'HB0000001',
      name: 'Grand Hotel Europa',
      typeLabel: 'Hotel',
      type: 'hotel',
      address: '12 Rue Lafayette, Paris, FR',
      lat: 48.85,
      lng: 2.35,
      // 4.35 * 2 is 8.7 plus float noise: the adapter rounds it away.
      rating: { value: 8.7, hotelStars: 4.5, count: 120 },
      capacity: { guests: 2, bedrooms: null, beds: 1, bathrooms: 1 },
      policies: { instantBook: true, freeCancellation: true },
      media: { thumbnail: 'https://img/p.jpg', logoSquare: 'https://img/l.png' },
    };
    assert.deepEqual(pages[0][0], expected);
    assert.equal(pages[0][1].type, 'apartment');
    assert.deepEqual(pages[1][0].rating, { value: 4.1, hotelStars: null, count: 120 });
  });

  it('rejects an unknown kind_id, naming the supplier and the field', async () => {
    body2 = { hotels: [hotel('HB0000003', { kind_id: 99 })], next_cursor: null };
    const supplier = createSupplierB(testSupplierConfig('supplier_b', server.baseUrl));
    await assert.rejects(collectPages(supplier.contentPages()), (error) => {
      assert.ok(error instanceof SupplierError, 'error instanceof SupplierError');
      assert.equal(error.kind, 'malformed');
      assert.match(error.message, /^supplier_b: page 2\.hotels\[0\]\.kind_id: expected an index into STAY_TYPES/);
      return true;
    });
  });

  it('rejects a body without the hotels array', async () => {
    body2 = { results: [], next_cursor: null };
    const supplier = createSupplierB(testSupplierConfig('supplier_b', server.baseUrl));
    await assert.rejects(
      collectPages(supplier.contentPages()),
      /^SupplierError: supplier_b: page 2\.hotels: expected an array, got undefined/,
    );
  });
});

describe('supplier_b quotes', () => {
  let server: FixtureServer;
  let reply: (url: URL) => FixtureResponse = () => ({ body: {} });
  before(async () => {
    server = await startFixtureServer((url) => reply(url));
  });
  after(() => server.close());

  const request = (overrides: Partial<QuoteRequest> = {}): QuoteRequest => ({
    supplierStayIds: ['HB0012345', 'HB0012346', 'HB0000001'],
    checkin: '2027-03-01',
    checkout: '2027-03-04',
    adults: 2,
    children: 2,
    childrenAges: [5, 9],
    rooms: 1,
    currency: 'USD',
    ...overrides,
  });
  const supplier = (): Supplier => createSupplierB(testSupplierConfig('supplier_b', server.baseUrl));
  const expectKind = (kind: SupplierErrorKind, pattern?: RegExp) => expectSupplierError('supplier_b', kind, pattern);

  it('asks with the wire format and sums nightly EUR rates to a 2-decimal total', async () => {
    reply = () => ({
      body: {
        rates: [
          { hotel_id: 'HB0012345', available: true, currency: 'EUR', nightly: [120.1, 130.2, 128.25] },
          { hotel_id: 'HB0012346', available: false },
        ],
      },
    });
    const quotes = await supplier().quote(request(), AbortSignal.timeout(5_000));
    assert.equal(
      server.requests.at(-1),
      '/v2/rates?hotel_ids=HB0012345%2CHB0012346%2CHB0000001&arrival=2027-03-01&departure=2027-03-04&adults=2&children=2&child_ages=5%2C9&rooms=1',
    );
    assert.equal(server.received.at(-1)!.method, 'GET');
    assert.deepEqual(
      [...quotes],
      [
        // 120.1 + 130.2 + 128.25 is 378.54999999999995 in floating point.
        ['HB0012345', { available: true, total: 378.55, currency: 'EUR' }],
        ['HB0012346', { available: false }],
        ['HB0000001', { available: false }],
      ],
    );
  });

  it('sends children without child_ages when ages are unknown', async () => {
    reply = () => ({ body: { rates: [] } });
    await supplier().quote(request({ children: 2, childrenAges: null }), AbortSignal.timeout(5_000));
    const params = new URL(server.requests.at(-1)!, 'http://x').searchParams;
    assert.equal(params.get('children'), '2');
    assert.equal(params.has('child_ages'), false);
  });

  it('has a cap of 100 ids', async () => {
    const s = supplier();
    assert.equal(s.maxIdsPerQuote, 100);
    await assert.rejects(
      s.quote(request({ supplierStayIds: Array.from({ length: 101 }, (_, i) => `HB${i}`) }), AbortSignal.timeout(5_000)),
      RangeError,
    );
  });

  const malformed: Array<[string, unknown, RegExp]> = [
    ['a body that is not JSON', 'Service temporarily unavailable', /not JSON/],
    ['no rates', { hotels: [] }, /rates: expected an array/],
    ['available not a boolean', { rates: [{ hotel_id: 'HB0012345', available: 'yes' }] }, /available: expected a boolean/],
    [
      'a nightly amount per night missing',
      { rates: [{ hotel_id: 'HB0012345', available: true, currency: 'EUR', nightly: [1, 2] }] },
      /nightly: expected 3 nightly amounts/,
    ],
    [
      'a negative nightly amount',
      { rates: [{ hotel_id: 'HB0012345', available: true, currency: 'EUR', nightly: [1, -2, 3] }] },
      /nightly: expected non-negative amounts/,
    ],
    ['a null nightly amount', { rates: [{ hotel_id: 'HB0012345', available: true, currency: 'EUR', nightly: [1, null, 3] }] }, /nightly/],
    ['a bad currency', { rates: [{ hotel_id: 'HB0012345', available: true, currency: 'euro', nightly: [1, 2, 3] }] }, /currency/],
  ];
  for (const [what, body, pattern] of malformed) {
    it(`rejects ${what} as malformed`, async () => {
      reply = () => ({ body });
      await assert.rejects(supplier().quote(request(), AbortSignal.timeout(5_000)), expectKind('malformed', pattern));
    });
  }

  it('turns a 503 into an http error and a hung supplier into a timeout', async () => {
    reply = () => ({ status: 503, body: { error: 'Service Unavailable' } });
    await assert.rejects(supplier().quote(request(), AbortSignal.timeout(5_000)), expectKind('http', /HTTP 503/));
    reply = () => ({ hang: true, body: null });
    await assert.rejects(supplier().quote(request(), AbortSignal.timeout(100)), expectKind('timeout'));
  });
});
