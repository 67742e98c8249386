// The Expedia Rapid driver against the simulated Rapid slot, through a recording proxy: every answer
// of the simulator and every request the driver sends is held to Rapid's published schema
// (test-fixtures/supplier-specs/expedia-rapid/, Apache-2.0), and the driver's readings to the world's
// ground truth (simQuote, the world's listings as Rapid carries them). The proxy also stands in for
// Rapid's rate limiting (429 without Retry-After, as Rapid sends it); the slot's clock makes links expire.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { Ajv, type ValidateFunction } from 'ajv';
import { generateWorld, SIM_CREDENTIALS, simQuote, startSimSuppliers, type SimSuppliers, type World } from '@staygate/sim';
import { expediaRapidListing } from '../test-support/expedia-rapid-listing.ts';
import { testSupplierConfig } from '../test-support/supplier-config.ts';
import type { Listing } from '../types.ts';
import { createExpediaRapidDriver, EXPEDIA_RAPID_BACKOFF_MS, EXPEDIA_RAPID_MAX_IDS_PER_QUOTE } from './expedia-rapid.ts';
import { expediaRapidAuthHeaders, expediaRapidSignature } from './expedia-rapid-signature.ts';
import { SupplierError } from './supplier-error.ts';
import type { QuoteRequest, Supplier, SupplierConfig } from './supplier.ts';
import { startRecordingProxy, type Exchange, type RecordingProxy } from '../test-support/recording-proxy.ts';
import { defaults } from '../defaults.ts';

// --- the published schema ---------------------------------------------------------------------

const SPEC = JSON.parse(
  readFileSync(new URL('../../test-fixtures/supplier-specs/expedia-rapid/specs.content-availability.json', import.meta.url), 'utf8'),
) as Record<string, any>;

/**
 * Strict: an object schema with `properties` admits no other property, so a simulator that invents a
 * field fails here (the published file allows any). Not for the parts of an `allOf` (an answer's
 * Property and its rooms are one object split in two schemas).
 */
function strict(schema: unknown, inAllOf = false): void {
  if (typeof schema !== 'object' || schema === null) return;
  if (Array.isArray(schema)) {
    for (const item of schema) strict(item, inAllOf);
    return;
  }
  const node = schema as Record<string, unknown>;
  if (node.properties !== undefined && node.additionalProperties === undefined && !inAllOf) node.additionalProperties = false;
  for (const [key, value] of Object.entries(node)) strict(value, key === 'allOf');
}
for (const [name, schema] of Object.entries(SPEC.components.schemas as Record<string, unknown>)) if (name !== 'Property') strict(schema);

// OpenAPI 3.0 schemas are JSON Schema with extra keywords (`example`, `discriminator`): not validated, not refused.
const ajv = new Ajv({ strict: false, allErrors: true, logger: false });
ajv.addSchema(SPEC, 'rapid');
const schema = (ref: string): ValidateFunction => ajv.getSchema(ref) ?? assert.fail(`no schema ${ref}`);
const CONTENT_OP = SPEC.paths['/properties/content'].get;
const AVAILABILITY_OP = SPEC.paths['/properties/availability'].get;
const CONTENT_RS = ajv.compile({ $ref: 'rapid#/paths/~1properties~1content/get/responses/200/content/application~1json/schema' });
const PROPERTY_AVAILABILITY = schema('rapid#/components/schemas/PropertyAvailability');
const ERROR = schema('rapid#/components/schemas/Error');

function assertValid(validate: ValidateFunction, value: unknown, what: string): void {
  assert.ok(validate(value), `${what}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
}

/**
 * A request held to its operation's parameters: every required header and query parameter sent,
 * no query parameter the operation does not have, each value of its schema's type (arrays repeated).
 */
function assertRequest(operation: any, exchange: Exchange, what: string): void {
  const params = operation.parameters as { name: string; in: string; required?: boolean; schema: any }[];
  const known = new Set(params.filter((p) => p.in === 'query').map((p) => p.name));
  for (const name of new Set(exchange.query.keys())) assert.ok(known.has(name), `${what}: ${name} is a parameter of the operation`);
  for (const param of params) {
    if (param.in === 'header') {
      if (param.required) assert.ok(exchange.headers[param.name.toLowerCase()] !== undefined, `${what}: header ${param.name} sent`);
      continue;
    }
    const values = exchange.query.getAll(param.name);
    if (param.required) assert.ok(values.length > 0, `${what}: ${param.name} sent`);
    if (values.length === 0) continue;
    const typed = (type: string, text: string) => (type === 'number' ? Number(text) : type === 'boolean' ? text === 'true' : text);
    const value =
      param.schema.type === 'array' ? values.map((v) => typed(param.schema.items.type, v)) : typed(param.schema.type, values[0]);
    if (param.schema.type !== 'array') assert.equal(values.length, 1, `${what}: ${param.name} once`);
    assert.ok(ajv.validate(param.schema, value), `${what}: ${param.name}=${values.join(',')}: ${JSON.stringify(ajv.errors)}`);
  }
}

/** Rapid's 429: its Error body, and no Retry-After. */
const RAPID_TOO_MANY_REQUESTS = {
  body: { type: 'too_many_requests', message: 'You have reached your capacity for this type of request.' },
};

// --- the tests ---------------------------------------------------------------------------------

const STAY = { checkin: '2027-03-01', checkout: '2027-03-04' };
/** RAPID_LINK_TTL_MS of the simulator: 30 minutes. */
const LINK_TTL_MS = 30 * 60_000;

let world: World;
let sim: SimSuppliers;
let proxy: RecordingProxy;
/** The simulated suppliers' clock, moved to make a page link expire. */
let clockOffsetMs = 0;

before(async () => {
  world = generateWorld({ seed: 13, stays: 4_000 });
  sim = await startSimSuppliers({ world, latencyMs: 0, now: () => Date.now() + clockOffsetMs });
  assert.equal(sim.slots.supplier_d.api, 'expedia-rapid');
  proxy = await startRecordingProxy(sim.urls.supplier_d, ['authorization', 'accept', 'user-agent']);
});
after(async () => {
  await proxy.close();
  await sim.close();
});

const config = (overrides: Partial<SupplierConfig> = {}): SupplierConfig => ({
  ...testSupplierConfig('supplier_d', proxy.url, 'expedia-rapid'),
  ...overrides,
});
const driver = (overrides: Partial<SupplierConfig> = {}): Supplier => createExpediaRapidDriver(config(overrides), defaults);

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

async function allPages(supplier: Supplier, onPage?: (n: number) => void): Promise<Listing[]> {
  const out: Listing[] = [];
  let n = 0;
  for await (const page of supplier.contentPages()) {
    out.push(...page);
    onPage?.(++n);
  }
  return out;
}

function assertSigned(exchange: Exchange): void {
  const credentials = SIM_CREDENTIALS['expedia-rapid'];
  const match = /^EAN APIKey=([^,]+),Signature=([0-9a-f]{128}),timestamp=(\d+)$/.exec(String(exchange.headers.authorization));
  assert.ok(match, `Authorization of ${exchange.path}: ${exchange.headers.authorization}`);
  assert.equal(match[1], credentials.key);
  const seconds = Number(match[3]);
  assert.ok(Math.abs(seconds - Date.now() / 1_000) < 60, 'signed moments ago');
  assert.equal(match[2], expediaRapidSignature(credentials.key, credentials.secret, seconds));
}

describe('Expedia Rapid contract: content', () => {
  it('follows the Link to the end: the whole slot, answers and requests as the spec writes them', async () => {
    assert.ok(!CONTENT_RS({ 1: { property_id: '1', invented: true } }), 'the schema refuses a field it does not have');
    const listings: Listing[] = [];
    const exchanges = await proxy.recorded(async () => listings.push(...(await allPages(driver()))));
    const total = world.listings.supplier_d.length;
    assert.equal(exchanges.length, Math.ceil(total / 250), 'one request per page, to the end');
    exchanges.forEach((exchange, i) => {
      assert.equal(exchange.path, '/properties/content');
      assert.equal(exchange.status, 200);
      if (i === 0) {
        assertRequest(CONTENT_OP, exchange, 'the first page');
        assert.deepEqual([exchange.query.get('supply_source'), exchange.query.get('language')], ['vrbo', 'en-US']);
      } else assert.deepEqual([...exchange.query.keys()], ['token'], 'the next link as given');
      assert.equal(exchange.headers.accept, 'application/json');
      assertSigned(exchange);
      assertValid(CONTENT_RS, exchange.responseBody, `page ${i + 1}`);
      assert.equal(exchange.responseHeaders!.get('pagination-total-results'), String(total));
    });
    assert.equal(exchanges.at(-1)!.responseHeaders!.get('link'), null, 'the last page has no next');
    assert.deepEqual(
      listings,
      world.listings.supplier_d.map((l) => {
        const { propertyId: _propertyId, ...listing } = expediaRapidListing(l, sim.urls.supplier_d);
        return listing;
      }),
    );
    assert.ok(
      listings.some((l) => l.rating.value === null) && listings.some((l) => l.rating.value !== null),
      'ratings read, and none where nobody reviewed',
    );
    assert.ok(
      listings.some((l) => l.rating.hotelStars === null),
      'stars "0.0" read as none',
    );
  });

  it('an expired link is a 410: the pull starts over and yields every listing once', async () => {
    const listings: Listing[] = [];
    const exchanges = await proxy
      .recorded(async () =>
        listings.push(
          ...(await allPages(driver(), (n) => {
            // After the second page, the third page's link outlives its life.
            if (n === 2) clockOffsetMs += LINK_TTL_MS + 60_000;
          })),
        ),
      )
      .finally(() => {
        clockOffsetMs = 0;
      });
    const expired = exchanges.filter((e) => e.status === 410);
    assert.equal(expired.length, 1);
    assertValid(ERROR, expired[0].responseBody, 'the 410');
    assert.equal((expired[0].responseBody as { type: string }).type, 'link.expired');
    assert.equal(exchanges.filter((e) => !e.query.has('token')).length, 2, 'the first page asked again');
    assert.deepEqual(
      listings.map((l) => l.supplierStayId),
      world.listings.supplier_d.map((l) => l.supplierStayId),
      'each listing once, none lost',
    );
  });
});

describe('Expedia Rapid contract: availability', () => {
  it("prices every asked id at simQuote's total, leaves out what is not available, in the spec's shapes", async () => {
    const ids = world.listings.supplier_d.slice(0, 120).map((l) => l.supplierStayId);
    let answer = new Map();
    const [exchange, ...more] = await proxy.recorded(async () => {
      answer = await driver().quote(request([...ids, '99', 'V1']), AbortSignal.timeout(10_000));
    });
    assert.equal(more.length, 0, 'one call');
    assert.equal(exchange.path, '/properties/availability');
    assertRequest(AVAILABILITY_OP, exchange, 'the request');
    assert.deepEqual(exchange.query.getAll('property_id'), [...ids, '99'], 'V1 is no Rapid id');
    assertSigned(exchange);
    const body = exchange.responseBody as unknown[];
    body.forEach((property, i) => assertValid(PROPERTY_AVAILABILITY, property, `property ${i}`));
    let available = 0;
    for (const id of ids) {
      const truth = simQuote(world, 'supplier_d', id, { ...STAY, adults: 2, children: 0, childrenAges: null, rooms: 1, currency: 'USD' });
      assert.deepEqual(answer.get(id), truth, id);
      if (truth.available) available++;
      else assert.ok(!body.some((p: any) => p.property_id === id), `${id} absent from the answer`);
    }
    assert.ok(available > 0 && available < ids.length, `some available (${available}), some not`);
    assert.deepEqual([answer.get('99'), answer.get('V1')], [{ available: false }, { available: false }]);
  });

  it('sends a party of several rooms and children of unknown age, and adds its rooms up to simQuote', async () => {
    const ids = world.listings.supplier_d.slice(0, 80).map((l) => l.supplierStayId);
    const party = { adults: 5, children: 3, childrenAges: null, rooms: 3 };
    let answer = new Map();
    const [exchange] = await proxy.recorded(async () => {
      answer = await driver().quote(request(ids, party), AbortSignal.timeout(10_000));
    });
    assertRequest(AVAILABILITY_OP, exchange, 'the request');
    assert.equal(exchange.query.getAll('occupancy').length, 3, 'one occupancy per room');
    let available = 0;
    for (const id of ids) {
      // The driver sends a child of unknown age as 12 (EXPEDIA_RAPID_DEFAULT_CHILD_AGE).
      const truth = simQuote(world, 'supplier_d', id, { ...STAY, ...party, childrenAges: [12, 12, 12], currency: 'USD' });
      assert.deepEqual(answer.get(id), truth, id);
      if (truth.available) available++;
    }
    assert.ok(available > 0, `some available (${available})`);
  });

  it('`200 []` when none is available; at most 250 ids a call, and the API refuses 251 in its body', async () => {
    const closed = ['99', '98'];
    const [none] = await proxy.recorded(async () => {
      const answer = await driver().quote(request(closed), AbortSignal.timeout(10_000));
      assert.deepEqual([...answer.values()], [{ available: false }, { available: false }]);
    });
    assert.deepEqual([none.status, none.responseBody], [200, []]);
    assert.equal(driver().maxIdsPerQuote, EXPEDIA_RAPID_MAX_IDS_PER_QUOTE);
    assert.equal(EXPEDIA_RAPID_MAX_IDS_PER_QUOTE, 250);
    const many = Array.from({ length: 251 }, (_v, i) => String(i + 1));
    assert.equal(
      (await proxy.recorded(() => assert.rejects(driver().quote(request(many), AbortSignal.timeout(10_000)), RangeError))).length,
      0,
    );
    const full = await proxy.recorded(() => driver().quote(request(many.slice(0, 250)), AbortSignal.timeout(10_000)));
    assertRequest(AVAILABILITY_OP, full[0], '250 ids');
    const query = new URLSearchParams(full[0].query);
    query.append('property_id', '251');
    const credentials = SIM_CREDENTIALS['expedia-rapid'];
    const response = await fetch(`${proxy.url}/properties/availability?${query}`, {
      headers: expediaRapidAuthHeaders(credentials.key, credentials.secret, Date.now()),
    });
    assert.equal(response.status, 400);
    assertValid(ERROR, await response.json(), '400');
  });
});

describe('Expedia Rapid contract: authentication and rate limits', () => {
  it("a wrong secret is an `auth` failure carrying Rapid's own message, for content and quotes", async () => {
    const wrong = driver({ secret: 'not-the-secret' });
    const id = world.listings.supplier_d[0].supplierStayId;
    for (const run of [() => allPages(wrong), () => wrong.quote(request([id]), AbortSignal.timeout(10_000))]) {
      const exchanges = await proxy.recorded(() =>
        assert.rejects(run(), (error: unknown) => {
          assert.ok(error instanceof SupplierError, String(error));
          assert.equal(error.kind, 'auth');
          assert.equal(error.status, 401);
          assert.match(error.message, /Data required to authenticate your request is missing or inaccurate/);
          assert.doesNotMatch(error.message, /not-the-secret|sim-rapid-api-key/, 'no credential in the message');
          return true;
        }),
      );
      const body = exchanges.at(-1)!.responseBody as { type: string };
      assertValid(ERROR, body, 'the 401');
      assert.equal(body.type, 'request_unauthenticated');
    }
  });

  it('a clock far off signs wrongly: `auth` too', async () => {
    const late = driver({ now: () => Date.now() - 3_600_000 });
    await assert.rejects(allPages(late), (error: unknown) => error instanceof SupplierError && error.kind === 'auth');
  });

  it("a 429 without Retry-After is waited out by the driver's own backoff, then sent again, signed anew", async () => {
    proxy.rateLimit(1, RAPID_TOO_MANY_REQUESTS);
    const id = world.listings.supplier_d[0].supplierStayId;
    const exchanges = await proxy.recorded(() => driver().quote(request([id]), AbortSignal.timeout(30_000)));
    assert.deepEqual(
      exchanges.map((e) => e.status),
      [429, 200],
    );
    assertValid(ERROR, exchanges[0].responseBody, 'the 429');
    const waited = exchanges[1].at - exchanges[0].at;
    assert.ok(waited >= EXPEDIA_RAPID_BACKOFF_MS - 10, `waited ${waited} ms, the backoff is ${EXPEDIA_RAPID_BACKOFF_MS}`);
    assertSigned(exchanges[1]);
  });

  it('a 429 in the middle of a content pull is waited out too, and the pull goes on', async () => {
    const listings: Listing[] = [];
    const exchanges = await proxy.recorded(async () =>
      listings.push(...(await allPages(driver(), (n) => n === 1 && proxy.rateLimit(1, RAPID_TOO_MANY_REQUESTS)))),
    );
    assert.deepEqual(
      exchanges.slice(0, 3).map((e) => e.status),
      [200, 429, 200],
    );
    assert.equal(exchanges[1].query.get('token'), exchanges[2].query.get('token'), 'the same link again');
    assert.equal(listings.length, world.listings.supplier_d.length);
  });
});
