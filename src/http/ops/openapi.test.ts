// GET /openapi.json: a valid OpenAPI 3.1 document (checked by a real validator), generated from the
// route schemas, and what the service really answers: real responses of every version, success and
// error, reporting JSON and health, are held to the schemas it publishes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestApp, type TestApp } from '../../test-support/start-test-app.ts';
import { createResponseValidator } from '../../test-support/openapi-validator.ts';

let t: TestApp;
let document: any;
let key: string;
/** Every route the server registered (Fastify's onRoute, hooked before the routes are loaded): its method(s) and URL. */
const routes: { method: string | string[]; url: string }[] = [];

/**
 * Routes the document leaves out on purpose, each with why: static files the pages load, which no
 * client calls and which a reader of the reference has no use for.
 */
const STATIC_FILES: Record<string, string> = {
  '/assets/:name': "the map's and the hub's scripts and styles (web/dist)",
  '/assets/basemap/:version/:z/:x/:tile': "the offline map's street tiles, which the map page loads",
  '/docs/assets/:file': "Swagger UI's script, style and icon for /docs",
  '/favicon.ico': 'the icon browsers ask for with every page',
};

/**
 * The full paths of Fastify's route tree as `printRoutes({ commonPrefix: false })` draws it: one
 * node a line (`├── /health (GET, HEAD)`), its depth in the 4-character columns before it.
 */
function routedPaths(tree: string): { path: string; methods: string[] }[] {
  const stack: string[] = [];
  const paths: { path: string; methods: string[] }[] = [];
  for (const line of tree.split('\n')) {
    const node = /^((?:│ {3}| {4})*)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line);
    if (node === null) continue;
    stack.length = node[1].length / 4;
    stack.push(node[2]);
    if (node[3] !== undefined && node[2] !== '*') paths.push({ path: stack.join(''), methods: node[3].split(', ') });
  }
  return paths;
}

before(async () => {
  t = await startTestApp({ stays: 2_000 });
  // Added before the first request loads the route plugin, so it sees every route as it is added.
  t.app.http.addHook('onRoute', (route) => {
    routes.push({ method: route.method, url: route.url });
  });
  const res = await t.app.http.inject('/openapi.json');
  assert.equal(res.statusCode, 200);
  assert.match(String(res.headers['content-type']), /application\/json/);
  document = res.json();
  key = await t.createKey({ aid: 'aff-openapi', thirdParties: ['shop'] });
});
after(async () => {
  await t.close();
});

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    assert.deepEqual(result.errors ?? [], [], JSON.stringify(result.errors, null, 2));
    assert.equal(result.valid, true);
    assert.equal(validator.version, '3.1');
  });

  it('covers every endpoint, with the error body and both ways of sending a key', () => {
    assert.deepEqual(Object.keys(document.paths).sort(), [
      '/.well-known/agent-skills/accommodation-search/SKILL.md',
      '/docs',
      '/docs/api',
      '/docs/decisions',
      '/docs/migrating-v1-to-v3',
      '/go/{id}',
      '/go/{supplier}/{supplierStayId}',
      '/health',
      '/health/live',
      '/hub',
      '/map',
      '/map/v3/accommodations',
      '/mcp',
      '/metrics',
      '/openapi.json',
      '/v1/accommodations',
      '/v1/reporting/summary',
      '/v1/reporting/transactions',
      '/v2/accommodations',
      '/v3/accommodations',
    ]);
    assert.ok(document.components.schemas.ErrorBody, 'document.components.schemas.ErrorBody');
    assert.equal(document.components.securitySchemes.apiKeyHeader.in, 'header');
    assert.equal(document.components.securitySchemes.apiKeyHeader.name, 'X-API-KEY');
    assert.equal(document.components.securitySchemes.apiKeyQuery.in, 'query');
    assert.equal(document.components.securitySchemes.apiKeyQuery.name, 'key');
    assert.ok(document.paths['/v1/accommodations'].get.deprecated, "document.paths['/v1/accommodations'].get.deprecated");
    // Reporting needs a key; search does not (an empty requirement is keyless access).
    assert.ok(
      !document.paths['/v1/reporting/transactions'].get.security.some((r: object) => Object.keys(r).length === 0),
      "!document.paths['/v1/reporting/transactions'].get.security.some((r: object) => Object.keys(r).length === 0)",
    );
    assert.ok(
      document.paths['/v3/accommodations'].get.security.some((r: object) => Object.keys(r).length === 0),
      "document.paths['/v3/accommodations'].get.security.some((r: object) => Object.keys(r).length === 0)",
    );
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, op] of Object.entries(methods as Record<string, any>)) {
        for (const status of Object.keys(op.responses).filter((s) => Number(s) >= 400)) {
          assert.equal(
            op.responses[status].content['application/json'].schema.$ref,
            '#/components/schemas/ErrorBody',
            `${method} ${path} ${status}`,
          );
        }
      }
    }
  });

  it('the route list is complete: every method and path Fastify routes (printRoutes) was seen by the hook', async () => {
    await t.app.http.ready();
    // One parameter name or another at the same place is the same path to the router (/go/:supplier|:id).
    const shape = (url: string) => url.replace(/:[^/]+/g, ':');
    const seen = new Set(routes.flatMap((r) => [r.method].flat().map((method) => `${method} ${shape(r.url)}`)));
    const routed = routedPaths(t.app.http.printRoutes({ commonPrefix: false })).flatMap(({ path, methods }) =>
      methods.map((method) => `${method} ${shape(path)}`),
    );
    assert.ok(routed.length >= 60, `printRoutes was read (${routed.join(', ')})`);
    assert.deepEqual(
      routed.filter((route) => !seen.has(route)),
      [],
      'routes registered where the hook (and the OpenAPI generator) cannot see them',
    );
  });

  it('documents every route the server answers, but for the static files it names', () => {
    // What a client calls is a route of one method, GET or POST; the others follow from them (the
    // HEAD twin of each GET, the 405 answers registered for several methods at once).
    const called = routes.flatMap(({ method, url }) =>
      (method === 'GET' || method === 'POST') && !Object.hasOwn(STATIC_FILES, url) ? [{ method, url }] : [],
    );
    assert.ok(called.length >= 15, `the hook saw the routes (${called.map((r) => r.url).join(' ')})`);
    const missing = called
      .map(({ method, url }) => ({ method: method.toLowerCase(), path: url.replace(/:(\w+)/g, '{$1}') }))
      .filter(({ method, path }) => document.paths[path]?.[method] === undefined)
      .map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    assert.deepEqual(missing, [], 'routes the OpenAPI document lacks');
    for (const url of Object.keys(STATIC_FILES))
      assert.ok(
        routes.some((r) => r.url === url && r.method === 'GET'),
        `${url} is still a route (else drop it from STATIC_FILES)`,
      );
  });

  it('describes every parameter, with an example', () => {
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const op of Object.values(methods as Record<string, any>)) {
        for (const parameter of op.parameters ?? []) {
          const name = `${path} ${parameter.name}`;
          assert.ok(typeof parameter.description === 'string' && parameter.description.length > 10, `${name} has a description`);
          if (parameter.name !== 'key')
            assert.ok(parameter.example !== undefined || parameter.schema.examples !== undefined, `${name} has an example`);
        }
      }
    }
    const v3 = document.paths['/v3/accommodations'].get.parameters.map((p: { name: string }) => p.name);
    for (const name of [
      'provider',
      'address',
      'lat',
      'lng',
      'radius',
      'hotelids',
      'checkin',
      'checkout',
      'currency',
      'pageSize',
      'page',
      'cluster',
      'precision',
      'cell',
    ]) {
      assert.ok(v3.includes(name), name);
    }
  });

  it('is the document the routes were registered with (generated, never hand-written)', async () => {
    await t.app.http.ready();
    assert.deepEqual(document, JSON.parse(JSON.stringify(t.app.http.swagger())));
  });
});

describe('real responses match the published schemas', () => {
  let check: ReturnType<typeof createResponseValidator>;
  before(() => {
    check = createResponseValidator(document);
  });

  async function holds(url: string, expected: number, headers: Record<string, string> = {}): Promise<void> {
    const res = await t.app.http.inject({ url, headers });
    assert.equal(res.statusCode, expected, `${url}: ${res.body.slice(0, 300)}`);
    const type = String(res.headers['content-type'] ?? '');
    const body = type.includes('json') ? res.json() : res.body;
    const { template, problems } = check('GET', url, res.statusCode, type, body);
    assert.notEqual(template, null, `${url} is in the document`);
    assert.deepEqual(problems, [], url);
  }

  it('search, every version: static, dated, clustered, ID lookups, ignored parameters', async () => {
    for (const version of ['v2', 'v3']) {
      await holds(`/${version}/accommodations?address=Paris&pageSize=5&nonsense=1`, 200);
      await holds(`/${version}/accommodations?address=Paris&pageSize=5&checkin=2027-01-10&checkout=2027-01-12&currency=EUR`, 200);
      await holds(`/${version}/accommodations?nelat=49.2&nelng=2.9&swlat=48.4&swlng=1.8&cluster=auto`, 200);
      await holds(`/${version}/accommodations?nelat=49.2&nelng=2.9&swlat=48.4&swlng=1.8&cluster=top`, 200);
      await holds(`/${version}/accommodations?hotelids=supplier_a:nothing,xyz`, 200);
      await holds(`/${version}/accommodations?address=Paris&checkin=2027-01-10`, 200, { 'x-api-key': key });
    }
    await holds('/v1/accommodations?provider=supplier_a&address=Paris&limit=3&extra=1', 200);
  });

  it('errors, every version', async () => {
    for (const version of ['v1', 'v2', 'v3']) {
      await holds(`/${version}/accommodations?provider=supplier_a`, 400);
      await holds(`/${version}/accommodations?provider=supplier_a&lat=91&lng=0&checkin=2027-02-30`, 400);
      await holds(`/${version}/accommodations?provider=supplier_a&address=Paris`, 401, { 'x-api-key': 'sg_nope' });
    }
  });

  it('reporting JSON, its errors, /go and health', async () => {
    await holds('/v1/reporting/transactions?thirdParty=shop&format=json', 200, { 'x-api-key': key });
    await holds('/v1/reporting/transactions?thirdParty=shop', 200, { 'x-api-key': key }); // CSV: documented, not JSON
    await holds('/v1/reporting/transactions?thirdParty=other&format=json&limit=0', 400, { 'x-api-key': key });
    await holds('/v1/reporting/transactions?thirdParty=shop', 401);
    const stay = (await t.app.http.inject('/v3/accommodations?address=Paris&pageSize=1')).json().results[0];
    await holds(new URL(stay.url).pathname, 302);
    await holds('/go/supplier_a/nothing-here', 404);
    await holds('/go/unknown-stay', 404);
    await holds('/health', 200);
    await holds('/health/live', 200);
  });

  it('the pages, the map search, documentation, metrics and the agent skill', async () => {
    for (const url of [
      '/map?address=Paris&aid=aff',
      '/hub',
      '/map/v3/accommodations?nelat=49.2&nelng=2.9&swlat=48.4&swlng=1.8&cluster=auto',
      '/openapi.json',
      '/docs',
      '/docs/api',
      '/metrics',
      '/.well-known/agent-skills/accommodation-search/SKILL.md',
    ])
      await holds(url, 200);
  });
});
