import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { STAY_TYPES, SUPPLIER_IDS } from '../types.ts';
import { decodeIndexChunk, encodeIndexChunk, indexRowOf } from './index-chunk.ts';
import type { IndexRow, RankedStay } from './store.ts';

function stay(idx: number): RankedStay {
  const type = STAY_TYPES[idx % STAY_TYPES.length];
  const listings = SUPPLIER_IDS.filter((_s, i) => ((idx + 1) & (1 << i)) !== 0).map((supplier, i) => ({
    supplier,
    supplierStayId: String(idx),
    name: 'x',
    typeLabel: 'x',
    type,
    address: 'x',
    lat: 0,
    lng: 0,
    // Each listing its own rating and stars (none for supplier_c), as a filter on one supplier reads them.
    rating: { value: 1 + ((idx * 7 + i) % 91) / 10, hotelStars: supplier === 'supplier_c' ? null : ((idx + i) % 11) / 2, count: 0 },
    capacity: { guests: 1, bedrooms: null, beds: null, bathrooms: 1 },
    policies: { instantBook: false, freeCancellation: false },
    media: { thumbnail: '', logoSquare: '' },
  }));
  return {
    idx,
    rank: 1000 - idx,
    id: `st${idx}`,
    name: `Hôtel N°${idx}`,
    type,
    typeLabel: 'x',
    address: 'x',
    lat: -33.123456789 + idx,
    lng: 151.987654321 - idx,
    h3: `8f${idx.toString(16).padStart(13, '0')}`,
    capacity: { guests: 1, bedrooms: null, beds: null, bathrooms: 1 },
    averageRating: { value: 7.3 + idx / 10, hotelStars: idx % 3 === 0 ? null : (idx % 11) / 2, count: idx * 1_000_003 },
    listings,
  };
}

describe('index chunks', () => {
  it('round-trip every column exactly', () => {
    const stays = Array.from({ length: 40 }, (_v, i) => stay(100 + i));
    const rows: IndexRow[] = [];
    // Through a Buffer at an odd offset, as a database driver may hand it back.
    const chunk = encodeIndexChunk(stays);
    const padded = Buffer.alloc(chunk.numbers.byteLength + 3);
    padded.set(chunk.numbers, 3);
    decodeIndexChunk({ ...chunk, numbers: padded.subarray(3) }, (row) => rows.push(row));
    assert.equal(rows.length, 40);
    rows.forEach((row, i) => {
      const s = stays[i];
      assert.deepEqual(row, {
        idx: s.idx,
        rank: s.rank,
        lat: s.lat,
        lng: s.lng,
        h3: s.h3,
        type: s.type,
        suppliers: s.listings.map((l) => l.supplier),
        stars: s.averageRating.hotelStars,
        rating: s.averageRating.value,
        reviewCount: s.averageRating.count,
        searchName: `hotel n ${s.idx}`,
        listingRatings: s.listings.map((l) => ({ supplier: l.supplier, value: l.rating.value, hotelStars: l.rating.hotelStars })),
      });
    });
  });

  it('round-trip a missing guest rating as null, and a rating of 0 as 0 (docs/decisions.md 137)', () => {
    const rated = stay(1);
    const noneRated: RankedStay = {
      ...stay(3),
      averageRating: { value: null, hotelStars: 4, count: 0 },
      listings: stay(3).listings.map((l) => ({ ...l, rating: { ...l.rating, value: null } })),
    };
    const mixed: RankedStay = {
      ...stay(2),
      averageRating: { value: 0, hotelStars: null, count: 3 },
      listings: stay(2).listings.map((l, i) => ({ ...l, rating: { ...l.rating, value: i === 0 ? 0 : null } })),
    };
    assert.equal(mixed.listings.length, 2);
    const rows: IndexRow[] = [];
    decodeIndexChunk(encodeIndexChunk([rated, mixed, noneRated]), (row) => rows.push(row));
    assert.equal(rows[0].rating, rated.averageRating.value);
    assert.equal(rows[2].rating, null);
    assert.deepEqual(
      rows[2].listingRatings.map((l) => l.value),
      [null],
    );
    assert.equal(rows[1].rating, 0);
    assert.deepEqual(
      rows[1].listingRatings.map((l) => [l.supplier, l.value]),
      [
        ['supplier_a', 0],
        ['supplier_b', null],
      ],
    );
  });

  it("gives a stay's row as a chunk reads it back: the index a publisher builds from its stays is the one read from the store", () => {
    const stays = [
      ...Array.from({ length: 20 }, (_v, i) => stay(i)),
      {
        ...stay(20),
        averageRating: { value: null, hotelStars: null, count: 0 },
        listings: stay(20).listings.map((l) => ({ ...l, rating: { ...l.rating, value: null, hotelStars: null } })),
      },
    ];
    const rows: IndexRow[] = [];
    decodeIndexChunk(encodeIndexChunk(stays), (row) => rows.push(row));
    assert.deepEqual(stays.map(indexRowOf), rows);
  });

  it('handles an empty chunk and refuses idx out of sequence', () => {
    const rows: IndexRow[] = [];
    decodeIndexChunk(encodeIndexChunk([]), (row) => rows.push(row));
    assert.deepEqual(rows, []);
    assert.throws(() => encodeIndexChunk([stay(1), stay(3)]), /out of sequence/);
  });
});
