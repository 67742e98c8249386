import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, test } from 'node:test';
import { createHttpApp } from './create-http-app.ts';
import type { Services } from './route-context.ts';
import { startTestApp, type TestApp } from '../test-support/start-test-app.ts';
import { defaults } from '../defaults.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ stays: 2_000 });
});
after(async () => {
  await t.close();
});

function assertErrorBody(status: number, headers: Record<string, unknown>, body: any, code: string): void {
  assert.equal(body.statusCode, status);
  assert.equal(body.code, code);
  assert.equal(typeof body.error, 'string');
  assert.equal(typeof body.message, 'string');
  assert.match(body.requestId, /^[0-9a-f-]{36}$/);
  assert.equal(headers['x-request-id'], body.requestId);
  assert.ok(!JSON.stringify(body).includes('    at '), 'no stack trace');
}

test('an unknown route is a JSON 404 with a requestId', async () => {
  const res = await t.get('/v9/nothing?q=abc'); // (with an invalid key=, the answer is a 401: keys are judged first)
  assert.equal(res.status, 404);
  assertErrorBody(404, res.headers, res.body, 'NOT_FOUND');
  assert.equal(res.body.error, 'Not Found');
  assert.ok(!res.body.message.includes('abc'), "!res.body.message.includes('abc')");
});

test('another method on a known path is a JSON 405 with Allow', async () => {
  const res = await t.app.http.inject({ method: 'POST', url: '/v3/accommodations' });
  assert.equal(res.statusCode, 405);
  assert.equal(res.headers.allow, 'GET, HEAD');
  assertErrorBody(405, res.headers, res.json(), 'METHOD_NOT_ALLOWED');
});

test('a caller X-Request-Id is echoed when it is plain, replaced when it is not', async () => {
  const plain = await t.get('/v3/accommodations', { 'x-request-id': 'trace-abc-123' });
  assert.equal(plain.body.requestId, 'trace-abc-123');
  assert.equal(plain.headers['x-request-id'], 'trace-abc-123');
  const odd = await t.get('/v3/accommodations', { 'x-request-id': 'x<script>' });
  assert.notEqual(odd.body.requestId, 'x<script>');
});

test('malformed URLs and oversized or broken requests get the JSON error body over a real socket', async () => {
  await t.app.http.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.http.server.address() as net.AddressInfo;
  const raw = (request: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.end(request));
      let data = '';
      socket.on('data', (chunk) => {
        data += chunk;
      });
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
  const parse = (text: string) => {
    const [head, body] = text.split('\r\n\r\n');
    const status = Number(head.split(' ')[1]);
    const headers = Object.fromEntries(
      head
        .split('\r\n')
        .slice(1)
        .map((l) => [l.split(':')[0].toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
    );
    return { status, headers, body: JSON.parse(body) };
  };
  const badEncoding = parse(await raw('GET /v3/accommodations/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
  assert.equal(badEncoding.status, 400);
  assertErrorBody(400, badEncoding.headers, badEncoding.body, 'VALIDATION_ERROR');
  const huge = parse(await raw(`GET /v3/accommodations?address=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`));
  assert.equal(huge.status, 431);
  assertErrorBody(431, huge.headers, huge.body, 'HEADERS_TOO_LARGE');
  const garbage = parse(await raw('NOT HTTP AT ALL\r\n\r\n'));
  assert.equal(garbage.status, 400);
  assertErrorBody(400, garbage.headers, garbage.body, 'VALIDATION_ERROR');
});

test('/health is 503 until the index is built, then 200', async () => {
  let services: Services | null = null;
  const app = createHttpApp({
    settings: defaults,
    services: () => services,
    now: () => new Date(),
    publicUrl: null,
    logger: false,
  });
  const before = await app.inject('/health');
  assert.equal(before.statusCode, 503);
  assert.equal(before.json().code, 'NOT_READY');
  const search = await app.inject('/v3/accommodations?address=Paris');
  assert.equal(search.statusCode, 503);
  services = {
    search: async () => ({
      hits: [],
      total: 0,
      hasMore: false,
      unresolved: [],
      currency: 'USD',
      cache: 'HIT' as const,
      failures: {},
      clusters: null,
      clustering: null,
    }),
    inventory: { stays: 0, version: 'v' },
  };
  const ready = await app.inject('/health');
  assert.equal(ready.statusCode, 200);
  assert.equal(ready.json().status, 'ok');
  await app.close();
});

test('a public URL holding what JSON escapes still gives a JSON body, its links percent-encoded', async () => {
  // (A Host header cannot: it must be a valid host[:port], hostile-requests.test.ts.)
  const app = createHttpApp({
    settings: defaults,
    services: () => ({
      search: async () => ({
        hits: [],
        total: 0,
        hasMore: false,
        unresolved: [],
        currency: 'USD',
        cache: 'HIT' as const,
        failures: {},
        clusters: null,
        clustering: null,
      }),
      inventory: { stays: 0, version: 'v' },
    }),
    now: () => new Date(),
    publicUrl: 'http://gw.example/a"b\\c',
    logger: false,
  });
  const res = await app.inject({ url: '/v3/accommodations?address=Paris' });
  assert.equal(res.statusCode, 200);
  assert.equal(res.json()._links.self.href, 'http://gw.example/a%22b%5Cc/v3/accommodations?address=Paris&page=1');
  await app.close();
});

test('a failure inside the service is a 500 error body without internals', async () => {
  const app = createHttpApp({
    settings: defaults,
    services: () => ({
      search: async () => {
        throw new Error('secret internal detail');
      },
      inventory: { stays: 0, version: 'v' },
    }),
    now: () => new Date(),
    publicUrl: null,
    logger: false,
  });
  const res = await app.inject('/v3/accommodations?address=Paris');
  assert.equal(res.statusCode, 500);
  assertErrorBody(500, res.headers, res.json(), 'INTERNAL_ERROR');
  assert.ok(!res.body.includes('secret internal detail'), "!res.body.includes('secret internal detail')");
  await app.close();
});
