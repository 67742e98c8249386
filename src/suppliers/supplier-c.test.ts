import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Listing } from '../types.ts';
import { collectPages, startFixtureServer, type FixtureResponse, type FixtureServer } from './fixture-server.ts';
import { createSupplierC } from './supplier-c.ts';
import { expectSupplierError } from './expect-supplier-error.ts';
import { SupplierError, type SupplierErrorKind } from './supplier-error.ts';
import type { QuoteRequest, Supplier } from './supplier.ts';
import { testSupplierConfig } from '../test-support/supplier-config.ts';

function item(id: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    title: 'Maison Bleue',
    type_code: 'bed-and-breakfast',
    type_label: 'B&B',
    location: [2.35, 48.85],
    addr: '12 Rue Lafayette, Paris, FR',
    class: 4,
    rating: { pct: 87, votes: 120 },
    sleeps: 2,
    layout: { bedrooms: 1, beds: 1, baths: 1.5 },
    flags: ['instant_book', 'free_cancellation'],
    media: { thumb: 'https://img/t.jpg', square_logo: 'https://img/s.png' },
    ...overrides,
  };
}

const ITEMS = [item(1048577), item(2, { type_code: 'hotel', flags: [], class: null }), item(3, { location: [-0.1276, 51.5072] })];

describe('supplier_c adapter', () => {
  let server: FixtureServer;
  let broken = false;
  before(async () => {
    server = await startFixtureServer((url) => {
      if (url.pathname !== '/feed/accommodations') return { status: 404, body: { error: 'not found' } };
      const offset = Number(url.searchParams.get('offset'));
      const limit = Number(url.searchParams.get('limit'));
      if (broken && offset > 0) return { body: '{"total": 3, "offset": 2, "items": [' };
      return { body: { total: ITEMS.length, offset, limit, items: ITEMS.slice(offset, offset + limit) } };
    });
  });
  after(() => server.close());

  it('pages by offset and decodes every record exactly', async () => {
    broken = false;
    const supplier = createSupplierC(testSupplierConfig('supplier_c', server.baseUrl));
    const start = server.requests.length;
    const pages = await collectPages(supplier.contentPages({ pageSize: 2 }));
    assert.deepEqual(server.requests.slice(start), ['/feed/accommodations?offset=0&limit=2', '/feed/accommodations?offset=2&limit=2']);
    assert.deepEqual(
      pages.map((page) => page.map((listing) => listing.supplierStayId)),
      [['1048577', '2'], ['3']],
    );
    const expected: Listing = {
      supplier: 'supplier_c',
      supplierStayId: '1048577',
      name: 'Maison Bleue',
      typeLabel: 'B&B',
      type: 'bed_and_breakfast',
      address: '12 Rue Lafayette, Paris, FR',
      lat: 48.85,
      lng: 2.35,
      rating: { value: 8.7, hotelStars: 4, count: 120 },
      capacity: { guests: 2, bedrooms: 1, beds: 1, bathrooms: 1.5 },
      policies: { instantBook: true, freeCancellation: true },
      media: { thumbnail: 'https://img/t.jpg', logoSquare: 'https://img/s.png' },
    };
    assert.deepEqual(pages[0][0], expected);
    assert.equal(pages[0][1].type, 'hotel');
    assert.equal(pages[0][1].rating.hotelStars, null);
    assert.deepEqual(pages[0][1].policies, { instantBook: false, freeCancellation: false });
    // location is [lng, lat]
    assert.deepEqual([pages[1][0].lat, pages[1][0].lng], [51.5072, -0.1276]);
  });

  it('rejects a truncated body, naming the supplier', async () => {
    broken = true;
    const supplier = createSupplierC(testSupplierConfig('supplier_c', server.baseUrl));
    await assert.rejects(collectPages(supplier.contentPages({ pageSize: 2 })), (error) => {
      assert.ok(error instanceof SupplierError, 'error instanceof SupplierError');
      assert.equal(error.kind, 'malformed');
      assert.match(error.message, /^supplier_c: body of http:\/\/127\.0\.0\.1:\d+\/feed\/accommodations\?offset=2&limit=2 is not JSON/);
      return true;
    });
  });

  it('rejects a location that is not [lng, lat]', async () => {
    const server2 = await startFixtureServer(() => ({
      body: { total: 1, offset: 0, limit: 10, items: [item(1, { location: { lat: 1, lng: 2 } })] },
    }));
    try {
      const supplier = createSupplierC(testSupplierConfig('supplier_c', server2.baseUrl));
      await assert.rejects(collectPages(supplier.contentPages()), /supplier_c: offset 0\.items\[0\]\.location: expected an array/);
    } finally {
      await server2.close();
    }
  });
});

describe('supplier_c quotes', () => {
  let server: FixtureServer;
  let reply: (url: URL) => FixtureResponse = () => ({ body: {} });
  before(async () => {
    server = await startFixtureServer((url) => reply(url));
  });
  after(() => server.close());

  const request = (overrides: Partial<QuoteRequest> = {}): QuoteRequest => ({
    supplierStayIds: ['1048577', '1048578', '3'],
    checkin: '2027-03-01',
    checkout: '2027-03-04',
    adults: 2,
    children: 2,
    childrenAges: [5, 9],
    rooms: 1,
    currency: 'EUR',
    ...overrides,
  });
  const supplier = (): Supplier => createSupplierC(testSupplierConfig('supplier_c', server.baseUrl));
  const lastBody = (): any => JSON.parse(server.received.at(-1)!.body);
  const expectKind = (kind: SupplierErrorKind, pattern?: RegExp) => expectSupplierError('supplier_c', kind, pattern);

  it('posts the wire format and turns USD cents into a USD total', async () => {
    reply = () => ({
      body: {
        results: [
          { id: 1048577, state: 'OK', total_usd_cents: 41235 },
          { id: 1048578, state: 'FULL' },
        ],
      },
    });
    const quotes = await supplier().quote(request(), AbortSignal.timeout(5_000));
    assert.equal(server.received.at(-1)!.method, 'POST');
    assert.equal(server.received.at(-1)!.url, '/feed/quote');
    assert.deepEqual(lastBody(), {
      ids: [1048577, 1048578, 3],
      from: '2027-03-01',
      to: '2027-03-04',
      pax: { adults: 2, children: [5, 9] },
      units: 1,
    });
    assert.deepEqual(
      [...quotes],
      [
        ['1048577', { available: true, total: 412.35, currency: 'USD' }],
        ['1048578', { available: false }],
        ['3', { available: false }],
      ],
    );
  });

  it('sends childCount when ages are unknown, and an empty list without children', async () => {
    reply = () => ({ body: { results: [] } });
    await supplier().quote(request({ children: 2, childrenAges: null, rooms: 2 }), AbortSignal.timeout(5_000));
    assert.deepEqual(lastBody().pax, { adults: 2, childCount: 2 });
    assert.equal(lastBody().units, 2);
    await supplier().quote(request({ children: 0, childrenAges: null }), AbortSignal.timeout(5_000));
    assert.deepEqual(lastBody().pax, { adults: 2, children: [] });
  });

  it('has a cap of 100 ids', async () => {
    const s = supplier();
    assert.equal(s.maxIdsPerQuote, 100);
    await assert.rejects(
      s.quote(request({ supplierStayIds: Array.from({ length: 101 }, (_, i) => String(i)) }), AbortSignal.timeout(5_000)),
      RangeError,
    );
  });

  const malformed: Array<[string, unknown, RegExp]> = [
    ['a body that is not JSON', '', /not JSON/],
    ['results not an array', { results: null }, /results: expected an array/],
    ['an unknown state', { results: [{ id: 3, state: 'ok' }] }, /state: expected one of OK, FULL/],
    [
      'fractional cents',
      { results: [{ id: 3, state: 'OK', total_usd_cents: 100.5 }] },
      /total_usd_cents: expected a whole number of cents/,
    ],
    ['negative cents', { results: [{ id: 3, state: 'OK', total_usd_cents: -100 }] }, /total_usd_cents: expected a non-negative amount/],
    ['a result that is not an object', { results: [3] }, /results\[0\]: expected an object/],
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
