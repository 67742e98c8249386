import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { foldText } from '../text/fold-text.ts';
import { GeocoderError } from './geocoder-error.ts';
import { runGeocoderContract } from '../test-support/contracts/geocoder-contract.ts';
import { createHttpGeocoder } from './http-geocoder.ts';

/** What the fake Nominatim answers, switched per test. */
type Mode = 'normal' | 'status500' | 'hang' | 'badJson' | 'notArray' | 'noLat';

const PARIS_RESULT = {
  place_id: 88066702,
  lat: '48.8534951',
  lon: '2.3483915',
  category: 'boundary',
  type: 'administrative',
  display_name: 'Paris, Île-de-France, France métropolitaine, France',
};

interface FakeNominatim {
  baseUrl: string;
  mode: Mode;
  requests: Array<{ url: URL; userAgent: string | undefined }>;
  close(): Promise<void>;
}

/** A loopback stand-in for Nominatim that knows one city, so tests need no internet. */
async function startFakeNominatim(pathPrefix = ''): Promise<FakeNominatim> {
  const fake: FakeNominatim = { baseUrl: '', mode: 'normal', requests: [], close: async () => undefined };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    fake.requests.push({ url, userAgent: req.headers['user-agent'] });
    const send = (status: number, body: string): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(body);
    };
    if (url.pathname !== `${pathPrefix}/search`) return send(404, '{"error":"not found"}');
    switch (fake.mode) {
      case 'status500':
        return send(500, '{"error":"boom"}');
      case 'hang':
        return; // never answers; the client's timeout must fire
      case 'badJson':
        return send(200, '[{"lat": ');
      case 'notArray':
        return send(200, '{"error":"Nothing to search for"}');
      case 'noLat':
        return send(200, JSON.stringify([{ lon: '2.35', display_name: 'Paris' }]));
      case 'normal': {
        const q = foldText(url.searchParams.get('q') ?? '');
        return send(200, JSON.stringify(q.split(' ').includes('paris') ? [PARIS_RESULT] : []));
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  fake.baseUrl = `http://127.0.0.1:${port}${pathPrefix}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

describe('http geocoder', () => {
  let fake: FakeNominatim;
  before(async () => {
    fake = await startFakeNominatim();
  });
  after(() => fake.close());

  runGeocoderContract('http (fake Nominatim)', async () => {
    fake.mode = 'normal';
    return createHttpGeocoder({ baseUrl: fake.baseUrl, timeoutMs: 2_000 });
  });

  it('asks /search for one jsonv2 result and identifies itself', async () => {
    fake.mode = 'normal';
    fake.requests.length = 0;
    const place = await createHttpGeocoder({ baseUrl: fake.baseUrl, timeoutMs: 2_000 }).geocode('  12 Rue de Rivoli, Paris ');
    assert.deepEqual(place, { lat: 48.8534951, lng: 2.3483915, label: PARIS_RESULT.display_name });
    assert.equal(fake.requests.length, 1);
    const { url, userAgent } = fake.requests[0];
    assert.equal(url.pathname, '/search');
    assert.equal(url.searchParams.get('q'), '12 Rue de Rivoli, Paris');
    assert.equal(url.searchParams.get('format'), 'jsonv2');
    assert.equal(url.searchParams.get('limit'), '1');
    assert.match(userAgent ?? '', /staygate/);
  });

  it('does not call the service for a blank address', async () => {
    fake.requests.length = 0;
    assert.equal(await createHttpGeocoder({ baseUrl: fake.baseUrl, timeoutMs: 2_000 }).geocode(' \t '), null);
    assert.equal(fake.requests.length, 0);
  });

  it('keeps a base path, with or without a trailing slash', async () => {
    const mounted = await startFakeNominatim('/nominatim');
    try {
      for (const baseUrl of [mounted.baseUrl, `${mounted.baseUrl}/`]) {
        const place = await createHttpGeocoder({ baseUrl, timeoutMs: 2_000 }).geocode('Paris');
        assert.equal(place?.label, PARIS_RESULT.display_name, baseUrl);
      }
    } finally {
      await mounted.close();
    }
  });

  it('uses an injected fetch', async () => {
    const seen: string[] = [];
    const fakeFetch: typeof fetch = async (input) => {
      seen.push(String(input));
      return new Response(JSON.stringify([{ lat: 51.5, lon: -0.12, display_name: '' }]), { status: 200 });
    };
    const place = await createHttpGeocoder({ baseUrl: 'http://geo.invalid', timeoutMs: 1_000, fetch: fakeFetch }).geocode('London');
    // Numeric coordinates are accepted; an empty display_name falls back to the query.
    assert.deepEqual(place, { lat: 51.5, lng: -0.12, label: 'London' });
    assert.equal(seen.length, 1);
    assert.ok(seen[0].startsWith('http://geo.invalid/search?q=London&'), "seen[0].startsWith('http://geo.invalid/search?q=London&')");
  });

  async function failureOf(promise: Promise<unknown>): Promise<GeocoderError> {
    const error = await promise.then(
      () => assert.fail('expected a GeocoderError'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof GeocoderError, String(error));
    return error;
  }

  it('throws on an HTTP error status', async () => {
    fake.mode = 'status500';
    const error = await failureOf(createHttpGeocoder({ baseUrl: fake.baseUrl, timeoutMs: 2_000 }).geocode('Paris'));
    assert.equal(error.failure, 'http');
    assert.equal(error.status, 500);
  });

  it('throws a timeout when the service does not answer in time', async () => {
    fake.mode = 'hang';
    // The fake never answers: only the geocoder's own deadline can end the call, as a timeout.
    const error = await failureOf(createHttpGeocoder({ baseUrl: fake.baseUrl, timeoutMs: 100 }).geocode('Paris'));
    assert.equal(error.failure, 'timeout');
  });

  it('throws on malformed answers', async () => {
    const geocoder = createHttpGeocoder({ baseUrl: fake.baseUrl, timeoutMs: 2_000 });
    for (const mode of ['badJson', 'notArray', 'noLat'] as const) {
      fake.mode = mode;
      assert.equal((await failureOf(geocoder.geocode('Paris'))).failure, 'bad_response', mode);
    }
  });

  it('throws a network error when nothing listens', async () => {
    const gone = await startFakeNominatim();
    await gone.close();
    const error = await failureOf(createHttpGeocoder({ baseUrl: gone.baseUrl, timeoutMs: 2_000 }).geocode('Paris'));
    assert.equal(error.failure, 'network');
  });
});
