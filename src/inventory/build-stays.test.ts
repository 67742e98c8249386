import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { latLngToCell } from 'h3-js';
import { defaults } from '../defaults.ts';
import type { Listing, Rating, SupplierId } from '../types.ts';
import { averageRating, buildStays, preferredListing, serviceId } from './build-stays.ts';
import { rankScore, rankStays } from './rank-stays.ts';

function listing(supplier: SupplierId, id: string, overrides: Partial<Listing> = {}): Listing {
  return {
    supplier,
    supplierStayId: id,
    name: `Hotel ${id}`,
    typeLabel: 'Hotel',
    type: 'hotel',
    address: '1 Main Street, Springfield, US',
    lat: 40,
    lng: -75,
    rating: { value: 8, hotelStars: 3, count: 10 },
    capacity: { guests: 2, bedrooms: 1, beds: 1, bathrooms: 1 },
    policies: { instantBook: true, freeCancellation: false },
    media: { thumbnail: '', logoSquare: '' },
    ...overrides,
  };
}

const rating = (value: number | null, count: number, hotelStars: number | null = null): Rating => ({ value, count, hotelStars });

describe('serviceId', () => {
  it('depends only on the smallest supplier:id of the group, and looks like no supplier id', () => {
    const a = listing('supplier_a', '1048576');
    const c = listing('supplier_c', '1048576');
    const id = serviceId([c, a]);
    assert.equal(serviceId([a]), id);
    assert.notEqual(serviceId([c]), id);
    assert.match(id, /^st[0-9a-v]{12}$/);
  });
});

describe('averageRating', () => {
  it('weights values by review count, sums counts, one decimal', () => {
    const r = averageRating([
      listing('supplier_a', '1', { rating: rating(9, 300, 4) }),
      listing('supplier_b', '2', { rating: rating(7, 100, 4.5) }),
      listing('supplier_c', '3', { rating: rating(8, 0, 4) }),
    ]);
    assert.deepEqual(r, { value: 8.5, count: 400, hotelStars: 4 });
  });

  it('falls back to the plain mean when nobody has reviews, and to null stars', () => {
    assert.deepEqual(
      averageRating([listing('supplier_a', '1', { rating: rating(9, 0) }), listing('supplier_d', '2', { rating: rating(8, 0) })]),
      { value: 8.5, count: 0, hotelStars: null },
    );
  });

  it('leaves out a listing without a guest rating: its value is no 0 and its reviews count for nothing (docs/decisions.md 135)', () => {
    const r = averageRating([
      listing('supplier_a', '1', { rating: rating(9, 300, 4) }),
      listing('supplier_b', '2', { rating: rating(null, 40, 4) }),
      listing('supplier_c', '3', { rating: rating(7, 100, 4) }),
    ]);
    assert.deepEqual(r, { value: 8.5, count: 400, hotelStars: 4 });
    assert.deepEqual(
      averageRating([listing('supplier_a', '1', { rating: rating(9, 0) }), listing('supplier_b', '2', { rating: rating(null, 0) })]),
      { value: 9, count: 0, hotelStars: null },
      'the plain mean, too, is over the rated listings only',
    );
  });

  it('is null with count 0 when no listing has a guest rating, and still takes the star class', () => {
    assert.deepEqual(
      averageRating([
        listing('supplier_b', '2', { rating: rating(null, 0, 3) }),
        listing('supplier_d', '4', { rating: rating(null, 7, 3.5) }),
      ]),
      { value: null, count: 0, hotelStars: 3.5 },
    );
  });

  it('takes the higher star class when suppliers split evenly', () => {
    const r = averageRating([
      listing('supplier_a', '1', { rating: rating(8, 1, 3.5) }),
      listing('supplier_b', '2', { rating: rating(8, 1, 4) }),
    ]);
    assert.equal(r.hotelStars, 4);
  });
});

describe('preferredListing', () => {
  it('prefers a name in mixed case, then the most reviewed listing, then supplier order', () => {
    const upper = listing('supplier_a', '1', { name: 'HOTEL AURORA', rating: rating(8, 900) });
    const mixed = listing('supplier_b', '2', { name: 'Hotel Aurora', rating: rating(8, 10) });
    const mixedMore = listing('supplier_c', '3', { name: 'Aurora Hotel', rating: rating(8, 50) });
    assert.equal(preferredListing([upper, mixed]), mixed);
    assert.equal(preferredListing([upper, mixed, mixedMore]), mixedMore);
    const tie = listing('supplier_d', '4', { name: 'Aurora', rating: rating(8, 50) });
    assert.equal(preferredListing([mixedMore, tie]), mixedMore);
  });
});

describe('rankStays', () => {
  it('ranks by Bayesian average: many good reviews beat a few perfect ones', () => {
    assert.ok(
      rankScore(rating(9.1, 3000), defaults) > rankScore(rating(10, 2), defaults),
      'rankScore(rating(9.1, 3000), defaults) > rankScore(rating(10, 2), defaults)',
    );
    assert.equal(rankScore(rating(3, 0), defaults), 7.5);
    const ranks = rankStays(
      [
        { id: 'stb', averageRating: rating(10, 2) },
        { id: 'sta', averageRating: rating(9.1, 3000) },
        { id: 'stc', averageRating: rating(8, 0) },
        { id: 'std', averageRating: rating(8, 0) },
      ],
      defaults,
    );
    assert.deepEqual([...ranks], [1, 0, 2, 3]);
  });
});

describe('rankStays without a guest rating', () => {
  it('scores a stay with none as no evidence: the prior mean, below good ratings and above poor ones (docs/decisions.md 136)', () => {
    assert.equal(rankScore(rating(null, 0), defaults), 7.5);
    assert.equal(rankScore(rating(null, 500), defaults), 7.5, 'reviews without a value are no evidence either');
    const ranks = rankStays(
      [
        { id: 'sta', averageRating: rating(4, 800) },
        { id: 'stb', averageRating: rating(null, 0) },
        { id: 'stc', averageRating: rating(9, 800) },
      ],
      defaults,
    );
    assert.deepEqual([...ranks], [2, 1, 0]);
  });
});

describe('buildStays', () => {
  it('builds dense idx in H3 order, a permutation of ranks, and listings in supplier order', () => {
    const groups = [
      [listing('supplier_c', '10', { lat: 48.85, lng: 2.35 }), listing('supplier_a', '10', { lat: 48.8501, lng: 2.3501 })],
      [listing('supplier_d', '20', { lat: -33.86, lng: 151.2, type: 'villa', typeLabel: 'Entire villa' })],
      [listing('supplier_b', 'HB30', { lat: 40.7, lng: -74, rating: rating(9.5, 5000, 5) })],
    ];
    const stays = buildStays(groups, defaults);
    assert.deepEqual(
      stays.map((s) => s.idx),
      [0, 1, 2],
    );
    assert.deepEqual([...stays.map((s) => s.rank)].sort(), [0, 1, 2]);
    assert.deepEqual(
      stays.map((s) => s.h3),
      [...stays.map((s) => s.h3)].sort(),
    );
    const paris = stays.find((s) => s.listings.length === 2)!;
    assert.deepEqual(
      paris.listings.map((l) => l.supplier),
      ['supplier_a', 'supplier_c'],
    );
    assert.equal(paris.listings, groups[0], "the group's array is the stay's listings, not a copy");
    assert.equal(paris.h3, latLngToCell(paris.lat, paris.lng, 15));
    assert.equal(paris.id, serviceId(paris.listings));
    const villa = stays.find((s) => s.type === 'villa')!;
    assert.equal(villa.typeLabel, 'Entire villa');
    assert.equal(stays.find((s) => s.averageRating.count === 5000)!.rank, 0);
  });

  it('makes equal average ratings one frozen object, each stay showing its own', () => {
    const stays = buildStays(
      [
        [listing('supplier_a', '1', { lat: 41 }), listing('supplier_b', 'HB1', { lat: 41 })],
        [listing('supplier_a', '2', { lat: 42 })],
        [listing('supplier_a', '3', { lat: 43, rating: rating(7.5, 3, 2) })],
      ],
      defaults,
    );
    const byId = (id: string) => stays.find((s) => s.listings[0].supplierStayId === id)!;
    assert.deepEqual(byId('1').averageRating, { value: 8, hotelStars: 3, count: 20 });
    assert.deepEqual(byId('2').averageRating, { value: 8, hotelStars: 3, count: 10 });
    assert.deepEqual(byId('3').averageRating, { value: 7.5, hotelStars: 2, count: 3 });
    const again = buildStays([[listing('supplier_a', '4', { lat: 44 })], [listing('supplier_a', '5', { lat: 45 })]], defaults);
    assert.equal(again[0].averageRating, again[1].averageRating, 'equal ratings are one object');
    assert.ok(Object.isFrozen(again[0].averageRating), 'a shared rating is frozen');
    assert.equal(JSON.stringify(again[0].averageRating), '{"value":8,"hotelStars":3,"count":10}');
  });

  it('refuses a listing in two groups (two stays with one id)', () => {
    const shared = listing('supplier_a', '1');
    assert.throws(() => buildStays([[shared], [shared, listing('supplier_b', 'HB9', { lat: 41 })]], defaults), /same service id/);
  });
});

describe('buildStays', () => {
  it('keeps every listing whole, its own page (Listing.url, where /go sends a Booking.com click) included', () => {
    const page = 'https://www.booking.com/hotel/us/h1.html?aid=!AFFILIATE_ID!&checkin=!START_DATE!';
    const a = listing('supplier_a', '1001', { url: page });
    const c = listing('supplier_c', '77');
    const [stay] = buildStays([[c, a]], defaults);
    assert.deepEqual(stay.listings, [a, c]);
    assert.equal(stay.listings[0].url, page);
  });
});
