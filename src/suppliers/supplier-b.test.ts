import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Listing } from '../types.ts';
import { collectPages, startFixtureServer, type FixtureServer } from './fixture-server.ts';
import { createSupplierB } from './supplier-b.ts';
import { SupplierError } from './supplier-error.ts';

function hotel(id: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    hotel_id: id, name: 'Grand Hotel Europa', kind_id: 0, kind: 'Hotel',
    lat: 48.85, lon: 2.35, street: '12 Rue Lafayette', city: 'Paris', country: 'FR',
    stars: 4.5, review_score: 4.35, review_count: 120,
    max_occupancy: 2, bedroom_count: null, bed_count: 1, bathroom_count: 1,
    instant_confirmation: true, free_cancellation: true,
    photo_url: 'https://img/p.jpg', logo_url: 'https://img/l.png',
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
    const supplier = createSupplierB({ id: 'supplier_b', baseUrl: server.baseUrl });
    const start = server.requests.length;
    const pages = await collectPages(supplier.contentPages({ pageSize: 2 }));
    assert.deepEqual(server.requests.slice(start), ['/v2/hotels?limit=2', '/v2/hotels?limit=2&cursor=c%2F2%3D']);
    assert.deepEqual(pages.map((page) => page.map((listing) => listing.supplierStayId)), [['HB0000001', 'HB0000002'], ['HB0000003']]);
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
    const supplier = createSupplierB({ id: 'supplier_b', baseUrl: server.baseUrl });
    await assert.rejects(collectPages(supplier.contentPages()), (error) => {
      assert.ok(error instanceof SupplierError);
      assert.equal(error.kind, 'malformed');
      assert.match(error.message, /^supplier_b: page 2\.hotels\[0\]\.kind_id: expected an index into STAY_TYPES/);
      return true;
    });
  });

  it('rejects a body without the hotels array', async () => {
    body2 = { results: [], next_cursor: null };
    const supplier = createSupplierB({ id: 'supplier_b', baseUrl: server.baseUrl });
    await assert.rejects(collectPages(supplier.contentPages()), /^SupplierError: supplier_b: page 2\.hotels: expected an array, got undefined/);
  });
});
