import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Listing } from '../types.ts';
import { createListingParts, MAX_SHARED_PARTS } from './share-listing-parts.ts';

const listing = (id: string, rating: Listing['rating'], bedrooms: number | null = 1): Listing => ({
  supplier: 'supplier_a',
  supplierStayId: id,
  name: `Stay ${id}`,
  typeLabel: ['Hotel'].join(''), // a string of its own, as a parser makes it
  type: 'hotel',
  address: '1 Main Street, Paris, FR',
  lat: 48.85,
  lng: 2.35,
  rating,
  capacity: { guests: 2, bedrooms, beds: 1, bathrooms: 1 },
  policies: { instantBook: true, freeCancellation: false },
  media: { thumbnail: `https://example.com/${id}.jpg`, logoSquare: '' },
});

describe('createListingParts', () => {
  it('makes equal parts one frozen object and leaves unequal ones apart', () => {
    const share = createListingParts();
    const a = share(listing('1', { value: 8.2, hotelStars: 4, count: 10 }));
    const b = share(listing('2', { value: 8.2, hotelStars: 4, count: 10 }));
    const c = share(listing('3', { value: 8.2, hotelStars: 4, count: 11 }, null));
    assert.equal(a.rating, b.rating);
    assert.equal(a.capacity, b.capacity);
    assert.equal(a.policies, c.policies);
    assert.notEqual(a.rating, c.rating);
    assert.notEqual(a.capacity, c.capacity);
    assert.equal(a.typeLabel, 'Hotel');
    assert.ok(Object.isFrozen(a.rating) && Object.isFrozen(a.capacity) && Object.isFrozen(a.policies), 'shared parts are frozen');
    assert.throws(() => {
      (a.rating as { count: number }).count = 1;
    }, TypeError);
  });

  it('shares a part only with one written in the same key order, so documents stay byte for byte', () => {
    const share = createListingParts();
    const first = listing('1', { value: 7, hotelStars: null, count: 3 });
    const reordered = listing('2', { count: 3, value: 7, hotelStars: null } as Listing['rating']);
    const before = JSON.stringify(reordered);
    share(first);
    const shared = share(reordered);
    assert.notEqual(shared.rating, first.rating);
    assert.equal(JSON.stringify(shared), before);
  });

  it('keeps every field of the listing as it was', () => {
    const original = listing('1', { value: 9.1, hotelStars: 5, count: 200 });
    const copy = structuredClone(original);
    assert.deepEqual(createListingParts()(original), copy);
  });
});

describe('createListingParts, past its table', () => {
  it('stops keeping new parts at MAX_SHARED_PARTS and still shares those it kept', () => {
    const share = createListingParts();
    const first = share(listing('first', { value: 5, hotelStars: null, count: 0 }));
    // Each rating distinct: the table fills with them (capacity and policies take two entries).
    for (let i = 1; i < MAX_SHARED_PARTS; i++) share(listing(`${i}`, { value: 5, hotelStars: null, count: i }));
    const a = share(listing('a', { value: 6, hotelStars: null, count: 1 }));
    const b = share(listing('b', { value: 6, hotelStars: null, count: 1 }));
    assert.notEqual(a.rating, b.rating, 'a part met after the table is full is not kept');
    assert.ok(!Object.isFrozen(b.rating), 'nor frozen');
    assert.equal(share(listing('c', { value: 5, hotelStars: null, count: 0 })).rating, first.rating, 'one kept before is still shared');
  });
});
