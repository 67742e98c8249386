// The Hotelbeds driver: the driver contract (refused credentials, 429s, paging to the end,
// failures, what is not available, a caller's abort: supplier-driver-contract.ts) on Hotelbeds'
// wire format, then its readings that need no server: the signature, categories as stars, the
// party in occupancies, and which price of a rate is the traveller's. Against the simulator and the
// published schemas: hotelbeds-contract.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FeedRecord } from './feed-record.ts';
import { decodeHotelbedsHotel, hotelbedsPhotoBase, starsOfCategory } from './hotelbeds-content.ts';
import {
  HOTELBEDS_DEFAULT_CHILD_AGE,
  hotelbedsOccupancies,
  hotelbedsRoomGroups,
  hotelTotalCents,
  rateTotalCents,
} from './hotelbeds-rates.ts';
import { hotelbedsAuthHeaders, hotelbedsSignature } from './hotelbeds-signature.ts';
import type { QuoteRequest } from './supplier.ts';
import { createHotelbedsDriver, HOTELBEDS_BACKOFF_MS } from './hotelbeds.ts';
import { runSupplierDriverContract } from '../test-support/contracts/supplier-driver-contract.ts';
import { testSupplierConfig } from '../test-support/supplier-config.ts';

const record = (value: unknown) => FeedRecord.of('supplier_b', 'test', value);

const party = (adults: number, childrenAges: number[] | null, rooms: number, children = childrenAges?.length ?? 0): QuoteRequest => ({
  supplierStayIds: ['1'],
  checkin: '2027-03-01',
  checkout: '2027-03-04',
  adults,
  children,
  childrenAges,
  rooms,
  currency: 'EUR',
});

/** A hotel of the Hotel Content API, as `fields` asks for it. */
const contentHotel = (code: number) => ({
  code,
  name: { content: `Hotel ${code}` },
  accommodationTypeCode: 'H',
  categoryCode: '3EST',
  coordinates: { longitude: 1.15, latitude: 41.07 },
  address: { content: 'Carrer Del Vendrell, 11' },
  city: { content: 'SALOU' },
  countryCode: 'ES',
});

runSupplierDriverContract('Hotelbeds', {
  supplier: 'supplier_b',
  driverAt: (baseUrl, settings) => createHotelbedsDriver(testSupplierConfig('supplier_b', baseUrl, 'hotelbeds'), settings),
  key: testSupplierConfig('supplier_b', 'http://127.0.0.1:9', 'hotelbeds').key,
  backoffMs: HOTELBEDS_BACKOFF_MS,
  ids: ['11', '12', '13', '14', '15'],
  foreignId: 'abc',
  // The `from`/`to` window the driver asks (1-based, inclusive), with the `total`.
  content: (ids) => (url) => {
    const from = Number(url.searchParams.get('from'));
    const to = Math.min(Number(url.searchParams.get('to')), ids.length);
    return { body: { from, to, total: ids.length, hotels: ids.slice(from - 1, to).map((id) => contentHotel(Number(id))) } };
  },
  quotes: (prices, currency) => () => ({
    body: {
      hotels: {
        hotels: [...prices].map(([code, total]) => ({
          code: Number(code),
          currency,
          rooms: [{ code: 'DBL.ST', rates: [{ net: total.toFixed(2), rooms: 1, adults: 2, children: 0 }] }],
        })),
      },
    },
  }),
  refusal: (message) => ({ error: message }),
});

describe('Hotelbeds: the request signature', () => {
  it('is the hex SHA-256 of key + secret + Unix seconds (a vector computed with sha256sum)', () => {
    // echo -n "yourApiKeyyourSecret1700000000" | sha256sum
    assert.equal(
      hotelbedsSignature('yourApiKey', 'yourSecret', 1_700_000_000),
      'bd00a3ad2265917c57d052cb5fed4dcb74b9d157f6b53bfb60c95938f63b0fcd',
    );
  });

  it('is signed at the whole second of the clock, credentials in headers only', () => {
    const headers = hotelbedsAuthHeaders('yourApiKey', 'yourSecret', 1_700_000_000_999);
    assert.deepEqual(headers, { 'Api-key': 'yourApiKey', 'X-Signature': hotelbedsSignature('yourApiKey', 'yourSecret', 1_700_000_000) });
    assert.ok(!Object.values(headers).some((value) => value.includes('yourSecret')), 'the secret never travels');
  });
});

describe('Hotelbeds: content', () => {
  it('reads stars from star categories only: nEST, nLUX, Hn_5; keys, hostals and pending are no stars', () => {
    const cases: [string | null, number | null][] = [
      ['1EST', 1],
      ['4EST', 4],
      ['5LUX', 5],
      ['H3_5', 3.5],
      ['H1_5', 1.5],
      ['3LL', null],
      ['HS2', null],
      ['BOU', null],
      ['PENDI', null],
      ['6EST', null],
      [null, null],
    ];
    for (const [code, stars] of cases) assert.equal(starsOfCategory(code), stars, String(code));
  });

  it("prepends Hotelbeds' photo server to its hosts' relative image paths, and a simulator's own host otherwise", () => {
    assert.equal(hotelbedsPhotoBase('https://api.test.hotelbeds.com'), 'https://photos.hotelbeds.com/giata/');
    assert.equal(hotelbedsPhotoBase('https://api.hotelbeds.com/'), 'https://photos.hotelbeds.com/giata/');
    assert.equal(hotelbedsPhotoBase('http://127.0.0.1:4100'), 'http://127.0.0.1:4100/giata/');
  });

  it('decodes a hotel: code as the id, the type table, no guest rating, the general photo, the largest room', () => {
    const listing = decodeHotelbedsHotel(
      record({
        code: 1,
        name: { content: 'Ohtels Villa Dorada' },
        accommodationTypeCode: 'H',
        categoryCode: '3EST',
        coordinates: { longitude: 1.152529, latitude: 41.068407 },
        address: { content: 'Carrer Del Vendrell, 11' },
        city: { content: 'SALOU' },
        countryCode: 'ES',
        images: [
          { imageTypeCode: 'HAB', path: '00/000001/000001a_hb_ro_001.jpg', visualOrder: 1 },
          { imageTypeCode: 'GEN', path: '00/000001/000001a_hb_a_002.jpg', visualOrder: 3 },
          { imageTypeCode: 'GEN', path: '00/000001/000001a_hb_a_001.jpg', visualOrder: 2 },
        ],
        rooms: [
          { roomCode: 'SGL.ST', maxPax: 1 },
          { roomCode: 'QUA.ST', maxPax: 4 },
        ],
      }),
      'supplier_b',
      'https://photos.hotelbeds.com/giata/',
    );
    assert.deepEqual(listing, {
      supplier: 'supplier_b',
      supplierStayId: '1',
      name: 'Ohtels Villa Dorada',
      typeLabel: 'Hotel',
      type: 'hotel',
      address: 'Carrer Del Vendrell, 11, SALOU, ES',
      lat: 41.068407,
      lng: 1.152529,
      rating: { value: null, hotelStars: 3, count: 0 },
      capacity: { guests: 4, bedrooms: null, beds: null, bathrooms: 1 },
      policies: { instantBook: true, freeCancellation: false },
      media: { thumbnail: 'https://photos.hotelbeds.com/giata/00/000001/000001a_hb_a_001.jpg', logoSquare: '' },
    });
  });

  it('keeps an unknown accommodation type as a hotel under its own code; a hotel without rooms sleeps two', () => {
    const listing = decodeHotelbedsHotel(
      record({
        code: 7,
        name: { content: 'Camping Sol' },
        accommodationTypeCode: 'CAMPING',
        coordinates: { longitude: 2, latitude: 41 },
        address: { content: 'Platja 1' },
        city: { content: 'Salou' },
        countryCode: 'ES',
      }),
      'supplier_b',
      'x/',
    );
    assert.deepEqual([listing.type, listing.typeLabel, listing.capacity.guests, listing.media.thumbnail], ['hotel', 'CAMPING', 2, '']);
  });
});

describe('Hotelbeds: the party', () => {
  it('sends one occupancy per room: adults spread evenly, children (eldest first) where there is room, default ages', () => {
    assert.deepEqual(hotelbedsOccupancies(party(2, null, 1, 0)), [{ rooms: 1, adults: 2, children: 0 }]);
    assert.deepEqual(hotelbedsOccupancies(party(3, [4, 15], 2)), [
      { rooms: 1, adults: 2, children: 1, paxes: [{ type: 'CH', age: 4 }] },
      { rooms: 1, adults: 1, children: 1, paxes: [{ type: 'CH', age: 15 }] },
    ]);
    assert.deepEqual(hotelbedsOccupancies(party(1, null, 1, 2)), [
      {
        rooms: 1,
        adults: 1,
        children: 2,
        paxes: [
          { type: 'CH', age: HOTELBEDS_DEFAULT_CHILD_AGE },
          { type: 'CH', age: HOTELBEDS_DEFAULT_CHILD_AGE },
        ],
      },
    ]);
    assert.deepEqual(hotelbedsRoomGroups(party(4, null, 2, 0)), [{ adults: 2, ages: [], count: 2 }]);
  });
});

describe('Hotelbeds: prices', () => {
  it('is the sellingRate where there is one (final price), else the net; plus taxes paid at the hotel', () => {
    assert.equal(rateTotalCents(record({ net: '137.62' }), 'EUR'), 13_762);
    assert.equal(rateTotalCents(record({ net: '171.72', sellingRate: '190.80', hotelMandatory: true }), 'EUR'), 19_080);
    const taxed = {
      net: '137.62',
      taxes: {
        allIncluded: false,
        taxes: [
          { included: false, amount: '6.60', currency: 'EUR', clientAmount: '6.60', clientCurrency: 'EUR', type: 'TAX' },
          { included: true, percent: '10.00', amount: '13.76', currency: 'EUR', type: 'TAX' },
        ],
      },
    };
    assert.equal(rateTotalCents(record(taxed), 'EUR'), 14_422);
    const foreign = { net: '100.00', taxes: { taxes: [{ included: false, amount: '5.00', currency: 'USD' }] } };
    assert.equal(rateTotalCents(record(foreign), 'EUR'), null, 'a tax that cannot be said in the rate currency: no price');
  });

  it('adds the cheapest rate of each kind of room; a kind without a rate leaves the hotel out', () => {
    const groups = hotelbedsRoomGroups(party(3, null, 2, 0)); // a room of 2 adults, a room of 1
    const hotel = (rates: unknown[]) => record({ code: 1, currency: 'EUR', rooms: [{ code: 'DBL.ST', rates }] });
    const rates = [
      { net: '100.00', rooms: 1, adults: 2, children: 0 },
      { net: '90.00', rooms: 1, adults: 2, children: 0 },
      { net: '60.00', rooms: 1, adults: 1, children: 0 },
      { net: '10.00', rooms: 1, adults: 3, children: 0 },
    ];
    assert.equal(hotelTotalCents(hotel(rates), groups, 'EUR'), 15_000);
    assert.equal(hotelTotalCents(hotel(rates.slice(0, 2)), groups, 'EUR'), null);
    // Two alike rooms: a rate for both counts once, a rate for one counts twice.
    const twin = hotelbedsRoomGroups(party(4, null, 2, 0));
    assert.equal(hotelTotalCents(hotel([{ net: '150.00', rooms: 2, adults: 2, children: 0 }]), twin, 'EUR'), 15_000);
    assert.equal(hotelTotalCents(hotel([{ net: '70.00', rooms: 1, adults: 2, children: 0 }]), twin, 'EUR'), 14_000);
  });
});
