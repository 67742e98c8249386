// The LiteAPI driver against the simulated LiteAPI slot, through a recording proxy: every answer of
// the simulator and every request the driver sends is held to LiteAPI's published schemas
// (test-fixtures/supplier-specs/liteapi/, MIT), and the driver's readings to the world's ground
// truth (simQuote, the world's listings as LiteAPI carries them). The proxy also stands in for
// LiteAPI's rate limiting: it answers 429 when told, with or without a Retry-After.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { Ajv, type ValidateFunction } from 'ajv';
import { generateWorld, SIM_CREDENTIALS, simQuote, startSimSuppliers, type SimSuppliers, type World } from '@staygate/sim';
import { liteapiListing } from '../test-support/liteapi-listing.ts';
import { testSupplierConfig } from '../test-support/supplier-config.ts';
import type { Listing } from '../types.ts';
import { createLiteapiDriver, LITEAPI_BACKOFF_MS, LITEAPI_MAX_IDS_PER_QUOTE } from './liteapi.ts';
import { SupplierError } from './supplier-error.ts';
import type { Quote, QuoteRequest, Supplier, SupplierConfig } from './supplier.ts';
import { startRecordingProxy, type RecordingProxy } from '../test-support/recording-proxy.ts';
import { allListings } from '../test-support/fixture-server.ts';
import { defaults } from '../defaults.ts';

// --- the published schemas --------------------------------------------------------------------

const SPECS = new URL('../../test-fixtures/supplier-specs/liteapi/', import.meta.url);
const readSpec = (file: string): Record<string, any> => JSON.parse(readFileSync(new URL(file, SPECS), 'utf8')) as Record<string, any>;
const STATIC = readSpec('static.json');
const SEARCH = readSpec('search.json');

/**
 * Strict: an object schema with `properties` admits no other property, so a simulator that invents a
 * field fails here (the published files allow any), and so does a driver request carrying one.
 */
function strict(schema: unknown): void {
  if (typeof schema !== 'object' || schema === null) return;
  const node = schema as Record<string, unknown>;
  if (node.properties !== undefined && node.type === 'object' && node.additionalProperties === undefined) node.additionalProperties = false;
  for (const [key, value] of Object.entries(node)) if (key !== 'example' && key !== 'examples' && key !== 'x-examples') strict(value);
}
strict(STATIC.paths);
strict(SEARCH.paths);

// OpenAPI 3.0 schemas are JSON Schema with extra keywords (`example`): not validated, not refused.
const ajv = new Ajv({ strict: false, allErrors: true, logger: false });
ajv.addFormat('float', { type: 'number', validate: (n: number) => Number.isFinite(n) });
ajv.addFormat('integer', { type: 'number', validate: (n: number) => Number.isInteger(n) });
ajv.addFormat('date', /^\d{4}-\d{2}-\d{2}$/);
ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T/);
ajv.addSchema(STATIC, 'static');
ajv.addSchema(SEARCH, 'search');
const schema = (ref: string): ValidateFunction => ajv.getSchema(ref) ?? assert.fail(`no schema ${ref}`);
const json = (spec: string, path: string, method: string, status: number): ValidateFunction =>
  schema(`${spec}#/paths/${path.replaceAll('/', '~1')}/${method}/responses/${status}/content/application~1json/schema`);
const COUNTRIES_RS = json('static', '/data/countries', 'get', 200);
const HOTELS_RS = json('static', '/data/hotels', 'get', 200);
const HOTELS_400 = json('static', '/data/hotels', 'get', 400);
const HOTELS_401 = json('static', '/data/hotels', 'get', 401);
const RATES_RQ = schema('search#/paths/~1hotels~1rates/post/requestBody/content/application~1json/schema');
const RATES_RS = json('search', '/hotels/rates', 'post', 200);
/** The query parameters `/data/hotels` documents: all a request may carry. */
const HOTELS_PARAMS = new Set((STATIC.paths['/data/hotels'].get.parameters as { name: string }[]).map((p) => p.name));

function assertValid(validate: ValidateFunction, value: unknown, what: string): void {
  assert.ok(validate(value), `${what}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
}

// --- the tests ---------------------------------------------------------------------------------

const STAY = { checkin: '2027-03-01', checkout: '2027-03-04' };

let world: World;
let sim: SimSuppliers;
let proxy: RecordingProxy;

before(async () => {
  world = generateWorld({ seed: 13, stays: 4_000 });
  sim = await startSimSuppliers({ world, latencyMs: 0 });
  assert.equal(sim.slots.supplier_c.api, 'liteapi');
  proxy = await startRecordingProxy(sim.urls.supplier_c, ['x-api-key', 'accept', 'content-type']);
});
after(async () => {
  await proxy.close();
  await sim.close();
});

const config = (overrides: Partial<SupplierConfig> = {}): SupplierConfig => ({
  ...testSupplierConfig('supplier_c', proxy.url, 'liteapi'),
  ...overrides,
});
const driver = (overrides: Partial<SupplierConfig> = {}): Supplier => createLiteapiDriver(config(overrides), defaults);

const request = (ids: string[], party: Partial<QuoteRequest> = {}): QuoteRequest => ({
  ...STAY,
  supplierStayIds: ids,
  adults: 2,
  children: 0,
  childrenAges: null,
  rooms: 1,
  currency: 'USD',
  ...party,
});

const byId = (a: { supplierStayId: string }, b: { supplierStayId: string }): number =>
  a.supplierStayId < b.supplierStayId ? -1 : a.supplierStayId > b.supplierStayId ? 1 : 0;

describe('LiteAPI contract: content', () => {
  it("walks the country list and each country's offset/limit pages to its total, answers and requests as the spec writes them", async () => {
    const listings: Listing[] = [];
    const exchanges = await proxy.recorded(async () => listings.push(...(await allListings(driver(), 150))));
    const [countries, ...pages] = exchanges;
    assert.equal(countries.path, '/data/countries');
    assertValid(COUNTRIES_RS, countries.responseBody, 'the country list');
    const codes = (countries.responseBody as { data: { code: string }[] }).data.map((c) => c.code);
    let expectedRequests = 0;
    for (const code of codes) {
      const total = (pages.find((p) => p.query.get('countryCode') === code)!.responseBody as { total: number }).total;
      expectedRequests += Math.max(1, Math.ceil(total / 150));
    }
    assert.equal(pages.length, expectedRequests, 'one request per page of each country, to its total');
    for (const exchange of exchanges) {
      assert.equal(exchange.headers['x-api-key'], SIM_CREDENTIALS.liteapi.key);
      assert.ok(
        !exchange.path.includes(SIM_CREDENTIALS.liteapi.key) && !exchange.query.toString().includes(SIM_CREDENTIALS.liteapi.key),
        'no key in a URL',
      );
    }
    for (const [i, exchange] of pages.entries()) {
      assert.equal(exchange.path, '/data/hotels');
      for (const name of exchange.query.keys()) assert.ok(HOTELS_PARAMS.has(name), `${name} is a /data/hotels parameter`);
      assert.equal(exchange.query.get('limit'), '150');
      assert.equal(Number(exchange.query.get('offset')) % 150, 0);
      assertValid(HOTELS_RS, exchange.responseBody, `page ${i + 1}`);
    }
    assert.deepEqual(
      listings.sort(byId),
      world.listings.supplier_c
        .map((l) => {
          // Photo URLs name the host the request reached: the proxy forwards to the slot under the slot's own.
          const { propertyId: _propertyId, ...listing } = liteapiListing(l, sim.urls.supplier_c);
          return listing;
        })
        .sort(byId),
    );
  });

  it('reads the guest rating on its own 0-10 scale with its count, stars or null, room sizes, and pages of at most 5,000', async () => {
    const exchanges = await proxy.recorded(async () => {
      const listings = await allListings(driver(), 9_000);
      const stars = (values: (number | null)[]) => [...new Set(values)].sort();
      assert.deepEqual(stars(listings.map((l) => l.rating.hotelStars)), stars(world.listings.supplier_c.map((l) => l.rating.hotelStars)));
      assert.ok(
        listings.some((l) => l.rating.hotelStars === null),
        'a stay without stars reads null',
      );
      assert.ok(
        listings.every((l) => l.rating.value !== null && l.rating.value >= 1 && l.rating.value <= 10),
        'every simulated stay has a rating of 1-10, read as is',
      );
      assert.ok(
        listings.some((l) => l.capacity.guests > 2),
        'room sizes read from roomMaxGuestsNumber',
      );
    });
    assert.ok(
      exchanges.slice(1).every((e) => e.query.get('limit') === '5000'),
      'a page is at most 5,000',
    );
  });

  it("a request without a location is the spec's 400, in its error body", async () => {
    const response = await fetch(`${proxy.url}/data/hotels`, { headers: { 'X-API-Key': SIM_CREDENTIALS.liteapi.key } });
    assert.equal(response.status, 400);
    const body = await response.json();
    assertValid(HOTELS_400, body, '400');
    assert.deepEqual(body, { error: { code: 4000, description: 'countryCode is required', message: 'bad request' } });
  });
});

describe('LiteAPI contract: rates', () => {
  it("prices every asked id at simQuote's total, leaves out what is not available, in the spec's bodies", async () => {
    const ids = world.listings.supplier_c.slice(0, 120).map((l) => l.supplierStayId);
    let answer = new Map<string, Quote>();
    const [exchange, ...more] = await proxy.recorded(async () => {
      answer = await driver().quote(request([...ids, 'lp404']), AbortSignal.timeout(10_000));
    });
    assert.equal(more.length, 0, 'one call');
    assert.equal(exchange.path, '/hotels/rates');
    assert.equal(exchange.headers['x-api-key'], SIM_CREDENTIALS.liteapi.key);
    assertValid(RATES_RQ, exchange.requestBody, 'the request');
    assert.deepEqual((exchange.requestBody as any).hotelIds, [...ids, 'lp404']);
    assert.equal(exchange.status, 200);
    assertValid(RATES_RS, exchange.responseBody, 'the answer');
    let available = 0;
    for (const id of ids) {
      const truth = simQuote(world, 'supplier_c', id, { ...STAY, adults: 2, children: 0, childrenAges: null, rooms: 1, currency: 'USD' });
      assert.deepEqual(answer.get(id), truth, id);
      if (truth.available) available++;
      else assert.ok(!(exchange.responseBody as any).data.some((h: any) => h.hotelId === id), `${id} absent from the answer`);
    }
    assert.ok(available > 0 && available < ids.length, `some available (${available}), some not`);
    assert.deepEqual(answer.get('lp404'), { available: false });
  });

  it('sends a party of several rooms with children of unknown age, and reads the whole offer as simQuote', async () => {
    const ids = world.listings.supplier_c.slice(0, 80).map((l) => l.supplierStayId);
    const party = { adults: 5, children: 3, childrenAges: null, rooms: 3 };
    let answer = new Map<string, Quote>();
    const [exchange] = await proxy.recorded(async () => {
      answer = await driver().quote(request(ids, party), AbortSignal.timeout(10_000));
    });
    assertValid(RATES_RQ, exchange.requestBody, 'the request');
    assertValid(RATES_RS, exchange.responseBody, 'the answer');
    assert.equal((exchange.requestBody as any).occupancies.length, 3, 'one occupancy per room');
    let available = 0;
    for (const id of ids) {
      // The driver's default age (10) and the slot's (6) are both a child's price in the world's model.
      const truth = simQuote(world, 'supplier_c', id, { ...STAY, ...party, currency: 'USD' });
      assert.deepEqual(answer.get(id), truth, id);
      if (truth.available) available++;
    }
    assert.ok(available > 0, `some available (${available})`);
  });

  it('reads HTTP 204 as nothing available for every id', async () => {
    const soldOut = world.listings.supplier_c.filter(
      (l) =>
        !simQuote(world, 'supplier_c', l.supplierStayId, { ...STAY, adults: 1, children: 0, childrenAges: null, rooms: 1, currency: 'USD' })
          .available,
    );
    assert.ok(soldOut.length > 0, 'the world has sold-out stays for the dates');
    const ids = [...soldOut.slice(0, 3).map((l) => l.supplierStayId), 'lp404'];
    let answer = new Map<string, Quote>();
    const [exchange] = await proxy.recorded(async () => {
      answer = await driver().quote(request(ids, { adults: 1 }), AbortSignal.timeout(10_000));
    });
    assert.deepEqual([exchange.status, exchange.responseBody], [204, null]);
    assert.deepEqual(
      [...answer.values()],
      ids.map(() => ({ available: false })),
    );
  });

  it('asks at most 5,000 ids a call: more is a RangeError and no call; 5,000 go in one request with limit 5,000', async () => {
    assert.equal(driver().maxIdsPerQuote, LITEAPI_MAX_IDS_PER_QUOTE);
    const ids = Array.from({ length: 5_001 }, (_v, i) => `lp${i.toString(16)}`);
    const none = await proxy.recorded(() => assert.rejects(driver().quote(request(ids), AbortSignal.timeout(10_000)), RangeError));
    assert.equal(none.length, 0, 'no call');
    const [full] = await proxy.recorded(() => driver().quote(request(ids.slice(0, 5_000)), AbortSignal.timeout(10_000)));
    assertValid(RATES_RQ, full.requestBody, '5,000 ids');
    assert.deepEqual([(full.requestBody as any).hotelIds.length, (full.requestBody as any).limit], [5_000, 5_000]);
    assert.equal(full.status, 204, 'none of them sold by the slot');
  });
});

describe('LiteAPI contract: authentication and rate limits', () => {
  it("a wrong key is an `auth` failure carrying LiteAPI's own message, for content and rates", async () => {
    const wrong = driver({ key: 'not-the-liteapi-key' });
    const id = world.listings.supplier_c[0].supplierStayId;
    for (const run of [() => allListings(wrong), () => wrong.quote(request([id]), AbortSignal.timeout(10_000))]) {
      const exchanges = await proxy.recorded(() =>
        assert.rejects(run(), (error: unknown) => {
          assert.ok(error instanceof SupplierError, String(error));
          assert.equal(error.kind, 'auth');
          assert.equal(error.status, 401);
          assert.match(error.message, /auth: Unauthorized/);
          assert.doesNotMatch(error.message, /not-the-liteapi-key|sim-liteapi-key/, 'no credential in the message');
          return true;
        }),
      );
      assertValid(HOTELS_401, exchanges.at(-1)!.responseBody, "the spec's 401");
      assert.deepEqual(exchanges.at(-1)!.responseBody, { error: { code: 401, message: 'Unauthorized' } });
    }
  });

  it('a 429 with a Retry-After is waited out as long as it asks, then the request is sent again', async () => {
    proxy.rateLimit(1, { retryAfterS: 2 });
    const exchanges = await proxy.recorded(() => allListings(driver(), 5_000));
    assert.deepEqual(
      exchanges.slice(0, 2).map((e) => [e.path, e.status]),
      [
        ['/data/countries', 429],
        ['/data/countries', 200],
      ],
    );
    assert.ok(exchanges[1].at - exchanges[0].at >= 1_990, `waited ${exchanges[1].at - exchanges[0].at} ms of the 2 s asked`);
  });

  it("a 429 without one is waited out by the driver's own backoff", async () => {
    proxy.rateLimit(1);
    const id = world.listings.supplier_c[0].supplierStayId;
    const exchanges = await proxy.recorded(() => driver().quote(request([id]), AbortSignal.timeout(30_000)));
    assert.equal(exchanges[0].status, 429);
    assert.ok([200, 204].includes(exchanges[1].status), `answered ${exchanges[1].status} once waited`);
    const waited = exchanges[1].at - exchanges[0].at;
    assert.ok(waited >= LITEAPI_BACKOFF_MS - 10, `waited ${waited} ms, the backoff is ${LITEAPI_BACKOFF_MS}`);
  });
});
