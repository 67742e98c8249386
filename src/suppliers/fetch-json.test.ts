import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fetchJson, supplierUrl } from './fetch-json.ts';
import { startFixtureServer, type FixtureServer } from './fixture-server.ts';
import { SupplierError } from './supplier-error.ts';

describe('fetchJson', () => {
  let server: FixtureServer;
  before(async () => {
    server = await startFixtureServer((url, request) => {
      switch (url.pathname) {
        case '/ok':
          return { body: { ok: true } };
        case '/broken':
          return { status: 500, body: { error: 'boom' } };
        case '/not-json':
          return { body: '<html>oops' };
        case '/slow':
          return { body: { ok: true }, delayMs: 2_000 };
        case '/echo':
          return { body: { method: request.method, body: request.body === '' ? null : JSON.parse(request.body) } };
        default:
          return { status: 404, body: { error: 'not found' } };
      }
    });
  });
  after(() => server.close());

  const expectSupplierError =
    (kind: string, pattern: RegExp) =>
    (error: unknown): boolean => {
      assert.ok(error instanceof SupplierError, `not a SupplierError: ${String(error)}`);
      assert.equal(error.supplier, 'supplier_b');
      assert.equal(error.kind, kind);
      assert.match(error.message, pattern);
      return true;
    };

  it('parses a JSON body', async () => {
    assert.deepEqual(await fetchJson(`${server.baseUrl}/ok`, { supplier: 'supplier_b' }), { ok: true });
  });

  it('turns a non-2xx answer into an http error with the status', async () => {
    await assert.rejects(fetchJson(`${server.baseUrl}/broken`, { supplier: 'supplier_b' }), (error) => {
      expectSupplierError('http', /^supplier_b: HTTP 500/)(error);
      assert.equal((error as SupplierError).status, 500);
      return true;
    });
  });

  it('turns a body that is not JSON into a malformed error', async () => {
    await assert.rejects(
      fetchJson(`${server.baseUrl}/not-json`, { supplier: 'supplier_b' }),
      expectSupplierError('malformed', /not JSON: <html>oops/),
    );
  });

  it('times out a slow answer', async () => {
    await assert.rejects(
      fetchJson(`${server.baseUrl}/slow`, { supplier: 'supplier_b', timeoutMs: 50 }),
      expectSupplierError('timeout', /within 50 ms/),
    );
  });

  it('re-throws the caller abort as is, not as a supplier failure', async () => {
    const controller = new AbortController();
    const reason = new Error('shutting down');
    setTimeout(() => controller.abort(reason), 20);
    await assert.rejects(fetchJson(`${server.baseUrl}/slow`, { supplier: 'supplier_b', signal: controller.signal }), reason);
  });

  it('POSTs a JSON body', async () => {
    assert.deepEqual(await fetchJson(`${server.baseUrl}/echo`, { supplier: 'supplier_b', method: 'POST', body: { ids: [1, 2] } }), {
      method: 'POST',
      body: { ids: [1, 2] },
    });
    assert.equal(server.received.at(-1)!.method, 'POST');
  });

  it('reports the caller deadline running out as a timeout, also without a deadline of its own', async () => {
    await assert.rejects(
      fetchJson(`${server.baseUrl}/slow`, { supplier: 'supplier_b', signal: AbortSignal.timeout(50), timeoutMs: null }),
      expectSupplierError('timeout', /no answer in time/),
    );
  });

  it('reports an unreachable supplier as a network error', async () => {
    await assert.rejects(fetchJson('http://127.0.0.1:1/x', { supplier: 'supplier_b' }), expectSupplierError('network', /failed/));
  });
});

describe('supplierUrl', () => {
  it('keeps the base path and sets the query', () => {
    assert.equal(supplierUrl('http://h:1', '/v2/hotels', { limit: 5 }), 'http://h:1/v2/hotels?limit=5');
    assert.equal(supplierUrl('https://h/partner/', '/v2/hotels', { cursor: 'a b' }), 'https://h/partner/v2/hotels?cursor=a+b');
    assert.equal(supplierUrl('https://h/partner', 'v2/hotels', {}), 'https://h/partner/v2/hotels');
  });
});

describe('fetchJson on a dropped connection', () => {
  // A raw server: it can cut a request's connection before answering, as a supplier does when it
  // closes a keep-alive connection that the gateway's pool is about to reuse.
  const serve = async (drops: number) => {
    const http = await import('node:http');
    let requests = 0;
    const server = http.createServer((request, response) => {
      requests++;
      if (requests <= drops) {
        request.socket.destroy();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as import('node:net').AddressInfo;
    return {
      url: `http://127.0.0.1:${port}/x`,
      requests: () => requests,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  };

  it('sends the request once more when its connection is cut before any answer', async () => {
    const server = await serve(1);
    try {
      assert.deepEqual(await fetchJson(server.url, { supplier: 'supplier_a' }), { ok: true });
      assert.equal(server.requests(), 2);
    } finally {
      await server.close();
    }
  });

  it('fails as a network error when the second connection is cut too, after two requests', async () => {
    const server = await serve(2);
    try {
      await assert.rejects(fetchJson(server.url, { supplier: 'supplier_a' }), (error) => {
        assert.ok(error instanceof SupplierError, String(error));
        assert.equal(error.kind, 'network');
        return true;
      });
      assert.equal(server.requests(), 2);
    } finally {
      await server.close();
    }
  });
});
