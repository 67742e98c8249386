// The Booking.com Demand API driver against the simulated Booking.com slot, through a recording
// proxy: every answer of the simulator and every request the driver sends is held to Booking.com's
// published OpenAPI 3.1 file, read in place from the shared specs folder (it states no licence, so
// it is not copied into the repository: decision 154), and the driver's readings to the world's
// ground truth. The proxy also stands in for rate limiting (429, with or without a Retry-After) and
// moves the world on in the middle of a walk, so that a page token expires.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import { parse } from 'yaml';
import { generateWorld, SIM_CREDENTIALS, simQuote, startSimSuppliers, type SimSuppliers, type World } from '@staygate/sim';
import { bookingDemandListing } from '../test-support/booking-demand-listing.ts';
import { sharedSpecPath } from '../test-support/shared-spec-path.ts';
import { testSupplierConfig } from '../test-support/supplier-config.ts';
import type { Listing } from '../types.ts';
import { BOOKING_BACKOFF_MS, BOOKING_MAX_IDS_PER_QUOTE, createBookingDemandDriver } from './booking-demand.ts';
import { SupplierError } from './supplier-error.ts';
import type { QuoteRequest, Supplier, SupplierConfig } from './supplier.ts';
import { startRecordingProxy, type Exchange, type RecordingProxy } from '../test-support/recording-proxy.ts';
import { allListings } from '../test-support/fixture-server.ts';
import { defaults } from '../defaults.ts';

// --- the published spec, read in place ---------------------------------------------------------

const SPEC_FILE = 'booking-com-demand/booking-com-demand-api-3-1-openapi.yml';
const SPEC = parse(readFileSync(sharedSpecPath(SPEC_FILE), 'utf8')) as { paths: Record<string, { post: any }> };

/**
 * The file does not validate as stored (the shared specs' README): `/orders/preview` refers to a
 * `dataTypes.json` that Booking.com does not publish. That `$ref` is replaced, in memory only, by a
 * schema that admits anything; no operation the driver uses refers to it.
 */
function replaceExternalRefs(node: unknown, replaced: string[] = []): string[] {
  if (typeof node !== 'object' || node === null) return replaced;
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    const ref = typeof value === 'object' && value !== null ? (value as { $ref?: unknown }).$ref : undefined;
    if (typeof ref === 'string' && !ref.startsWith('#')) {
      (node as Record<string, unknown>)[key] = {};
      replaced.push(ref);
    } else replaceExternalRefs(value, replaced);
  }
  return replaced;
}
const EXTERNAL_REFS = replaceExternalRefs(SPEC.paths);

// OpenAPI 3.1 schemas are JSON Schema 2020-12; `format`s (url, double, int64) are documentation here.
// Amounts are `multipleOf: 0.01` (scores 0.1): checked to 9 digits, as 8.7 / 0.1 is not an integer in binary.
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false, logger: false, multipleOfPrecision: 9 });
const operation = (path: string) => SPEC.paths[path]?.post ?? assert.fail(`${path} is not in the spec`);
const requestSchemas = new Map<string, ValidateFunction>();
const responseSchemas = new Map<string, ValidateFunction>();
function requestSchema(path: string): ValidateFunction {
  let validate = requestSchemas.get(path);
  if (validate === undefined)
    requestSchemas.set(path, (validate = ajv.compile(operation(path).requestBody.content['application/json'].schema)));
  return validate;
}
function responseSchema(path: string): ValidateFunction {
  let validate = responseSchemas.get(path);
  if (validate === undefined)
    responseSchemas.set(path, (validate = ajv.compile(operation(path).responses['200'].content['application/json'].schema)));
  return validate;
}

function assertValid(validate: ValidateFunction, value: unknown, what: string): void {
  assert.ok(validate(value), `${what}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
}

// --- the tests ---------------------------------------------------------------------------------

const STAY = { checkin: '2027-03-01', checkout: '2027-03-04' };
const NOW = Date.parse('2026-11-21T10:00:00Z');
const CREDENTIALS = SIM_CREDENTIALS['booking-demand'];

let world: World;
let sim: SimSuppliers;
let proxy: RecordingProxy;

before(async () => {
  world = generateWorld({ seed: 13, stays: 3_000 });
  sim = await startSimSuppliers({ world, latencyMs: 0, now: () => NOW });
  assert.equal(sim.slots.supplier_a.api, 'booking-demand');
  assert.equal(sim.slots.supplier_a.bookingUrl, null, "the content names each stay's page");
  proxy = await startRecordingProxy(sim.urls.supplier_a, ['authorization', 'x-affiliate-id', 'accept', 'content-type']);
});
after(async () => {
  await proxy.close();
  await sim.close();
});

const config = (overrides: Partial<SupplierConfig> = {}): SupplierConfig => ({
  ...testSupplierConfig('supplier_a', proxy.url, 'booking-demand'),
  ...overrides,
});
const driver = (overrides: Partial<SupplierConfig> = {}): Supplier => createBookingDemandDriver(config(overrides), defaults);

const request = (ids: string[], party: Partial<QuoteRequest> = {}): QuoteRequest => ({
  ...STAY,
  supplierStayIds: ids,
  adults: 2,
  children: 0,
  childrenAges: null,
  rooms: 1,
  currency: 'EUR',
  ...party,
});

/** Every exchange is a JSON POST with the slot's credentials in headers, and both bodies are the spec's. */
function assertExchange(exchange: Exchange): void {
  assert.equal(exchange.method, 'POST', exchange.path);
  assert.equal(exchange.headers.authorization, `Bearer ${CREDENTIALS.key}`);
  assert.equal(exchange.headers['x-affiliate-id'], CREDENTIALS.affiliateId);
  assert.equal(exchange.headers['content-type'], 'application/json');
  assertValid(requestSchema(exchange.path), exchange.requestBody, `request of ${exchange.path}`);
  if (exchange.status === 200) assertValid(responseSchema(exchange.path), exchange.responseBody, `answer of ${exchange.path}`);
}

const byId = (list: Listing[]): Listing[] => [...list].sort((a, b) => a.supplierStayId.localeCompare(b.supplierStayId));

describe('Booking.com contract: the spec', () => {
  it('is read from the shared folder, its one external $ref replaced in memory', () => {
    assert.ok(EXTERNAL_REFS.length > 0, 'the file refers to dataTypes.json');
    for (const ref of EXTERNAL_REFS) assert.match(ref, /^\.\.\/accommodations\/dataTypes\.json#/, 'only the unpublished dataTypes.json');
    assert.ok(SPEC.paths['/accommodations/details'].post, 'the operations are there');
  });

  it('fails clearly when the shared folder is in neither place', () => {
    assert.throws(
      () => sharedSpecPath(SPEC_FILE, ['/nowhere/a.yml', '/nowhere/b.yml']),
      /is in none of \/nowhere\/a\.yml, \/nowhere\/b\.yml/,
    );
  });
});

describe('Booking.com contract: content', () => {
  it('walks every country to its last page, the whole slot exactly, answers and requests as the spec writes them', async () => {
    const listings: Listing[] = [];
    const exchanges = await proxy.recorded(async () => listings.push(...(await allListings(driver(), 10))));
    for (const exchange of exchanges) {
      assert.equal(exchange.status, 200, exchange.path);
      assertExchange(exchange);
    }
    const paths = new Set(exchanges.map((e) => e.path));
    assert.deepEqual([...paths].sort(), ['/accommodations/details', '/common/locations/cities', '/common/locations/countries']);
    assert.ok(
      exchanges.some((e) => e.path === '/accommodations/details' && e.requestBody.page !== undefined),
      'some country takes more than one page',
    );
    const truth = world.listings.supplier_a.map((l) => {
      const { propertyId: _propertyId, ...listing } = bookingDemandListing(l, sim.urls.supplier_a);
      return listing;
    });
    assert.deepEqual(byId(listings), byId(truth));
  });

  it('restarts a country whose page token expired (the world moved on), losing and repeating nothing', async () => {
    let moved = false;
    proxy.onRequest = (exchange) => {
      if (!moved && exchange.path === '/accommodations/details' && exchange.requestBody.page !== undefined) {
        moved = true;
        sim.advance(1);
      }
    };
    try {
      const listings: Listing[] = [];
      const exchanges = await proxy.recorded(async () => listings.push(...(await allListings(driver(), 50))));
      const refused = exchanges.findIndex((e) => e.status === 400);
      assert.ok(refused >= 0, 'a token was refused');
      assert.equal(exchanges[refused].responseBody.errors[0].id, 'invalid_page');
      const country = exchanges[refused].requestBody.country;
      assert.deepEqual(
        { ...exchanges[refused + 1].requestBody, page: undefined },
        { ...exchanges[refused].requestBody, page: undefined },
        'the same country again',
      );
      assert.equal(exchanges[refused + 1].requestBody.page, undefined, 'from its first page');
      assert.equal(new Set(listings.map((l) => l.supplierStayId)).size, listings.length, 'nothing yielded twice');
      // What the slot sells in that country now is all there.
      const got = new Set(listings.map((l) => l.supplierStayId));
      for (const l of world.listings.supplier_a)
        if (l.address.endsWith(`, ${country.toUpperCase()}`)) assert.ok(got.has(l.supplierStayId), `${l.supplierStayId} pulled`);
    } finally {
      proxy.onRequest = null;
    }
  });
});

describe('Booking.com contract: prices', () => {
  it("prices every asked id at simQuote's total (not `book`), leaves out what is not available, in the spec's bodies", async () => {
    const ids = world.listings.supplier_a.slice(0, BOOKING_MAX_IDS_PER_QUOTE - 2).map((l) => l.supplierStayId);
    let answer = new Map();
    const [exchange, ...more] = await proxy.recorded(async () => {
      answer = await driver().quote(request([...ids, '99', 'A1']), AbortSignal.timeout(10_000));
    });
    assert.equal(more.length, 0, 'one call');
    assert.equal(exchange.path, '/accommodations/search');
    assertExchange(exchange);
    assert.deepEqual(exchange.requestBody.accommodations, [...ids, '99'].map(Number), 'ids as integers; A1 is no accommodation id');
    let available = 0;
    for (const id of ids) {
      const truth = simQuote(world, 'supplier_a', id, { ...STAY, adults: 2, children: 0, childrenAges: null, rooms: 1, currency: 'EUR' });
      assert.deepEqual(answer.get(id), truth, id);
      if (truth.available) {
        available++;
        const item = exchange.responseBody.data.find((d: { id: number }) => String(d.id) === id);
        assert.ok(item.price.book < item.price.total, 'book leaves charges out: the driver reads total');
      } else assert.ok(!exchange.responseBody.data.some((d: { id: number }) => String(d.id) === id), `${id} absent from the answer`);
    }
    assert.ok(available > 0 && available < ids.length, `some available (${available}), some not`);
    assert.deepEqual([answer.get('99'), answer.get('A1')], [{ available: false }, { available: false }]);
  });

  it('sends children of unknown age as 8 and several rooms, priced as simQuote prices them', async () => {
    const ids = world.listings.supplier_a.slice(0, 60).map((l) => l.supplierStayId);
    const party = { adults: 4, children: 2, childrenAges: null, rooms: 2 };
    let answer = new Map();
    const [exchange] = await proxy.recorded(async () => {
      answer = await driver().quote(request(ids, party), AbortSignal.timeout(10_000));
    });
    assertExchange(exchange);
    assert.deepEqual(exchange.requestBody.guests, { number_of_adults: 4, number_of_rooms: 2, children: [8, 8] });
    for (const id of ids) assert.deepEqual(answer.get(id), simQuote(world, 'supplier_a', id, { ...STAY, ...party, currency: 'EUR' }), id);
  });

  it(`asks at most ${BOOKING_MAX_IDS_PER_QUOTE} ids a call (the spec's maxItems): the spec and the simulator refuse 101`, async () => {
    const ids = Array.from({ length: 101 }, (_v, i) => i + 1);
    const body = {
      accommodations: ids,
      booker: { country: 'nl', platform: 'desktop' },
      ...STAY,
      guests: { number_of_adults: 1, number_of_rooms: 1 },
    };
    assert.equal(requestSchema('/accommodations/search')(body), false, 'the spec refuses 101 ids');
    const response = await fetch(`${proxy.url}/accommodations/search`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        Authorization: `Bearer ${CREDENTIALS.key}`,
        'X-Affiliate-Id': CREDENTIALS.affiliateId,
      },
      body: JSON.stringify(body),
    });
    assert.equal(response.status, 400);
    assert.equal(((await response.json()) as { errors: { id: string }[] }).errors[0].id, 'invalid_parameter');
  });
});

describe('Booking.com contract: orders', () => {
  it('reports the bookings of clicks landed on the stays’ own pages, with their label, from valid requests and answers', async () => {
    const listings = world.listings.supplier_a.slice(0, 120);
    const pages = (await allListings(driver())).filter((l) => listings.some((w) => w.supplierStayId === l.supplierStayId));
    for (const [i, listing] of pages.entries()) {
      // What the gateway's /go makes of `url` (src/clicks/booking-com-url.ts): placeholders filled, the click in `label`.
      const page = `${listing.url!.replace('!AFFILIATE_ID!', CREDENTIALS.affiliateId).replace('!START_DATE!', STAY.checkin).replace('!END_DATE!', STAY.checkout)}&label=contract-${i}&simClickTime=${new Date(NOW - 3 * 86_400_000).toISOString()}`;
      const answer = await fetch(page);
      assert.equal(answer.status, 200, page);
    }
    const from = new Date(NOW - 10 * 86_400_000);
    const to = new Date(NOW + 1_000);
    const truth = sim.ledger.report('supplier_a', from.getTime(), to.getTime());
    assert.ok(truth.length > 0, 'some landings booked');
    const records: { bookingId: string; clickId: string | null; destination: string }[] = [];
    const exchanges = await proxy.recorded(async () => {
      for await (const page of driver().commissionReport!({ from, to, pageSize: 10 })) records.push(...page);
    });
    for (const exchange of exchanges) assertExchange(exchange);
    assert.ok(exchanges.filter((e) => e.path === '/orders/details').length >= 2, 'two 7-day windows at least');
    assert.deepEqual(records.map((r) => r.bookingId).sort(), truth.map((e) => e.booking.bookingId).sort());
    for (const r of records) {
      const { booking } = truth.find((e) => e.booking.bookingId === r.bookingId)!;
      assert.equal(r.clickId, booking.clickId);
      assert.equal(r.destination, `${booking.city}, ${booking.countryCode}`);
    }
  });
});

describe('Booking.com contract: authentication and rate limits', () => {
  it("a wrong token is a 401, another affiliate id a 403: both `auth` failures carrying Booking.com's message", async () => {
    const cases: [Partial<SupplierConfig>, number, RegExp][] = [
      [{ key: 'not-the-bearer-token' }, 401, /The bearer token is not valid/],
      [{ affiliateId: '1111111' }, 403, /not an affiliate of this token/],
    ];
    const id = world.listings.supplier_a[0].supplierStayId;
    for (const [overrides, status, message] of cases) {
      const wrong = driver(overrides);
      for (const run of [() => allListings(wrong), () => wrong.quote(request([id]), AbortSignal.timeout(10_000))]) {
        await assert.rejects(run(), (error: unknown) => {
          assert.ok(error instanceof SupplierError, String(error));
          assert.equal(error.kind, 'auth');
          assert.equal(error.status, status);
          assert.match(error.message, message);
          assert.doesNotMatch(error.message, /not-the-bearer-token|sim-booking-demand-token/, 'no credential in the message');
          return true;
        });
      }
    }
  });

  it('a 429 with a Retry-After is waited out as long as it asks, then the same request is sent again', async () => {
    proxy.rateLimit(1, { retryAfterS: 2 });
    const exchanges = await proxy.recorded(() => allListings(driver(), 1_000));
    assert.deepEqual([exchanges[0].status, exchanges[1].status], [429, 200]);
    assert.deepEqual(exchanges[1].requestBody, exchanges[0].requestBody, 'the same request again');
    assert.ok(exchanges[1].at - exchanges[0].at >= 1_990, `waited ${exchanges[1].at - exchanges[0].at} ms of the 2 s asked`);
  });

  it("a 429 without one is waited out by the driver's own backoff", async () => {
    proxy.rateLimit(1);
    const id = world.listings.supplier_a[0].supplierStayId;
    const exchanges = await proxy.recorded(() => driver().quote(request([id]), AbortSignal.timeout(30_000)));
    assert.deepEqual(
      exchanges.map((e) => e.status),
      [429, 200],
    );
    const waited = exchanges[1].at - exchanges[0].at;
    assert.ok(waited >= BOOKING_BACKOFF_MS - 10, `waited ${waited} ms, the backoff is ${BOOKING_BACKOFF_MS}`);
  });
});
