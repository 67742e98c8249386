import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Listing } from '../types.ts';
import { collectPages, startFixtureServer, type FixtureServer } from './fixture-server.ts';
import { createSupplierD } from './supplier-d.ts';
import { SupplierError } from './supplier-error.ts';

function listing(id: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    listing_id: id, headline: 'Villa Azzurra', property_type: 'villa', property_type_label: 'Entire villa',
    coordinates: { lat: 43.7, lng: 7.26 }, address: { full: '3 Chemin des Oliviers, Nice, FR' },
    star_class: null, host_rating: 4.35, ratings_count: 12,
    sleeps: 6, bedrooms: 3, beds: null, bathrooms: 2.5,
    instant_book: true, cancellation_policy: 'flexible',
    photos: [{ url: 'https://img/1.jpg', is_cover: false }, { url: 'https://img/cover.jpg', is_cover: true }],
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
      const data = malformed && page === 2 ? [listing('13', { listing_id: 13 })] : PAGES[page - 1] ?? [];
      return { body: { data, meta: { current_page: page, last_page: 2, per_page: perPage, total: 3 } } };
    });
  });
  after(() => server.close());

  it('pages through the feed and decodes every record exactly', async () => {
    malformed = false;
    const supplier = createSupplierD({ id: 'supplier_d', baseUrl: server.baseUrl });
    const start = server.requests.length;
    const pages = await collectPages(supplier.contentPages({ pageSize: 2 }));
    assert.deepEqual(server.requests.slice(start), ['/api/listings?page=1&per_page=2', '/api/listings?page=2&per_page=2']);
    assert.deepEqual(pages.map((page) => page.map((l) => l.supplierStayId)), [['1048576', '12'], ['13']]);
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
    const supplier = createSupplierD({ id: 'supplier_d', baseUrl: server.baseUrl });
    await assert.rejects(collectPages(supplier.contentPages({ pageSize: 2 })), (error) => {
      assert.ok(error instanceof SupplierError);
      assert.equal(error.kind, 'malformed');
      assert.match(error.message, /^supplier_d: page 2\.data\[0\]\.listing_id: expected a string, got number 13/);
      return true;
    });
  });

  it('reports an HTTP error from the feed', async () => {
    const supplier = createSupplierD({ id: 'supplier_d', baseUrl: `${server.baseUrl}/nowhere` });
    await assert.rejects(collectPages(supplier.contentPages()), (error) => {
      assert.ok(error instanceof SupplierError);
      assert.equal(error.kind, 'http');
      assert.equal(error.status, 404);
      return true;
    });
  });
});
