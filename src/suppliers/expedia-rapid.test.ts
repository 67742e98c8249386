// The Expedia Rapid driver: the driver contract (refused credentials, 429s, paging to the end,
// failures, what is not available, a caller's abort: supplier-driver-contract.ts) on Rapid's wire
// format, then its own readings and behaviour against a test server: the signature, a property as
// a listing (obfuscation, stars, guest ratings), the party as occupancies, which price of a rate
// is the traveller's, 410 restarts and `200 []`. Against the simulator and the published schema:
// expedia-rapid-contract.test.ts.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { testSupplierConfig } from '../test-support/supplier-config.ts';
import type { Listing } from '../types.ts';
import { expectSupplierError } from '../test-support/expect-supplier-error.ts';
import { runSupplierDriverContract } from '../test-support/contracts/supplier-driver-contract.ts';
import {
  createExpediaRapidDriver,
  EXPEDIA_RAPID_BACKOFF_MS,
  EXPEDIA_RAPID_MAX_IDS_PER_QUOTE,
  EXPEDIA_RAPID_MAX_RESTARTS,
} from './expedia-rapid.ts';
import { decodeExpediaRapidProperty, nextLink, rapidGuestRating, rapidStars } from './expedia-rapid-content.ts';
import { expediaRapidOccupancies, expediaRapidPropertyTotal } from './expedia-rapid-rates.ts';
import { expediaRapidAuthHeaders, expediaRapidSignature } from './expedia-rapid-signature.ts';
import { FeedRecord } from './feed-record.ts';
import { startFixtureServer, type FixtureResponse, type FixtureServer } from '../test-support/fixture-server.ts';
import type { QuoteRequest } from './supplier.ts';
import { defaults } from '../defaults.ts';

const record = (value: unknown) => FeedRecord.of('supplier_d', 'test', value);

const party = (adults: number, childrenAges: number[] | null, rooms: number, children = childrenAges?.length ?? 0): QuoteRequest => ({
  supplierStayIds: ['1'],
  checkin: '2027-03-01',
  checkout: '2027-03-04',
  adults,
  children,
  childrenAges,
  rooms,
  currency: 'USD',
});

/** A PropertyContent shaped as the spec's example, for a Vrbo rental. */
const property = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  property_id: '12345',
  name: 'Lakeside Cabin',
  address: { line_1: '1 Shore Rd', city: 'Branson', state_province_code: 'MO', country_code: 'US', obfuscation_required: false },
  ratings: { property: { rating: '3.5', type: 'Star' }, guest: { count: 48, overall: '4.3' } },
  location: {
    coordinates: { latitude: 37.158451, longitude: -93.268382 },
    obfuscated_coordinates: { latitude: 37.159532, longitude: -93.271681 },
    obfuscation_required: false,
  },
  category: { id: '12', name: 'Cabin' },
  images: [
    { hero_image: false, category: 3, links: { '70px': { method: 'GET', href: 'https://i.travelapi.com/a_t.jpg' } } },
    {
      hero_image: true,
      category: 3,
      links: {
        '70px': { method: 'GET', href: 'https://i.travelapi.com/b_t.jpg' },
        '350px': { method: 'GET', href: 'https://i.travelapi.com/b_b.jpg' },
      },
    },
  ],
  rooms: { '224829': { id: '224829', name: 'Entire home', occupancy: { max_allowed: { total: 6, children: 2, adults: 6 } } } },
  vacation_rental_details: {
    unit_configurations: {
      '1': [{ type: 'KING_BED', description: 'King bed(s) - ', quantity: 1 }],
      '2': [
        { type: 'SLEEP_SOFA_FUTON', description: 'Sleep sofa/futon(s) - ', quantity: 1 },
        { type: 'BUNK_BED', description: 'Bunk bed(s) - ', quantity: 2 },
      ],
      Other1: [{ type: 'CHILD_BED', description: 'Child bed(s) -', quantity: 1 }],
    },
  },
  ...overrides,
});

const charge = (value: string, currency = 'USD', billable?: [string, string]) => ({
  ...(billable ? { billable_currency: { value: billable[0], currency: billable[1] } } : {}),
  request_currency: { value, currency },
});
const rate = (pricing: Record<string, unknown>, status = 'available') => ({ id: 'r', status, occupancy_pricing: pricing });

runSupplierDriverContract('Expedia Rapid', {
  supplier: 'supplier_d',
  driverAt: (baseUrl, settings) => createExpediaRapidDriver(testSupplierConfig('supplier_d', `${baseUrl}/v3`, 'expedia-rapid'), settings),
  key: testSupplierConfig('supplier_d', 'http://127.0.0.1:9', 'expedia-rapid').key,
  backoffMs: EXPEDIA_RAPID_BACKOFF_MS,
  ids: ['11', '12', '13', '14', '15'],
  foreignId: 'V7',
  // Pages of `perPage` properties (Rapid sizes its pages), each linking the next by its offset.
  content: (ids, perPage) => (url) => {
    const from = Number(url.searchParams.get('token') ?? 0);
    const page = Object.fromEntries(ids.slice(from, from + perPage).map((id) => [id, property({ property_id: id })]));
    const next = from + perPage < ids.length ? `<http://${url.host}/v3/properties/content?token=${from + perPage}>; rel="next"` : null;
    const headers: Record<string, string> = next === null ? {} : { link: next };
    return { body: page, headers };
  },
  quotes: (prices, currency) => () => ({
    body: [...prices].map(([id, total]) => ({
      property_id: id,
      status: 'available',
      rooms: [{ id: 'a', rates: [rate({ '2': { totals: { inclusive: charge(total.toFixed(2), currency) } } })] }],
    })),
  }),
  refusal: (message) => ({ type: 'request_unauthenticated', message }),
});

describe('Expedia Rapid: the request signature', () => {
  it('is the hex SHA-512 of key + secret + Unix seconds (a vector computed with sha512sum)', () => {
    // echo -n "yourApiKeyyourSecret1700000000" | sha512sum
    assert.equal(
      expediaRapidSignature('yourApiKey', 'yourSecret', 1_700_000_000),
      'e3a588ee3fe88fe217f7192e600e75aa1f4f2fb8482cd7bcfb33476d3ba3b30688e1da9ef07019bc6e5835d6247476461e456021d734d9c210913f8859ad918a',
    );
  });

  it('is the EAN Authorization header at the whole second of the clock; the secret never travels', () => {
    const headers = expediaRapidAuthHeaders('yourApiKey', 'yourSecret', 1_700_000_000_999);
    assert.deepEqual(headers, {
      Authorization: `EAN APIKey=yourApiKey,Signature=${expediaRapidSignature('yourApiKey', 'yourSecret', 1_700_000_000)},timestamp=1700000000`,
    });
    assert.doesNotMatch(headers.Authorization, /yourSecret/);
  });
});

describe('Expedia Rapid: content', () => {
  it('decodes a Vrbo property: the category table, stars, guest rating x2, the hero image, unit configurations', () => {
    assert.deepEqual(decodeExpediaRapidProperty(property(), '12345', 'supplier_d'), {
      supplier: 'supplier_d',
      supplierStayId: '12345',
      name: 'Lakeside Cabin',
      typeLabel: 'Cabin',
      type: 'cabin',
      address: '1 Shore Rd, Branson, US',
      lat: 37.158451,
      lng: -93.268382,
      rating: { value: 8.6, hotelStars: 3.5, count: 48 },
      capacity: { guests: 6, bedrooms: 2, beds: 5, bathrooms: 1 },
      policies: { instantBook: true, freeCancellation: false },
      media: { thumbnail: 'https://i.travelapi.com/b_b.jpg', logoSquare: '' },
    } satisfies Listing);
  });

  it('uses the obfuscated coordinates and hides the street where the spec requires it', () => {
    const listing = decodeExpediaRapidProperty(
      property({
        location: {
          coordinates: { latitude: 37.158451, longitude: -93.268382 },
          obfuscated_coordinates: { latitude: 37.159532, longitude: -93.271681 },
          obfuscation_required: true,
        },
        address: { line_1: '1 Shore Rd', city: 'Branson', state_province_name: 'Missouri', country_code: 'US', obfuscation_required: true },
      }),
      '12345',
      'supplier_d',
    );
    assert.deepEqual([listing.lat, listing.lng, listing.address], [37.159532, -93.271681, 'Branson, Missouri, US']);
  });

  it('reads no stars from "0.0" or a blank, no guest rating without a guest block: null, never 0', () => {
    assert.equal(rapidStars(record({ property: { rating: '0.0', type: 'Star' } })), null);
    assert.equal(rapidStars(record({ property: { rating: '', type: 'Star' } })), null);
    assert.equal(rapidStars(record({ property: { rating: '4.5', type: 'Alternate' } })), 4.5);
    assert.equal(rapidStars(null), null);
    assert.deepEqual(rapidGuestRating(record({ property: { rating: '0.0' } })), { value: null, count: 0 });
    assert.deepEqual(rapidGuestRating(record({ guest: { count: 3, overall: '1.0' } })), { value: 2, count: 3 });
    assert.deepEqual(rapidGuestRating(record({ guest: { count: 3, overall: '5.0' } })), { value: 10, count: 3 });
    assert.deepEqual(rapidGuestRating(record({ guest: { count: 9, overall: '4.35' } })), { value: 8.7, count: 9 });
    assert.throws(
      () => rapidGuestRating(record({ guest: { count: 3, overall: '8.6' } })),
      /guest.overall: expected a rating from "1.0" to "5.0"/,
    );
    assert.throws(() => rapidStars(record({ property: { rating: '6.0' } })), /property.rating/);
  });

  it('keeps an unknown category as a vacation home under its own name; no rooms sleeps two; no configurations: no counts', () => {
    const listing = decodeExpediaRapidProperty(
      property({ category: { id: '99', name: 'Houseboat' }, rooms: undefined, vacation_rental_details: undefined, images: undefined }),
      '12345',
      'supplier_d',
    );
    assert.deepEqual(
      [listing.type, listing.typeLabel, listing.capacity, listing.media.thumbnail],
      ['private_vacation_home', 'Houseboat', { guests: 2, bedrooms: null, beds: null, bathrooms: 1 }, ''],
    );
  });

  it('refuses a property filed under another id', () => {
    assert.throws(() => decodeExpediaRapidProperty(property(), '999', 'supplier_d'), /properties.999.property_id/);
  });

  it("finds the Link header's next URL, unchanged, and none on the last page", () => {
    const next = 'https://test.ean.com/v3/properties/content?token=MY5S3j36cOcL';
    assert.equal(nextLink(`<${next}>; rel="next"; expires=2023-06-29T20:15:05.324083439Z`), next);
    assert.equal(nextLink(`<https://x/prev>; rel="prev", <${next}>; rel=next`), next);
    assert.equal(nextLink(null), null);
    assert.equal(nextLink('<https://x/prev>; rel="prev"'), null);
  });
});

describe('Expedia Rapid: the party and prices', () => {
  it('sends one occupancy per room, adults[-ages], a child of unknown age as 12', () => {
    assert.deepEqual(expediaRapidOccupancies(party(2, null, 1, 0)), ['2']);
    assert.deepEqual(expediaRapidOccupancies(party(2, [9, 4], 1)), ['2-4,9']);
    assert.deepEqual(expediaRapidOccupancies(party(3, [4, 15], 2)), ['2-4', '1-15']);
    assert.deepEqual(expediaRapidOccupancies(party(4, null, 2, 0)), ['2', '2']);
    assert.deepEqual(expediaRapidOccupancies(party(1, null, 1, 1)), ['1-12']);
    assert.deepEqual(expediaRapidOccupancies(party(3, null, 2, 2)), ['2-12', '1-12']);
  });

  it('is property_inclusive where present, else inclusive; in the request currency; summed over the asked rooms; the cheapest rate', () => {
    const answer = record({
      property_id: '1',
      status: 'available',
      rooms: [
        {
          id: 'a',
          rates: [
            rate({
              '2': { totals: { inclusive: charge('500.00'), property_inclusive: charge('530.00', 'USD', ['700.00', 'CAD']) } },
              '1': { totals: { inclusive: charge('300.00') } },
            }),
            rate({ '2': { totals: { inclusive: charge('100.00') } }, '1': { totals: { inclusive: charge('100.00') } } }, 'sold_out'),
          ],
        },
        {
          id: 'b',
          rates: [
            rate({ '2': { totals: { inclusive: charge('520.00') } }, '1': { totals: { inclusive: charge('320.00') } } }),
            rate({ '2': { totals: { inclusive: charge('10.00') } } }),
          ],
        },
      ],
    });
    // Rooms 2 + 2 + 1: 530 * 2 + 300 = 1360 (room a) against 520 * 2 + 320 = 1360... and 1,360 both:
    // the first wins a tie; a rate without every occupancy, or sold out, is no price.
    assert.deepEqual(expediaRapidPropertyTotal(answer, ['2', '2', '1']), { cents: 136_000, currency: 'USD' });
    assert.deepEqual(expediaRapidPropertyTotal(answer, ['1']), { cents: 30_000, currency: 'USD' });
    assert.equal(expediaRapidPropertyTotal(answer, ['3']), null);
    const billableOnly = record({
      property_id: '1',
      rooms: [{ id: 'a', rates: [rate({ '2': { totals: { inclusive: { billable_currency: { value: '702.00', currency: 'CAD' } } } } })] }],
    });
    assert.deepEqual(expediaRapidPropertyTotal(billableOnly, ['2']), { cents: 70_200, currency: 'CAD' });
  });
});

describe('Expedia Rapid: against a test server', () => {
  const servers: FixtureServer[] = [];
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });
  /** `respond` gets the request's URL with the server's own host (what a Link names). */
  const serve = async (respond: (url: URL) => FixtureResponse) => {
    const server = await startFixtureServer((url, request) =>
      respond(new URL(url.pathname + url.search, `http://${String(request.headers.host)}`)),
    );
    servers.push(server);
    return {
      server,
      driver: createExpediaRapidDriver(testSupplierConfig('supplier_d', `${server.baseUrl}/v3`, 'expedia-rapid'), defaults),
    };
  };
  const pages = async (driver: ReturnType<typeof createExpediaRapidDriver>) => {
    const out: Listing[][] = [];
    for await (const page of driver.contentPages()) out.push(page);
    return out;
  };
  const map = (...ids: string[]) => Object.fromEntries(ids.map((id) => [id, property({ property_id: id })]));

  it('follows the Link to the end; a 410 restarts from the first page and yields nothing twice', async () => {
    let firstCalls = 0;
    const { server, driver } = await serve((url) => {
      const token = url.searchParams.get('token');
      if (token === null) {
        firstCalls++;
        return { body: map('1', '2'), headers: { link: `<http://${url.host}/v3/properties/content?token=p2-${firstCalls}>; rel="next"` } };
      }
      if (token === 'p2-1')
        return { body: map('3'), headers: { link: `<http://${url.host}/v3/properties/content?token=p3-1>; rel="next"` } };
      if (token === 'p3-1') return { status: 410, body: { type: 'link.expired', message: 'The link you followed has expired.' } };
      if (token === 'p2-2')
        return { body: map('3', '4'), headers: { link: `<http://${url.host}/v3/properties/content?token=p3-2>; rel="next"` } };
      return { body: map('5') };
    });
    const got = await pages(driver);
    assert.deepEqual(
      got.map((page) => page.map((l) => l.supplierStayId)),
      [['1', '2'], ['3'], ['4'], ['5']],
    );
    const first = new URL(server.requests[0], 'http://x');
    assert.equal(first.pathname, '/v3/properties/content');
    assert.deepEqual([first.searchParams.get('supply_source'), first.searchParams.get('language')], ['vrbo', 'en-US']);
    assert.deepEqual(first.searchParams.getAll('include').includes('ratings'), true);
    assert.equal(server.requests.filter((r) => r.includes('token=')).length, 4, 'the links followed as given');
    assert.match(String(server.received[0].headers.authorization), /^EAN APIKey=sim-rapid-api-key,Signature=[0-9a-f]{128},timestamp=\d+$/);
  });

  it('gives up after repeated 410s: a pull that cannot finish within a link life fails', async () => {
    const { driver } = await serve((url) =>
      url.searchParams.get('token') === null
        ? { body: map('1'), headers: { link: `<http://${url.host}/v3/properties/content?token=t>; rel="next"` } }
        : { status: 410, body: { type: 'link.expired', message: 'expired' } },
    );
    await assert.rejects(
      pages(driver),
      expectSupplierError('supplier_d', 'http', new RegExp(`expired ${EXPEDIA_RAPID_MAX_RESTARTS + 1} times`)),
    );
  });

  it('asks the availability of up to 250 ids, repeated parameters; `200 []` is nothing available', async () => {
    const { server, driver } = await serve(() => ({
      body: [
        {
          property_id: '7',
          status: 'available',
          rooms: [{ id: 'a', rates: [rate({ '2-4,9': { totals: { inclusive: charge('250.50') } } })] }],
        },
      ],
    }));
    assert.equal(driver.maxIdsPerQuote, EXPEDIA_RAPID_MAX_IDS_PER_QUOTE);
    const ids = Array.from({ length: 250 }, (_v, i) => String(i + 1));
    const answer = await driver.quote(
      { ...party(2, [9, 4], 1), supplierStayIds: [...ids.slice(0, 249), 'V7'] },
      AbortSignal.timeout(5_000),
    );
    const url = new URL(server.requests[0], 'http://x');
    assert.equal(url.pathname, '/v3/properties/availability');
    assert.deepEqual(url.searchParams.getAll('property_id'), ids.slice(0, 249), 'V7 is no Rapid id: not sent');
    assert.deepEqual(url.searchParams.getAll('occupancy'), ['2-4,9']);
    for (const name of [
      'checkin',
      'checkout',
      'currency',
      'country_code',
      'language',
      'sales_channel',
      'sales_environment',
      'rate_plan_count',
    ])
      assert.equal(url.searchParams.getAll(name).length, 1, name);
    assert.deepEqual(answer.get('7'), { available: true, total: 250.5, currency: 'USD' });
    assert.deepEqual([answer.get('8'), answer.get('V7')], [{ available: false }, { available: false }]);
    await assert.rejects(driver.quote({ ...party(2, null, 1), supplierStayIds: [...ids, '251'] }, AbortSignal.timeout(5_000)), RangeError);
  });
});
