import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Listing } from '../types.ts';
import { collectPages, startFixtureServer, type FixtureResponse, type FixtureServer } from './fixture-server.ts';
import { createSupplierD } from './supplier-d.ts';
import { expectSupplierError } from './expect-supplier-error.ts';
import { SupplierError, type SupplierErrorKind } from './supplier-error.ts';
import type { QuoteRequest, Supplier } from './supplier.ts';
import { testSupplierConfig } from '../test-support/supplier-config.ts';

function listing(id: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    listing_id: id,
    headline: 'Villa Azzurra',
    property_type: 'villa',
    property_type_label: 'Entire villa',
    coordinates: { lat: 43.7, lng: 7.26 },
    address: { full: '3 Chemin des Oliviers, Nice, FR' },
    star_class: null,
    host_rating: 4.35,
    ratings_count: 12,
    sleeps: 6,
    bedrooms: 3,
    beds: null,
    bathrooms: 2.5,
    instant_book: true,
    cancellation_policy: 'flexible',
    photos: [
      { url: 'https://img/1.jpg', is_cover: false },
      { url: 'https://img/cover.jpg', is_cover: true },
    ],
    brand_logo: 'https://img/logo.png',
    ...overrides,
  };
}

const PAGES = [
  [listing('1048576'), listing('12', { cancellation_policy: 'strict', property_type: 'private_vacation_home', instant_book: false })],
  [listing('13', { cancellation_policy: 'moderate', property_type: 'hotel', star_class: 3, host_rating: 5 })],
];

describe('supplier_d adapter', () => {
  let server: FixtureServer;
  let malformed = false;
  before(async () => {
    server = await startFixtureServer((url) => {
      if (url.pathname !== '/api/listings') return { status: 404, body: { error: 'not found' } };
      const page = Number(url.searchParams.get('page'));
      const perPage = Number(url.searchParams.get('per_page'));
      const data = malformed && page === 2 ? [listing('13', { listing_id: 13 })] : (PAGES[page - 1] ?? []);
      return { body: { data, meta: { current_page: page, last_page: 2, per_page: perPage, total: 3 } } };
    });
  });
  after(() => server.close());

  it('pages through the feed and decodes every record exactly', async () => {
    malformed = false;
    const supplier = createSupplierD(testSupplierConfig('supplier_d', server.baseUrl));
    const start = server.requests.length;
    const pages = await collectPages(supplier.contentPages({ pageSize: 2 }));
    assert.deepEqual(server.requests.slice(start), ['/api/listings?page=1&per_page=2', '/api/listings?page=2&per_page=2']);
    assert.deepEqual(
      pages.map((page) => page.map((l) => l.supplierStayId)),
      [['1048576', '12'], ['13']],
    );
    const expected: Listing = {
      supplier: 'supplier_d',
      supplierStayId: '1048576',
      name: 'Villa Azzurra',
      typeLabel: 'Entire villa',
      type: 'villa',
      address: '3 Chemin des Oliviers, Nice, FR',
      lat: 43.7,
      lng: 7.26,
      rating: { value: 8.7, hotelStars: null, count: 12 },
      capacity: { guests: 6, bedrooms: 3, beds: null, bathrooms: 2.5 },
      policies: { instantBook: true, freeCancellation: true },
      media: { thumbnail: 'https://img/cover.jpg', logoSquare: 'https://img/logo.png' },
    };
    assert.deepEqual(pages[0][0], expected);
    assert.equal(pages[0][1].type, 'private_vacation_home');
    assert.deepEqual(pages[0][1].policies, { instantBook: false, freeCancellation: false });
    assert.equal(pages[1][0].policies.freeCancellation, false);
    assert.deepEqual(pages[1][0].rating, { value: 10, hotelStars: 3, count: 12 });
  });

  it('rejects a malformed record, naming the supplier and the field', async () => {
    malformed = true;
    const supplier = createSupplierD(testSupplierConfig('supplier_d', server.baseUrl));
    await assert.rejects(collectPages(supplier.contentPages({ pageSize: 2 })), (error) => {
      assert.ok(error instanceof SupplierError, 'error instanceof SupplierError');
      assert.equal(error.kind, 'malformed');
      assert.match(error.message, /^supplier_d: page 2\.data\[0\]\.listing_id: expected a string, got number 13/);
      return true;
    });
  });

  it('reports an HTTP error from the feed', async () => {
    const supplier = createSupplierD(testSupplierConfig('supplier_d', `${server.baseUrl}/nowhere`));
    await assert.rejects(collectPages(supplier.contentPages()), (error) => {
      assert.ok(error instanceof SupplierError, 'error instanceof SupplierError');
      assert.equal(error.kind, 'http');
      assert.equal(error.status, 404);
      return true;
    });
  });
});

describe('supplier_d quotes', () => {
  let server: FixtureServer;
  let reply: (url: URL) => FixtureResponse = () => ({ body: {} });
  before(async () => {
    server = await startFixtureServer((url) => reply(url));
  });
  after(() => server.close());

  const request = (overrides: Partial<QuoteRequest> = {}): QuoteRequest => ({
    supplierStayIds: ['1048576', '1048580', '12'],
    checkin: '2027-03-01',
    checkout: '2027-03-04',
    adults: 2,
    children: 2,
    childrenAges: [5, 9],
    rooms: 1,
    currency: 'EUR',
    ...overrides,
  });
  const supplier = (): Supplier => createSupplierD(testSupplierConfig('supplier_d', server.baseUrl));
  const expectKind = (kind: SupplierErrorKind, pattern?: RegExp) => expectSupplierError('supplier_d', kind, pattern);

  it('asks with the wire format and reads price.total with its currency', async () => {
    reply = () => ({
      body: {
        data: [
          { listing_id: '1048576', bookable: true, price: { total: 412.35, currency: 'USD' } },
          { listing_id: '1048580', bookable: false },
        ],
      },
    });
    const quotes = await supplier().quote(request(), AbortSignal.timeout(5_000));
    assert.equal(
      server.requests.at(-1),
      '/api/availability?ids=1048576%2C1048580%2C12&start=2027-03-01&end=2027-03-04&adults=2&children=2&ages=5%2C9&rooms=1',
    );
    assert.deepEqual(
      [...quotes],
      [
        ['1048576', { available: true, total: 412.35, currency: 'USD' }],
        ['1048580', { available: false }],
        ['12', { available: false }],
      ],
    );
  });

  it('sends children without ages when ages are unknown', async () => {
    reply = () => ({ body: { data: [] } });
    await supplier().quote(request({ children: 1, childrenAges: null }), AbortSignal.timeout(5_000));
    const params = new URL(server.requests.at(-1)!, 'http://x').searchParams;
    assert.equal(params.get('children'), '1');
    assert.equal(params.has('ages'), false);
  });

  it('has a cap of 50 ids', async () => {
    const s = supplier();
    assert.equal(s.maxIdsPerQuote, 50);
    const before = server.requests.length;
    await assert.rejects(
      s.quote(request({ supplierStayIds: Array.from({ length: 51 }, (_, i) => String(i)) }), AbortSignal.timeout(5_000)),
      RangeError,
    );
    assert.equal(server.requests.length, before);
  });

  const malformed: Array<[string, unknown, RegExp]> = [
    ['a body that is not JSON', '{"data": [', /not JSON/],
    ['data not an array', { data: 'none' }, /data: expected an array/],
    ['a numeric listing id', { data: [{ listing_id: 12, bookable: false }] }, /listing_id: expected a string/],
    ['a bookable listing without a price', { data: [{ listing_id: '12', bookable: true }] }, /price: expected an object/],
    ['a NaN-like total', { data: [{ listing_id: '12', bookable: true, price: { total: 'NaN', currency: 'USD' } }] }, /price\.total/],
    [
      'a negative total',
      { data: [{ listing_id: '12', bookable: true, price: { total: -5, currency: 'USD' } }] },
      /price\.total: expected a non-negative amount/,
    ],
    ['a missing currency', { data: [{ listing_id: '12', bookable: true, price: { total: 5 } }] }, /price\.currency/],
  ];
  for (const [what, body, pattern] of malformed) {
    it(`rejects ${what} as malformed`, async () => {
      reply = () => ({ body });
      await assert.rejects(supplier().quote(request(), AbortSignal.timeout(5_000)), expectKind('malformed', pattern));
    });
  }

  it('turns a 500 into an http error and a hung supplier into a timeout', async () => {
    reply = () => ({ status: 500, body: { error: 'Internal Server Error' } });
    await assert.rejects(supplier().quote(request(), AbortSignal.timeout(5_000)), expectKind('http', /HTTP 500/));
    reply = () => ({ hang: true, body: null });
    await assert.rejects(supplier().quote(request(), AbortSignal.timeout(100)), expectKind('timeout'));
  });
});
