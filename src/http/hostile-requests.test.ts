// What a hostile header, a key under another spelling or a broken connection must not do
// (issue 13, defects 5, 7 and 8): every answer is the JSON error body with a request id, no key
// reaches a link or a log, and no Host reaches a link unchecked.
import assert from 'node:assert/strict';
import net from 'node:net';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { createHttpApp } from './create-http-app.ts';
import type { Services } from './route-context.ts';
import type { SearchResult } from '../search/search-result.ts';
import type { Stay } from '../types.ts';
import { defaults } from '../defaults.ts';

const stay: Stay = {
  idx: 0,
  id: 'st0123456789ab',
  name: 'A',
  type: 'hotel',
  typeLabel: 'Hotel',
  address: 'x',
  lat: 48.85,
  lng: 2.35,
  h3: '8f1fb46622dc0a1',
  capacity: { guests: 2, bedrooms: 1, beds: 1, bathrooms: 1 },
  averageRating: { value: 8, hotelStars: null, count: 1 },
  listings: [
    {
      supplier: 'supplier_a',
      supplierStayId: '1',
      name: 'A',
      typeLabel: 'Hotel',
      type: 'hotel',
      address: 'x',
      lat: 48.85,
      lng: 2.35,
      rating: { value: 8, hotelStars: null, count: 1 },
      capacity: { guests: 2, bedrooms: 1, beds: 1, bathrooms: 1 },
      policies: { instantBook: true, freeCancellation: true },
      media: { thumbnail: 'https://i.example/t.jpg', logoSquare: 'https://i.example/l.png' },
    },
  ],
};
const result: SearchResult = {
  hits: [{ stay, distanceMeters: 10, offers: null }],
  total: 30,
  hasMore: true,
  unresolved: [],
  currency: 'USD',
  cache: 'HIT',
  failures: {},
  clusters: [
    { id: '881fb46625fffff', lat: 48.85, lng: 2.35, bounds: { ne: { lat: 48.9, lng: 2.4 }, sw: { lat: 48.8, lng: 2.3 } }, count: 9 },
  ],
  clustering: { strategy: 'h3', precision: 8, mode: 'auto' },
};
const services: Services = { search: async () => result, inventory: { stays: 1, version: 'v' } };

const logLines: string[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    logLines.push(String(chunk));
    done();
  },
});
const app = createHttpApp({
  settings: defaults,
  services: () => services,
  now: () => new Date(),
  publicUrl: null,
  logger: { level: 'info', stream: logStream },
  headersTimeoutMs: 200,
});
const pinned = createHttpApp({
  settings: defaults,
  services: () => services,
  now: () => new Date(),
  publicUrl: 'https://api.staygate.example',
  logger: false,
});
after(async () => {
  await Promise.all([app.close(), pinned.close()]);
});

const SEARCH = '/v3/accommodations?nelat=48.9&nelng=2.4&swlat=48.8&swlng=2.3&cluster=auto';

function assertErrorBody(status: number, headers: Record<string, unknown>, body: any): void {
  assert.equal(body.statusCode, status, JSON.stringify(body));
  assert.equal(typeof body.code, 'string');
  assert.equal(typeof body.message, 'string');
  assert.equal(headers['x-request-id'], body.requestId);
}

describe('the Host header', () => {
  test('a Host that is not host[:port] is a 400, never a link', async () => {
    for (const host of [
      'evil.example/x?y#z',
      'user@evil.example',
      'evil"\\host',
      'a b',
      'evil.example:99999',
      'evil.example:',
      '-bad.example',
    ]) {
      const res = await app.inject({ url: SEARCH, headers: { host } });
      assert.equal(res.statusCode, 400, `Host ${JSON.stringify(host)}`);
      assertErrorBody(400, res.headers, res.json());
      assert.ok(!res.body.includes('/go/'), 'no links in the answer');
    }
    for (const host of ['gw.example:8080', 'gw.example', '127.0.0.1:3000', '[::1]:3000', 'localhost']) {
      const res = await app.inject({ url: SEARCH, headers: { host } });
      assert.equal(res.statusCode, 200, host);
      assert.ok(res.json()._links.self.href.startsWith(`http://${host}/v3/`), host);
    }
  });

  test('STAYGATE_PUBLIC_URL pins every link, whatever the Host says', async () => {
    const res = await pinned.inject({ url: SEARCH, headers: { host: 'other.example' } });
    const body = res.json();
    assert.ok(body._links.self.href.startsWith('https://api.staygate.example/'), body._links.self.href);
    assert.ok(body.results[0].url.startsWith('https://api.staygate.example/go/'), body.results[0].url);
    assert.ok(body.clusters[0]._links.expand.href.startsWith('https://api.staygate.example/'), body.clusters[0]._links.expand.href);
  });

  test('answers say no shared cache may keep them for another client', async () => {
    for (const url of [SEARCH, '/v3/accommodations', '/health']) {
      const res = await app.inject(url);
      assert.match(String(res.headers['cache-control']), /private/, url);
      assert.match(String(res.headers.vary), /Host/, url);
      assert.match(String(res.headers.vary), /X-API-KEY/i, url);
    }
  });
});

describe('a key under another spelling', () => {
  const spellings = ['KEY', 'Key', 'key%20', 'key%00', '%key', 'k%C3%A9y', 'ke%79', '+key'];

  test('reaches no link', async () => {
    for (const name of spellings) {
      const res = await app.inject(`${SEARCH}&${name}=sg_secret_value`);
      assert.equal(res.statusCode, 200, name);
      assert.ok(!res.body.includes('sg_secret_value'), `${name}: ${res.body.slice(0, 300)}`);
      assert.ok(res.json()._links.next.href.includes('page=2'), 'the other parameters stay');
    }
  });

  test('reaches no log line', async () => {
    logLines.length = 0;
    for (const name of spellings) await app.inject(`/nowhere?${name}=sg_secret_value&q=1`);
    assert.ok(logLines.length >= spellings.length, `${logLines.length} log lines`);
    for (const line of logLines) assert.ok(!line.includes('sg_secret_value'), line);
  });
});

describe('framing', () => {
  let port = 0;
  before(async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as net.AddressInfo).port;
  });

  /** Sends bytes (leaving the socket open unless asked), and resolves with everything the server wrote once it closes. */
  const raw = (bytes: string, end = true) =>
    new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      const socket = net.connect(port, '127.0.0.1', () => (end ? socket.end(bytes) : socket.write(bytes)));
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('close', () => resolve(Buffer.concat(chunks).toString()));
      socket.on('error', reject);
    });
  const parse = (response: string) => {
    const [head, body] = response.split('\r\n\r\n');
    const status = Number(head.split(' ')[1]);
    const requestId = /x-request-id: (.+)/i.exec(head)?.[1]?.trim();
    return { status, body: JSON.parse(body), requestId };
  };

  test('headers that never finish are a 408 with the error body', async () => {
    const res = parse(await raw('GET /v3/accommodations HTTP/1.1\r\nHost: gw.example\r\nX-Slow: ', false));
    assert.equal(res.status, 408);
    assert.equal(res.body.code, 'REQUEST_TIMEOUT');
    assert.equal(res.body.requestId, res.requestId);
  });

  test('a request without Host is a JSON 400 with a request id', async () => {
    const res = parse(await raw('GET /v3/accommodations HTTP/1.1\r\nConnection: close\r\n\r\n'));
    assert.equal(res.status, 400);
    assert.match(res.body.message, /no Host header/);
    assert.equal(res.body.requestId, res.requestId);
  });

  test('CONNECT is answered, with the error body', async () => {
    const res = parse(await raw('CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n'));
    assert.equal(res.status, 405);
    assert.equal(res.body.code, 'METHOD_NOT_ALLOWED');
    assert.equal(res.body.requestId, res.requestId);
  });
});
