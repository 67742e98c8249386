// The Hotelbeds driver against the simulated Hotelbeds slot, through a recording proxy: every answer
// of the simulator and every request the driver sends is held to Hotelbeds' published schemas
// (test-fixtures/supplier-specs/hotelbeds/, Apache-2.0), and the driver's readings to the world's
// ground truth (simQuote, the world's listings as Hotelbeds carries them). The proxy also stands in
// for Hotelbeds' rate limiting: it answers 429 when told, with or without a Retry-After.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { Ajv, type ValidateFunction } from 'ajv';
import { parse } from 'yaml';
import { generateWorld, SIM_CREDENTIALS, simQuote, startSimSuppliers, type SimSuppliers, type World } from '@staygate/sim';
import { hotelbedsListing } from '../test-support/hotelbeds-listing.ts';
import { testSupplierConfig } from '../test-support/supplier-config.ts';
import type { Listing } from '../types.ts';
import { createHotelbedsDriver, HOTELBEDS_BACKOFF_MS, HOTELBEDS_MAX_IDS_PER_QUOTE } from './hotelbeds.ts';
import { hotelbedsSignature } from './hotelbeds-signature.ts';
import { SupplierError } from './supplier-error.ts';
import type { QuoteRequest, Supplier, SupplierConfig } from './supplier.ts';
import { startRecordingProxy, type Exchange, type RecordingProxy } from '../test-support/recording-proxy.ts';
import { allListings } from '../test-support/fixture-server.ts';
import { defaults } from '../defaults.ts';

// --- the published schemas --------------------------------------------------------------------

const SPECS = new URL('../../test-fixtures/supplier-specs/hotelbeds/', import.meta.url);
const readSpec = (file: string): Record<string, any> => parse(readFileSync(new URL(file, SPECS), 'utf8')) as Record<string, any>;
const CONTENT = readSpec('content-openapi-spec.yaml');
const BOOKING = readSpec('booking-openapi-spec.yaml');

/**
 * Strict: an object schema with `properties` admits no other property, so a simulator that invents a
 * field fails here (the published files allow any). The one exception is what the guides and live
 * answers add to a hotel room: its occupancy (`minPax`, `maxPax` ...), which the driver reads.
 */
function strict(schema: unknown, name = ''): void {
  if (typeof schema !== 'object' || schema === null) return;
  const node = schema as Record<string, unknown>;
  if (node.properties !== undefined && node.additionalProperties === undefined && name !== 'ApiHotelRoom')
    node.additionalProperties = false;
  for (const [key, value] of Object.entries(node)) strict(value, node === CONTENT.components.schemas ? key : '');
}
strict(CONTENT.components.schemas);
strict(BOOKING.components.schemas);

// OpenAPI 3.0 schemas are JSON Schema with extra keywords (`example`, `xml`): not validated, not refused.
const ajv = new Ajv({ strict: false, allErrors: true, logger: false });
ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 31 });
ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
ajv.addFormat('date', /^\d{4}-\d{2}-\d{2}$/);
ajv.addSchema(CONTENT, 'content');
ajv.addSchema(BOOKING, 'booking');
const schema = (ref: string): ValidateFunction => ajv.getSchema(ref) ?? assert.fail(`no schema ${ref}`);
const HOTELS_RS = schema('content#/components/schemas/ApiHotelsRS');
const AVAILABILITY_RQ = schema('booking#/components/schemas/availabilityRQ');
const AVAILABILITY_RS = schema('booking#/components/schemas/availabilityRS');
/** The hotel fields the Content API has: what `fields` may name. */
const HOTEL_FIELDS = new Set(Object.keys(CONTENT.components.schemas.ApiHotel.properties as object));

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
  assert.equal(sim.slots.supplier_b.api, 'hotelbeds');
  proxy = await startRecordingProxy(sim.urls.supplier_b, ['api-key', 'x-signature', 'accept', 'content-type']);
});
after(async () => {
  await proxy.close();
  await sim.close();
});

const config = (overrides: Partial<SupplierConfig> = {}): SupplierConfig => ({
  ...testSupplierConfig('supplier_b', proxy.url, 'hotelbeds'),
  ...overrides,
});
const driver = (overrides: Partial<SupplierConfig> = {}): Supplier => createHotelbedsDriver(config(overrides), defaults);

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

function assertSigned(exchange: Exchange): void {
  const key = exchange.headers['api-key'];
  assert.equal(key, SIM_CREDENTIALS.hotelbeds.key);
  const now = Math.floor(Date.now() / 1_000);
  // Signed within the last minute: the request was made moments ago.
  const seconds = Array.from({ length: 61 }, (_v, i) => now - i);
  assert.ok(
    seconds.some((s) => hotelbedsSignature(key, SIM_CREDENTIALS.hotelbeds.secret, s) === exchange.headers['x-signature']),
    `X-Signature of ${exchange.path} is the SHA-256 of key + secret + a recent second`,
  );
}

describe('Hotelbeds contract: content', () => {
  it('walks the whole slot in from/to windows to `total`, answers and requests as the spec writes them', async () => {
    const listings: Listing[] = [];
    const exchanges = await proxy.recorded(async () => listings.push(...(await allListings(driver(), 400))));
    const total = world.listings.supplier_b.length;
    assert.equal(exchanges.length, Math.ceil(total / 400), 'one request per window, to the end');
    exchanges.forEach((exchange, i) => {
      assert.equal(exchange.path, '/hotel-content-api/1.0/hotels');
      assert.deepEqual([exchange.query.get('from'), exchange.query.get('to')], [String(i * 400 + 1), String(i * 400 + 400)]);
      for (const field of exchange.query.get('fields')!.split(',')) assert.ok(HOTEL_FIELDS.has(field), `${field} is an ApiHotel field`);
      assert.equal(exchange.headers.accept, 'application/json');
      assertSigned(exchange);
      assertValid(HOTELS_RS, exchange.responseBody, `page ${i + 1}`);
      assert.equal((exchange.responseBody as { total: number }).total, total);
    });
    assert.deepEqual(
      listings,
      world.listings.supplier_b.map((l) => {
        const { propertyId: _propertyId, ...listing } = hotelbedsListing(l, proxy.url);
        return listing;
      }),
    );
  });

  it('reads stars from categories (half stars too), no guest rating, and pages of at most 1,000', async () => {
    const exchanges = await proxy.recorded(async () => {
      const listings = await allListings(driver(), 5_000);
      const stars = new Set(listings.map((l) => l.rating.hotelStars));
      for (const s of [null, 1.5, 3, 4.5, 5]) assert.ok(stars.has(s), `stars ${s} read`);
      assert.ok(
        listings.every((l) => l.rating.value === null && l.rating.count === 0),
        'Hotelbeds has no guest rating: null, never 0',
      );
    });
    assert.deepEqual(
      exchanges.map((e) => [e.query.get('from'), e.query.get('to')]),
      [
        ['1', '1000'],
        ['1001', '2000'],
      ].slice(0, Math.ceil(world.listings.supplier_b.length / 1_000)),
    );
  });

  it("a window past the API's limit is its 400, in its error body", async () => {
    const response = await fetch(`${proxy.url}/hotel-content-api/1.0/hotels?from=1&to=1001`, {
      headers: {
        'Api-key': SIM_CREDENTIALS.hotelbeds.key,
        'X-Signature': hotelbedsSignature(SIM_CREDENTIALS.hotelbeds.key, SIM_CREDENTIALS.hotelbeds.secret, Math.floor(Date.now() / 1_000)),
      },
    });
    assert.equal(response.status, 400);
    const body = await response.json();
    assertValid(HOTELS_RS, body, '400');
    assert.match(body.error.code, /^INVALID_DATA-/);
  });
});

describe('Hotelbeds contract: availability', () => {
  it("prices every asked code at simQuote's total, leaves out what is not available, in the spec's bodies", async () => {
    const ids = world.listings.supplier_b.slice(0, 120).map((l) => l.supplierStayId);
    const unknown = '99';
    let answer = new Map();
    const [exchange, ...more] = await proxy.recorded(async () => {
      answer = await driver().quote(request([...ids, unknown, 'HB1']), AbortSignal.timeout(10_000));
    });
    assert.equal(more.length, 0, 'one call');
    assert.equal(exchange.path, '/hotel-api/1.0/hotels');
    assertValid(AVAILABILITY_RQ, exchange.requestBody, 'the request');
    assert.deepEqual((exchange.requestBody as any).hotels.hotel, [...ids, unknown].map(Number), 'codes as integers; HB1 is no code');
    assert.equal(exchange.headers['content-type'], 'application/json');
    assertSigned(exchange);
    assertValid(AVAILABILITY_RS, exchange.responseBody, 'the answer');
    let available = 0;
    for (const id of ids) {
      const truth = simQuote(world, 'supplier_b', id, { ...STAY, adults: 2, children: 0, childrenAges: null, rooms: 1, currency: 'EUR' });
      assert.deepEqual(answer.get(id), truth, id);
      if (truth.available) available++;
      else
        assert.ok(!(exchange.responseBody as any).hotels.hotels?.some((h: any) => String(h.code) === id), `${id} absent from the answer`);
    }
    assert.ok(available > 0 && available < ids.length, `some available (${available}), some not`);
    assert.deepEqual([answer.get(unknown), answer.get('HB1')], [{ available: false }, { available: false }]);
  });

  it('sends a party of several rooms and children of unknown age, and adds its rooms up to simQuote', async () => {
    const ids = world.listings.supplier_b.slice(0, 80).map((l) => l.supplierStayId);
    const party = { adults: 5, children: 3, childrenAges: null, rooms: 3 };
    let answer = new Map();
    const [exchange] = await proxy.recorded(async () => {
      answer = await driver().quote(request(ids, party), AbortSignal.timeout(10_000));
    });
    assertValid(AVAILABILITY_RQ, exchange.requestBody, 'the request');
    assertValid(AVAILABILITY_RS, exchange.responseBody, 'the answer');
    assert.equal((exchange.requestBody as any).occupancies.length, 3, 'one occupancy per room');
    let available = 0;
    for (const id of ids) {
      const truth = simQuote(world, 'supplier_b', id, { ...STAY, ...party, currency: 'EUR' });
      assert.deepEqual(answer.get(id), truth, id);
      if (truth.available) available++;
    }
    assert.ok(available > 0, `some available (${available})`);
  });

  it('asks at most 2,000 codes a call: more is a RangeError and no call; the API refuses 2,001 in its body', async () => {
    assert.equal(driver().maxIdsPerQuote, HOTELBEDS_MAX_IDS_PER_QUOTE);
    assert.equal(HOTELBEDS_MAX_IDS_PER_QUOTE, 2_000);
    const codes = Array.from({ length: 2_001 }, (_v, i) => String(i + 1));
    const exchanges = await proxy.recorded(() => assert.rejects(driver().quote(request(codes), AbortSignal.timeout(10_000)), RangeError));
    assert.equal(exchanges.length, 0, 'no call');
    const full = await proxy.recorded(() => driver().quote(request(codes.slice(0, 2_000)), AbortSignal.timeout(10_000)));
    assertValid(AVAILABILITY_RQ, full[0].requestBody, '2,000 codes');
    const response = await fetch(`${proxy.url}/hotel-api/1.0/hotels`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'Api-key': SIM_CREDENTIALS.hotelbeds.key,
        'X-Signature': hotelbedsSignature(SIM_CREDENTIALS.hotelbeds.key, SIM_CREDENTIALS.hotelbeds.secret, Math.floor(Date.now() / 1_000)),
      },
      body: JSON.stringify({ ...(full[0].requestBody as object), hotels: { hotel: codes.map(Number) } }),
    });
    assert.equal(response.status, 400);
    assertValid(AVAILABILITY_RS, await response.json(), '400');
  });
});

describe('Hotelbeds contract: authentication and rate limits', () => {
  it("a wrong secret is an `auth` failure carrying Hotelbeds' own message, for content and quotes", async () => {
    const wrong = driver({ secret: 'not-the-secret' });
    const id = world.listings.supplier_b[0].supplierStayId;
    for (const run of [() => allListings(wrong), () => wrong.quote(request([id]), AbortSignal.timeout(10_000))]) {
      const exchanges = await proxy.recorded(() =>
        assert.rejects(run(), (error: unknown) => {
          assert.ok(error instanceof SupplierError, String(error));
          assert.equal(error.kind, 'auth');
          assert.equal(error.status, 401);
          assert.match(error.message, /Request signature verification failed/);
          assert.doesNotMatch(error.message, /not-the-secret|sim-hotelbeds-api-key/, 'no credential in the message');
          return true;
        }),
      );
      assert.deepEqual(exchanges.at(-1)!.responseBody, { error: 'Request signature verification failed' }, "the spec's 401 example");
    }
  });

  it('a clock far off signs wrongly: `auth` too', async () => {
    const late = driver({ now: () => Date.now() - 3_600_000 });
    await assert.rejects(allListings(late), (error: unknown) => error instanceof SupplierError && error.kind === 'auth');
  });

  it('a 429 with a Retry-After is waited out as long as it asks, then the request is sent again, signed anew', async () => {
    proxy.rateLimit(1, { retryAfterS: 2 });
    const exchanges = await proxy.recorded(() => allListings(driver(), 5_000));
    assert.equal(exchanges[0].status, 429);
    assert.equal(exchanges[1].status, 200);
    assert.deepEqual([exchanges[0].query.get('from'), exchanges[1].query.get('from')], ['1', '1'], 'the same page again');
    assert.ok(exchanges[1].at - exchanges[0].at >= 1_990, `waited ${exchanges[1].at - exchanges[0].at} ms of the 2 s asked`);
    assertSigned(exchanges[1]);
  });

  it("a 429 without one is waited out by the driver's own backoff", async () => {
    proxy.rateLimit(1);
    const id = world.listings.supplier_b[0].supplierStayId;
    const exchanges = await proxy.recorded(() => driver().quote(request([id]), AbortSignal.timeout(30_000)));
    assert.deepEqual(
      exchanges.map((e) => e.status),
      [429, 200],
    );
    const waited = exchanges[1].at - exchanges[0].at;
    assert.ok(waited >= HOTELBEDS_BACKOFF_MS - 10, `waited ${waited} ms, the backoff is ${HOTELBEDS_BACKOFF_MS}`);
  });
});
