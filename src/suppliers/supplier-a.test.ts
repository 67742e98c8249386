import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Listing } from '../types.ts';
import { collectPages, startFixtureServer, type FixtureResponse, type FixtureServer } from './fixture-server.ts';
import { createSupplierA } from './supplier-a.ts';
import { expectSupplierError } from './expect-supplier-error.ts';
import { SupplierError, type SupplierErrorKind } from './supplier-error.ts';
import type { QuoteRequest, Supplier } from './supplier.ts';
import { testSupplierConfig } from '../test-support/supplier-config.ts';

function property(id: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    propertyId: id,
    propertyName: `Hôtel Lumière ${id}`,
    propertyType: { code: 'HOTEL', label: 'Boutique hotel' },
    geo: { latitude: 48.85, longitude: 2.35 },
    address: { line1: '12 Rue Lafayette', city: 'Paris', countryCode: 'FR' },
    starRating: 4,
    guestScore: { score: 8.7, reviews: 1234 },
    occupancy: { maxGuests: 2, bedrooms: 1, beds: 1, bathrooms: 1 },
    policies: { instantConfirmation: true, freeCancellation: false },
    images: [
      { kind: 'thumbnail', url: 'https://img/t.jpg' },
      { kind: 'logo', url: 'https://img/l.png' },
    ],
    ...overrides,
  };
}

const PAGES = [
  [
    property(1048576),
    property(7, {
      propertyType: { code: 'BED_AND_BREAKFAST', label: 'B&B' },
      starRating: null,
      occupancy: { maxGuests: 4, bedrooms: null, beds: null, bathrooms: 1.5 },
      guestScore: { score: 9.1, reviews: 0 },
      images: [],
    }),
  ],
  [property(9, { geo: { latitude: -33.86, longitude: 151.2 } })],
];

describe('supplier_a adapter', () => {
  let server: FixtureServer;
  let malformed = false;
  before(async () => {
    server = await startFixtureServer((url) => {
      if (url.pathname !== '/content/properties') return { status: 404, body: { error: 'not found' } };
      const page = Number(url.searchParams.get('page'));
      const properties =
        malformed && page === 2 ? [property(9, { geo: { latitude: '-33.86', longitude: 151.2 } })] : (PAGES[page - 1] ?? []);
      return { body: { page, pageSize: Number(url.searchParams.get('pageSize')), totalPages: 2, totalCount: 3, properties } };
    });
  });
  after(() => server.close());

  it('pages through the feed and decodes every record exactly', async () => {
    malformed = false;
    const supplier = createSupplierA(testSupplierConfig('supplier_a', server.baseUrl));
    const requestsBefore = server.requests.length;
    const pages = await collectPages(supplier.contentPages({ pageSize: 2 }));
    assert.deepEqual(server.requests.slice(requestsBefore), [
      '/content/properties?page=1&pageSize=2',
      '/content/properties?page=2&pageSize=2',
    ]);
    assert.deepEqual(
      pages.map((page) => page.map((listing) => listing.supplierStayId)),
      [['1048576', '7'], ['9']],
    );
    const expected: Listing = {
      supplier: 'supplier_a',
      supplierStayId: '1048576',
      name: 'Hôtel Lumière 1048576',
      typeLabel: 'Boutique hotel',
      type: 'hotel',
      address: '12 Rue Lafayette, Paris, FR',
      lat: 48.85,
      lng: 2.35,
      rating: { value: 8.7, hotelStars: 4, count: 1234 },
      capacity: { guests: 2, bedrooms: 1, beds: 1, bathrooms: 1 },
      policies: { instantBook: true, freeCancellation: false },
      media: { thumbnail: 'https://img/t.jpg', logoSquare: 'https://img/l.png' },
    };
    assert.deepEqual(pages[0][0], expected);
    const bnb = pages[0][1];
    assert.equal(bnb.type, 'bed_and_breakfast');
    assert.equal(bnb.typeLabel, 'B&B');
    assert.deepEqual(bnb.rating, { value: 9.1, hotelStars: null, count: 0 });
    assert.deepEqual(bnb.capacity, { guests: 4, bedrooms: null, beds: null, bathrooms: 1.5 });
    assert.deepEqual(bnb.media, { thumbnail: '', logoSquare: '' });
    assert.deepEqual([pages[1][0].lat, pages[1][0].lng], [-33.86, 151.2]);
  });

  it('rejects a malformed record, naming the supplier and the field', async () => {
    malformed = true;
    const supplier = createSupplierA(testSupplierConfig('supplier_a', server.baseUrl));
    await assert.rejects(collectPages(supplier.contentPages({ pageSize: 2 })), (error) => {
      assert.ok(error instanceof SupplierError, 'error instanceof SupplierError');
      assert.equal(error.kind, 'malformed');
      assert.match(error.message, /^supplier_a: page 2\.properties\[0\]\.geo\.latitude: expected a finite number, got string "-33\.86"/);
      return true;
    });
  });
});

describe('supplier_a quotes', () => {
  let server: FixtureServer;
  let reply: (url: URL, body: any) => FixtureResponse = () => ({ body: {} });
  before(async () => {
    server = await startFixtureServer((url, request) => reply(url, request.body === '' ? null : JSON.parse(request.body)));
  });
  after(() => server.close());

  const request = (overrides: Partial<QuoteRequest> = {}): QuoteRequest => ({
    supplierStayIds: ['1048576', '1048577', '7'],
    checkin: '2027-03-01',
    checkout: '2027-03-04',
    adults: 2,
    children: 2,
    childrenAges: [5, 9],
    rooms: 1,
    currency: 'EUR',
    ...overrides,
  });
  const supplier = (): Supplier => createSupplierA(testSupplierConfig('supplier_a', server.baseUrl));
  const lastBody = (): any => JSON.parse(server.received.at(-1)!.body);
  const expectKind = (kind: SupplierErrorKind, pattern?: RegExp) => expectSupplierError('supplier_a', kind, pattern);

  it('posts the wire format and reads totals in the answered currency; a left-out id is not available', async () => {
    reply = () => ({
      body: {
        currency: 'EUR',
        quotes: [
          { propertyId: 1048576, status: 'AVAILABLE', totalPrice: 412.35 },
          { propertyId: 1048577, status: 'SOLD_OUT' },
        ],
      },
    });
    const quotes = await supplier().quote(request(), AbortSignal.timeout(5_000));
    const received = server.received.at(-1)!;
    assert.equal(received.method, 'POST');
    assert.equal(received.url, '/availability/quotes');
    assert.deepEqual(lastBody(), {
      propertyIds: [1048576, 1048577, 7],
      checkIn: '2027-03-01',
      checkOut: '2027-03-04',
      occupancy: { adults: 2, childAges: [5, 9], rooms: 1 },
      currency: 'EUR',
    });
    assert.deepEqual(
      [...quotes],
      [
        ['1048576', { available: true, total: 412.35, currency: 'EUR' }],
        ['1048577', { available: false }],
        ['7', { available: false }],
      ],
    );
  });

  it('takes the currency the supplier answered in, not the one asked', async () => {
    reply = () => ({ body: { currency: 'USD', quotes: [{ propertyId: 7, status: 'AVAILABLE', totalPrice: 100 }] } });
    const quotes = await supplier().quote(request({ supplierStayIds: ['7'], currency: 'SEK' }), AbortSignal.timeout(5_000));
    assert.equal(lastBody().currency, 'SEK');
    assert.deepEqual(quotes.get('7'), { available: true, total: 100, currency: 'USD' });
  });

  it('sends age 8 per child when ages are unknown, and no childAges without children', async () => {
    reply = () => ({ body: { currency: 'EUR', quotes: [] } });
    await supplier().quote(request({ children: 3, childrenAges: null }), AbortSignal.timeout(5_000));
    assert.deepEqual(lastBody().occupancy, { adults: 2, childAges: [8, 8, 8], rooms: 1 });
    await supplier().quote(request({ children: 0, childrenAges: null, rooms: 2 }), AbortSignal.timeout(5_000));
    assert.deepEqual(lastBody().occupancy, { adults: 2, rooms: 2 });
    await supplier().quote(request({ children: 0, childrenAges: [] }), AbortSignal.timeout(5_000));
    assert.deepEqual(lastBody().occupancy, { adults: 2, rooms: 1 });
  });

  it('answers ids supplier_a cannot express as not available without sending them', async () => {
    reply = () => ({ body: { currency: 'EUR', quotes: [] } });
    const before = server.received.length;
    const quotes = await supplier().quote(request({ supplierStayIds: ['HB0012345', '01'] }), AbortSignal.timeout(5_000));
    assert.equal(server.received.length, before, 'no call for ids the supplier cannot sell');
    assert.deepEqual(
      [...quotes],
      [
        ['HB0012345', { available: false }],
        ['01', { available: false }],
      ],
    );
  });

  it('refuses more ids than its cap without calling', async () => {
    const s = supplier();
    assert.equal(s.maxIdsPerQuote, 200);
    const before = server.received.length;
    const ids = Array.from({ length: 201 }, (_, i) => String(i + 1));
    await assert.rejects(s.quote(request({ supplierStayIds: ids }), AbortSignal.timeout(5_000)), RangeError);
    // Duplicates do not count against the cap.
    reply = () => ({ body: { currency: 'EUR', quotes: [] } });
    await s.quote(request({ supplierStayIds: [...ids.slice(0, 200), '1'] }), AbortSignal.timeout(5_000));
    assert.equal(server.received.length, before + 1);
    assert.equal(lastBody().propertyIds.length, 200);
  });

  const malformed: Array<[string, unknown, RegExp]> = [
    ['a body that is not JSON', '{"currency": "EUR", "quo', /not JSON/],
    ['no currency', { quotes: [] }, /quote answer\.currency: expected an ISO 4217/],
    ['quotes not an array', { currency: 'EUR', quotes: {} }, /quote answer\.quotes: expected an array/],
    [
      'an unknown status',
      { currency: 'EUR', quotes: [{ propertyId: 7, status: 'MAYBE' }] },
      /quotes\[0\]\.status: expected one of AVAILABLE, SOLD_OUT/,
    ],
    ['a string id', { currency: 'EUR', quotes: [{ propertyId: '7', status: 'SOLD_OUT' }] }, /quotes\[0\]\.propertyId/],
    [
      'a negative total',
      { currency: 'EUR', quotes: [{ propertyId: 7, status: 'AVAILABLE', totalPrice: -1 }] },
      /totalPrice: expected a non-negative amount/,
    ],
    ['a missing total', { currency: 'EUR', quotes: [{ propertyId: 7, status: 'AVAILABLE' }] }, /totalPrice/],
    ['a string total', { currency: 'EUR', quotes: [{ propertyId: 7, status: 'AVAILABLE', totalPrice: '12.50' }] }, /totalPrice/],
    [
      'an id answered twice',
      {
        currency: 'EUR',
        quotes: [
          { propertyId: 7, status: 'SOLD_OUT' },
          { propertyId: 7, status: 'SOLD_OUT' },
        ],
      },
      /answered once/,
    ],
  ];
  for (const [what, body, pattern] of malformed) {
    it(`rejects ${what} as malformed`, async () => {
      reply = () => ({ body });
      await assert.rejects(
        supplier().quote(request({ supplierStayIds: ['7'] }), AbortSignal.timeout(5_000)),
        expectKind('malformed', pattern),
      );
    });
  }

  it('turns a 500 into an http error', async () => {
    reply = () => ({ status: 500, body: { error: 'Internal Server Error' } });
    await assert.rejects(supplier().quote(request(), AbortSignal.timeout(5_000)), (error) => {
      expectKind('http', /HTTP 500/)(error);
      assert.equal((error as SupplierError).status, 500);
      return true;
    });
  });

  it('gives up on a hung supplier when the signal times out', async () => {
    reply = () => ({ hang: true, body: null });
    // The fixture never answers: only the signal can end the call, as a timeout.
    await assert.rejects(supplier().quote(request(), AbortSignal.timeout(100)), expectKind('timeout', /no answer in time/));
  });

  it('re-throws a caller abort that is not a timeout as is', async () => {
    reply = () => ({ hang: true, body: null });
    const controller = new AbortController();
    const reason = new Error('client went away');
    setTimeout(() => controller.abort(reason), 30);
    await assert.rejects(supplier().quote(request(), controller.signal), reason);
  });
});
