import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import type { Offers } from '../../search/price-stays.ts';
import type { SearchQuery } from '../../search/search-query.ts';
import type { SearchResult } from '../../search/search-result.ts';
import { startTestApp, type TestApp } from '../../test-support/start-test-app.ts';
import { deeplinks, pageLinks } from '../search/links.ts';
import { renderV3 } from './render-v3.ts';
import { v3ResponseSchema } from './v3-response-schema.ts';

// render-v3.ts writes the v3 body as text instead of serialising it by the schema: here every
// body of a spread of requests is held to the schema, strictly (no property it does not name,
// every type, every required field) and in the schema's key order.

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  additionalProperties?: boolean;
} & Record<string, unknown>;

/** The schema as plain JSON, every object closed to properties it does not name. */
function strict(schema: unknown): JsonSchema {
  const copy = JSON.parse(JSON.stringify(schema)) as JsonSchema;
  const close = (s: JsonSchema): void => {
    if (s.properties !== undefined) {
      s.additionalProperties = false;
      Object.values(s.properties).forEach(close);
    }
    if (s.items !== undefined) close(s.items);
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) (s[key] as JsonSchema[] | undefined)?.forEach(close);
  };
  close(copy);
  return copy;
}

/** Paths where a body's keys are not in the order the schema lists them. */
function keyOrderErrors(value: unknown, schema: JsonSchema, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => (schema.items ? keyOrderErrors(item, schema.items, `${path}/${i}`) : []));
  if (value === null || typeof value !== 'object' || schema.properties === undefined) return [];
  const order = Object.keys(schema.properties);
  const keys = Object.keys(value);
  const errors = keys.some((k, i) => i > 0 && order.indexOf(keys[i - 1]) > order.indexOf(k)) ? [`${path}: ${keys.join(',')}`] : [];
  for (const key of keys)
    errors.push(...keyOrderErrors((value as Record<string, unknown>)[key], schema.properties[key] ?? {}, `${path}/${key}`));
  return errors;
}

const schema = strict(v3ResponseSchema);
const validator = new Ajv({ allErrors: true, formats: { unsafe: true } }).compile(schema);
/** Whether a parsed body fits the strict schema (not a type guard: bodies stay `any` for the assertions). */
const validate = Object.assign((data: unknown): boolean => validator(data), {
  get errors() {
    return validator.errors;
  },
});

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const V3 = '/v3/accommodations';
const PARIS = 'nelat=48.90&nelng=2.42&swlat=48.82&swlng=2.27';
const DATES = 'checkin=2027-03-05&checkout=2027-03-08';

async function body(query: string): Promise<any> {
  const res = await t.get(`${V3}?${query}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.match(String(res.headers['content-type']), /^application\/json; charset=utf-8$/);
  assert.ok(validate(res.body), `${query}: ${JSON.stringify(validate.errors)}`);
  assert.deepEqual(keyOrderErrors(res.body, schema), [], query);
  return res.body;
}

describe('the v3 body written as text', () => {
  test('static, paged, filtered by provider and type, radius and address searches match the schema', async () => {
    for (const query of [
      `${PARIS}&pageSize=100`,
      `${PARIS}&pageSize=7&page=3&provider=supplier_b,supplier_d&type=rental`,
      `${PARIS}&minstarrating=4&aid=blog&campaign=spring`,
      'lat=35.68&lng=139.76&radius=5000&pageSize=50',
      'address=Rome&pageSize=50',
      'hotelsearch=hotel&lat=48.85&lng=2.35&pageSize=20',
    ])
      await body(query);
  });

  test('ID lookups say distance 0: v3 types distanceInMeters as a number (docs/decisions.md)', async () => {
    const [stay] = (await body(`${PARIS}&pageSize=3`)).results;
    const lookup = await body(`hotelids=${stay.id}`);
    assert.equal(lookup.results[0].location.distanceInMeters, 0);
    assert.deepEqual(lookup.results[0].name, stay.name);
  });

  test('dated searches carry prices, and null prices for a failing supplier', async () => {
    const priced = await body(`${PARIS}&${DATES}&pageSize=30`);
    const prices = priced.results.flatMap((r: any) => Object.values(r.suppliers).map((e: any) => e.price));
    assert.ok(
      prices.some((p: unknown) => p !== null && typeof p === 'object'),
      'some prices',
    );
    await t.sim.setFault('supplier_a', 'error');
    try {
      const failing = await body(`${PARIS}&checkin=2027-04-05&checkout=2027-04-07&pageSize=30`);
      const entries = failing.results.map((r: any) => r.suppliers.supplier_a).filter(Boolean);
      assert.ok(entries.length > 0 && entries.every((e: any) => e.price === null), 'supplier_a prices are null');
    } finally {
      await t.sim.setFault('supplier_a', null);
    }
  });

  test('clustered answers: clusters with auto, cell ids with top', async () => {
    const auto = await body('nelat=55&nelng=15&swlat=40&swlng=-10&cluster=auto');
    assert.ok(auto.clusters.length > 0, 'auto.clusters.length > 0');
    const top = await body('nelat=55&nelng=15&swlat=40&swlng=-10&cluster=top&pageSize=50');
    assert.ok(
      top.results.every((r: any) => typeof r.cellId === 'string'),
      "top.results.every((r: any) => typeof r.cellId === 'string')",
    );
  });

  test('text that JSON escapes survives: quotes, backslashes, control characters and any script', () => {
    const hostile = 'Hôtel "Le \\ Nid"\n\t東京 😀 \u2028';
    const listing = {
      supplier: 'supplier_b' as const,
      supplierStayId: 'x"1',
      name: hostile,
      typeLabel: hostile,
      type: 'hotel' as const,
      address: hostile,
      lat: 1.5,
      lng: -2.25,
      rating: { value: 8.4, hotelStars: null, count: 12 },
      capacity: { guests: 2, bedrooms: null, beds: 1, bathrooms: 0.5 },
      policies: { instantBook: true, freeCancellation: false },
      media: { thumbnail: 'https://i.example/t.jpg', logoSquare: 'https://i.example/l.png' },
    };
    const stay = {
      idx: 0,
      id: 'st0123456789ab',
      name: hostile,
      type: 'hotel' as const,
      typeLabel: hostile,
      address: hostile,
      lat: 1.5,
      lng: -2.25,
      h3: '8f0000000000000',
      capacity: listing.capacity,
      averageRating: listing.rating,
      listings: [listing],
    };
    const query = {
      providers: null,
      page: 1,
      pageSize: 10,
      dates: { checkin: '2027-03-05', checkout: '2027-03-08', nights: 3 },
    } as unknown as SearchQuery;
    const result: SearchResult = {
      hits: [{ stay, distanceMeters: 12.5, offers: new Map([['supplier_b', 301.25]]) as Offers, cellId: '8a1fb46622dffff' }],
      total: 1,
      hasMore: false,
      unresolved: ['a"b'],
      currency: 'EUR',
      cache: 'MISS',
      failures: {},
      clusters: null,
      clustering: null,
    };
    const text = renderV3(
      result,
      query,
      pageLinks('http://gw.test', V3, 'a=1', { page: 1, pageSize: 10, hasMore: false, total: 1 }),
      deeplinks('http://gw.test', { aid: 'a"id', campaign: null }),
      () => '',
      [{ param: 'min"', reason: 'a "quoted" reason' }],
    );
    const parsed = JSON.parse(text) as any;
    assert.ok(validate(parsed), JSON.stringify(validate.errors));
    const [r] = parsed.results;
    assert.deepEqual([r.name, r.type, r.location.address], [hostile, hostile, hostile]);
    assert.deepEqual(r.suppliers.supplier_b.price, { total: 301.25 });
    assert.equal(r.suppliers.supplier_b.link, 'http://gw.test/go/supplier_b/x%221?aid=a%22id');
    assert.deepEqual(r.capacity, { guests: 2, bedrooms: null, beds: 1, bathrooms: 0.5 });
    assert.equal(r.averageRatings.hotelStars, null);
    assert.equal(r.cellId, '8a1fb46622dffff');
    assert.deepEqual(parsed.meta.unresolved, ['a"b']);
    assert.deepEqual(parsed.meta.ignored, [{ param: 'min"', reason: 'a "quoted" reason' }]);
    assert.deepEqual(parsed.meta.unavailableSuppliers, []);
  });
  test('a missing guest rating is written null, per supplier and in averageRatings, never 0 (docs/decisions.md 135)', () => {
    const base = {
      supplierStayId: '1',
      name: 'Budget Inn',
      typeLabel: 'Hotel',
      type: 'hotel' as const,
      address: '1 Main Street',
      lat: 1.5,
      lng: -2.25,
      capacity: { guests: 2, bedrooms: null, beds: 1, bathrooms: 1 },
      policies: { instantBook: true, freeCancellation: false },
      media: { thumbnail: 'https://i.example/t.jpg', logoSquare: 'https://i.example/l.png' },
    };
    const rated = { ...base, supplier: 'supplier_a' as const, rating: { value: 8.4, hotelStars: 3, count: 12 } };
    const unrated = { ...base, supplier: 'supplier_b' as const, rating: { value: null, hotelStars: 3, count: 0 } };
    const stay = (id: string, listings: (typeof rated | typeof unrated)[], value: number | null) => ({
      idx: 0,
      id,
      name: base.name,
      type: base.type,
      typeLabel: base.typeLabel,
      address: base.address,
      lat: base.lat,
      lng: base.lng,
      h3: '8f0000000000000',
      capacity: base.capacity,
      averageRating: { value, hotelStars: 3, count: value === null ? 0 : 12 },
      listings,
    });
    const result: SearchResult = {
      hits: [
        { stay: stay('st0000000000a1', [rated, unrated], 8.4), distanceMeters: 1, offers: null },
        { stay: stay('st0000000000b2', [unrated], null), distanceMeters: 2, offers: null },
      ],
      total: 2,
      hasMore: false,
      unresolved: [],
      currency: 'USD',
      cache: 'HIT',
      failures: {},
      clusters: null,
      clustering: null,
    };
    const query = { providers: null, page: 1, pageSize: 10, dates: null } as unknown as SearchQuery;
    const text = renderV3(
      result,
      query,
      pageLinks('http://gw.test', V3, 'a=1', { page: 1, pageSize: 10, hasMore: false, total: 2 }),
      deeplinks('http://gw.test', { aid: null, campaign: null }),
      () => '',
      [],
    );
    const parsed = JSON.parse(text) as any;
    assert.ok(validate(parsed), JSON.stringify(validate.errors));
    const [mixed, none] = parsed.results;
    assert.deepEqual(mixed.suppliers.supplier_a.rating, { value: 8.4, hotelStars: 3, count: 12 });
    assert.deepEqual(mixed.suppliers.supplier_b.rating, { value: null, hotelStars: 3, count: 0 });
    assert.deepEqual(mixed.averageRatings, { value: 8.4, hotelStars: 3, count: 12 });
    assert.deepEqual(none.suppliers.supplier_b.rating, { value: null, hotelStars: 3, count: 0 });
    assert.deepEqual(none.averageRatings, { value: null, hotelStars: 3, count: 0 });
  });
});
