import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Listing } from '../types.ts';
import { collectPages, startFixtureServer, type FixtureServer } from './fixture-server.ts';
import { createSupplierA } from './supplier-a.ts';
import { SupplierError } from './supplier-error.ts';

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
    images: [{ kind: 'thumbnail', url: 'https://img/t.jpg' }, { kind: 'logo', url: 'https://img/l.png' }],
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
      const properties = malformed && page === 2
        ? [property(9, { geo: { latitude: '-33.86', longitude: 151.2 } })]
        : PAGES[page - 1] ?? [];
      return { body: { page, pageSize: Number(url.searchParams.get('pageSize')), totalPages: 2, totalCount: 3, properties } };
    });
  });
  after(() => server.close());

  it('pages through the feed and decodes every record exactly', async () => {
    malformed = false;
    const supplier = createSupplierA({ id: 'supplier_a', baseUrl: server.baseUrl });
    const requestsBefore = server.requests.length;
    const pages = await collectPages(supplier.contentPages({ pageSize: 2 }));
    assert.deepEqual(server.requests.slice(requestsBefore), [
      '/content/properties?page=1&pageSize=2',
      '/content/properties?page=2&pageSize=2',
    ]);
    assert.deepEqual(pages.map((page) => page.map((listing) => listing.supplierStayId)), [['1048576', '7'], ['9']]);
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
    const supplier = createSupplierA({ id: 'supplier_a', baseUrl: server.baseUrl });
    await assert.rejects(collectPages(supplier.contentPages({ pageSize: 2 })), (error) => {
      assert.ok(error instanceof SupplierError);
      assert.equal(error.kind, 'malformed');
      assert.match(error.message, /^supplier_a: page 2\.properties\[0\]\.geo\.latitude: expected a finite number, got string "-33\.86"/);
      return true;
    });
  });
});
