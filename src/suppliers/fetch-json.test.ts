import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { observeCalls } from './call-observer.ts';
import { defaults } from '../defaults.ts';
import { deadlineSignal } from './deadline-signal.ts';
import { fetchJson, fetchJsonResponse, fetchText, retryAfterMs, supplierMessage, supplierUrl } from './fetch-json.ts';
import { startFixtureServer, type FixtureServer } from '../test-support/fixture-server.ts';
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
    assert.deepEqual(await fetchJson(`${server.baseUrl}/ok`, { supplier: 'supplier_b', settings: defaults }), { ok: true });
  });

  it('turns a non-2xx answer into an http error with the status', async () => {
    await assert.rejects(fetchJson(`${server.baseUrl}/broken`, { supplier: 'supplier_b', settings: defaults }), (error) => {
      expectSupplierError('http', /^supplier_b: HTTP 500/)(error);
      assert.equal((error as SupplierError).status, 500);
      return true;
    });
  });

  it('turns a body that is not JSON into a malformed error', async () => {
    await assert.rejects(
      fetchJson(`${server.baseUrl}/not-json`, { supplier: 'supplier_b', settings: defaults }),
      expectSupplierError('malformed', /not JSON: <html>oops/),
    );
  });

  it('times out a slow answer', async () => {
    await assert.rejects(
      fetchJson(`${server.baseUrl}/slow`, { supplier: 'supplier_b', settings: defaults, timeoutMs: 50 }),
      expectSupplierError('timeout', /within 50 ms/),
    );
  });

  it('re-throws the caller abort as is, not as a supplier failure', async () => {
    const controller = new AbortController();
    const reason = new Error('shutting down');
    setTimeout(() => controller.abort(reason), 20);
    await assert.rejects(
      fetchJson(`${server.baseUrl}/slow`, { supplier: 'supplier_b', settings: defaults, signal: controller.signal }),
      reason,
    );
  });

  it('POSTs a JSON body', async () => {
    assert.deepEqual(
      await fetchJson(`${server.baseUrl}/echo`, { supplier: 'supplier_b', settings: defaults, method: 'POST', body: { ids: [1, 2] } }),
      {
        method: 'POST',
        body: { ids: [1, 2] },
      },
    );
    assert.equal(server.received.at(-1)!.method, 'POST');
  });

  it('reports the caller deadline running out as a timeout, also without a deadline of its own', async () => {
    await assert.rejects(
      fetchJson(`${server.baseUrl}/slow`, { supplier: 'supplier_b', settings: defaults, signal: AbortSignal.timeout(50), timeoutMs: null }),
      expectSupplierError('timeout', /no answer in time/),
    );
  });

  it('reports an unreachable supplier as a network error', async () => {
    await assert.rejects(
      fetchJson('http://127.0.0.1:1/x', { supplier: 'supplier_b', settings: defaults }),
      expectSupplierError('network', /failed/),
    );
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
      assert.deepEqual(await fetchJson(server.url, { supplier: 'supplier_a', settings: defaults }), { ok: true });
      assert.equal(server.requests(), 2);
    } finally {
      await server.close();
    }
  });

  it('fails as a network error when the second connection is cut too, after two requests', async () => {
    const server = await serve(2);
    try {
      await assert.rejects(fetchJson(server.url, { supplier: 'supplier_a', settings: defaults }), (error) => {
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

describe('fetchJson: credentials, rate limits and statuses', () => {
  const KEY = 'key-7f3a9c1e5b';
  let server: FixtureServer;
  /** Requests received on a path so far (this one included, while answering it). */
  const count = (path: string): number => server.received.filter((r) => new URL(r.url, 'http://x').pathname === path).length;
  before(async () => {
    server = await startFixtureServer((url) => {
      const n = count(url.pathname);
      switch (url.pathname) {
        case '/limited-seconds':
          return n === 1 ? { status: 429, body: { message: 'slow down' }, headers: { 'retry-after': '1' } } : { body: { ok: n } };
        case '/limited-date':
          return n === 1
            ? { status: 429, body: {}, headers: { 'retry-after': new Date(Date.now() + 3_000).toUTCString() } }
            : { body: { ok: n } };
        case '/limited-bare':
          return n <= 2 ? { status: 429, body: {} } : { body: { ok: n } };
        case '/limited-always':
          return { status: 429, body: {} };
        case '/limited-long':
          return { status: 429, body: {}, headers: { 'retry-after': '30' } };
        case '/limited-hour':
          return { status: 429, body: {}, headers: { 'retry-after': '3600' } };
        case '/limited-now':
          return n === 1 ? { status: 429, body: {}, headers: { 'retry-after': '0' } } : { body: { ok: n } };
        case '/auth-nested':
          return { status: 401, body: { error: { code: 401, message: 'unauthorized' } } };
        case '/auth-string':
          return { status: 403, body: { error: 'Access to this API has been disallowed' } };
        case '/auth-errors':
          return { status: 401, body: { request_id: 'r1', errors: [{ id: 'auth', message: 'Invalid bearer token' }] } };
        case '/auth-text':
          return { status: 401, body: `<html>Unauthorized ${'x'.repeat(300)}</html>` };
        case '/auth-empty':
          return { status: 401, body: '' };
        case '/auth-echo':
          // Rapid's 401 lists what it received, the apikey included, and a message that names none.
          return { status: 401, body: { type: 'request_unauthenticated', fields: [{ name: 'apikey', type: 'header', value: KEY }] } };
        case '/broken-echo':
          return { status: 500, body: { trace: `Authorization: Bearer ${KEY}` } };
        case '/gone':
          return { status: 410, body: { message: 'token expired' } };
        case '/empty':
          return { status: 204, body: '' };
        default:
          return { status: 404, body: { error: 'not found' } };
      }
    });
  });
  after(() => server.close());

  /** Calls `work` with every rate-limit wait recorded; `onWait` runs as each wait begins. */
  const watchingWaits = async <T>(work: () => Promise<T>, onWait?: () => void): Promise<{ value: T; waits: number[] }> => {
    const waits: number[] = [];
    const value = await observeCalls(
      {
        rateLimitWait: (supplier, ms) => {
          assert.equal(supplier, 'supplier_b');
          waits.push(ms);
          onWait?.();
        },
      },
      work,
    );
    return { value, waits };
  };
  const kindOf =
    (kind: string, pattern?: RegExp) =>
    (error: unknown): boolean => {
      assert.ok(error instanceof SupplierError, `not a SupplierError: ${String(error)}`);
      assert.equal(error.kind, kind, error.message);
      if (pattern) assert.match(error.message, pattern);
      return true;
    };

  it('waits what a 429 Retry-After in seconds asks, then asks again', async () => {
    const { value, waits } = await watchingWaits(() =>
      fetchJson(`${server.baseUrl}/limited-seconds`, { supplier: 'supplier_b', settings: defaults }),
    );
    assert.deepEqual(value, { ok: 2 });
    assert.deepEqual(waits, [1_000]);
  });

  it('waits until a Retry-After HTTP date', async () => {
    const { value, waits } = await watchingWaits(() =>
      fetchJson(`${server.baseUrl}/limited-date`, { supplier: 'supplier_b', settings: defaults }),
    );
    assert.deepEqual(value, { ok: 2 });
    // The date has whole seconds: somewhat more than 2 s from when it was written, never more than 3.
    assert.equal(waits.length, 1);
    assert.ok(waits[0]! > 0 && waits[0]! <= 3_000, `waited ${waits[0]} ms`);
  });

  it("backs off on its own when a 429 carries no Retry-After, doubling from the driver's backoffMs", async () => {
    const { value, waits } = await watchingWaits(() =>
      fetchJson(`${server.baseUrl}/limited-bare`, { supplier: 'supplier_b', settings: defaults, backoffMs: 10 }),
    );
    assert.deepEqual(value, { ok: 3 });
    assert.deepEqual(waits, [10, 20]);
  });

  it('fails as rate_limited once its waits are used up', async () => {
    const before = count('/limited-always');
    const { waits } = await watchingWaits(() =>
      assert.rejects(
        fetchJson(`${server.baseUrl}/limited-always`, { supplier: 'supplier_b', settings: defaults, backoffMs: 1, maxRateLimitWaits: 2 }),
        kindOf('rate_limited', /^supplier_b: rate limited: HTTP 429 from .* after 2 waits$/),
      ),
    );
    assert.deepEqual(waits, [1, 2]);
    assert.equal(count('/limited-always') - before, 3);
  });

  it("fails as rate_limited at once, without waiting, when the wait would pass the call's deadline", async () => {
    const before = count('/limited-long');
    const { waits } = await watchingWaits(() =>
      assert.rejects(
        fetchJson(`${server.baseUrl}/limited-long`, { supplier: 'supplier_b', settings: defaults, timeoutMs: 5_000 }),
        kindOf('rate_limited', /Retry-After 30000 ms, past the call's deadline/),
      ),
    );
    assert.deepEqual(waits, []);
    assert.equal(count('/limited-long') - before, 1);
  });

  it("knows the caller's deadline when it is a deadline signal (the quote service's), with no deadline of its own", async () => {
    const deadline = deadlineSignal(5_000);
    try {
      const { waits } = await watchingWaits(() =>
        assert.rejects(
          fetchJson(`${server.baseUrl}/limited-long`, {
            supplier: 'supplier_b',
            settings: defaults,
            signal: deadline.signal,
            timeoutMs: null,
          }),
          kindOf('rate_limited', /past the call's deadline/),
        ),
      );
      assert.deepEqual(waits, []);
    } finally {
      deadline.clear();
    }
  });

  it('fails as rate_limited at once when a 429 asks for longer than any call waits, deadline or not', async () => {
    const { waits } = await watchingWaits(() =>
      assert.rejects(
        fetchJson(`${server.baseUrl}/limited-hour`, { supplier: 'supplier_b', settings: defaults, timeoutMs: null }),
        kindOf('rate_limited', /Retry-After 3600000 ms, longer than a call waits/),
      ),
    );
    assert.deepEqual(waits, []);
  });

  it('stops waiting when the caller aborts during the wait, with its reason', async () => {
    const controller = new AbortController();
    const reason = new Error('shutting down');
    const before = count('/limited-long');
    const { waits } = await watchingWaits(
      () =>
        assert.rejects(
          fetchJson(`${server.baseUrl}/limited-long`, {
            supplier: 'supplier_b',
            settings: defaults,
            signal: controller.signal,
            timeoutMs: null,
          }),
          reason,
        ),
      () => controller.abort(reason),
    );
    assert.deepEqual(waits, [30_000]);
    assert.equal(count('/limited-long') - before, 1);
  });

  it('reports a caller deadline that is not a deadline signal, running out during the wait, as a timeout', async () => {
    const controller = new AbortController();
    await watchingWaits(
      () =>
        assert.rejects(
          fetchJson(`${server.baseUrl}/limited-long`, {
            supplier: 'supplier_b',
            settings: defaults,
            signal: controller.signal,
            timeoutMs: null,
          }),
          kindOf('timeout', /no answer in time/),
        ),
      () => controller.abort(new DOMException('budget spent', 'TimeoutError')),
    );
  });

  it('calls a headers function for every request sent, so that a signature is made anew for each', async () => {
    let signed = 0;
    await fetchJson(`${server.baseUrl}/limited-now`, {
      supplier: 'supplier_b',
      settings: defaults,
      headers: () => ({ 'X-Signature': `sig-${++signed}`, 'Api-key': KEY }),
    });
    assert.equal(signed, 2);
    const sent = server.received.filter((r) => r.url === '/limited-now').slice(-2);
    assert.deepEqual(
      sent.map((r) => [r.headers['x-signature'], r.headers['api-key'], r.headers.accept]),
      [
        ['sig-1', KEY, 'application/json'],
        ['sig-2', KEY, 'application/json'],
      ],
    );
  });

  it('sends fixed headers over the defaults, one value each', async () => {
    await fetchJson(`${server.baseUrl}/limited-now`, {
      supplier: 'supplier_b',
      settings: defaults,
      method: 'POST',
      body: {},
      headers: { Accept: 'application/json' },
    });
    const last = server.received.at(-1)!;
    assert.equal(last.headers.accept, 'application/json');
    assert.equal(last.headers['content-type'], 'application/json');
  });

  it("turns 401 and 403 into auth errors carrying the supplier's own message", async () => {
    const cases: [string, string, number][] = [
      ['/auth-nested', 'auth: unauthorized', 401],
      ['/auth-string', 'auth: Access to this API has been disallowed', 403],
      ['/auth-errors', 'auth: Invalid bearer token', 401],
      ['/auth-text', `auth: <html>Unauthorized ${'x'.repeat(200 - '<html>Unauthorized '.length)}`, 401],
      ['/auth-empty', 'auth: HTTP 401', 401],
    ];
    for (const [path, detail, status] of cases) {
      await assert.rejects(
        fetchJson(`${server.baseUrl}${path}`, { supplier: 'supplier_b', settings: defaults, headers: { 'X-API-Key': KEY } }),
        (error) => {
          kindOf('auth')(error);
          const e = error as SupplierError;
          assert.equal(e.detail, detail, path);
          assert.equal(e.message, `supplier_b: ${detail}`);
          assert.equal(e.status, status);
          return true;
        },
      );
    }
  });

  it('keeps header values out of error messages, even when the supplier echoes them', async () => {
    for (const path of ['/auth-echo', '/broken-echo']) {
      await assert.rejects(
        fetchJson(`${server.baseUrl}${path}`, {
          supplier: 'supplier_b',
          settings: defaults,
          headers: () => ({ authorization: `Bearer ${KEY}` }),
        }),
        (error) => {
          assert.ok(error instanceof SupplierError, String(error));
          assert.ok(!error.message.includes(KEY), error.message);
          assert.match(error.message, /\[redacted\]/);
          return true;
        },
      );
    }
  });

  it('answers an accepted non-2xx status with its status and body instead of throwing', async () => {
    const gone = await fetchJsonResponse(`${server.baseUrl}/gone`, { supplier: 'supplier_b', settings: defaults, acceptStatus: [410] });
    assert.equal(gone.status, 410);
    assert.deepEqual(gone.body, { message: 'token expired' });
    const text = await fetchText(`${server.baseUrl}/gone`, { supplier: 'supplier_b', settings: defaults, acceptStatus: [410] });
    assert.equal(text.status, 410);
    assert.equal(text.headers.get('content-type'), 'application/json');
    await assert.rejects(
      fetchJson(`${server.baseUrl}/gone`, { supplier: 'supplier_b', settings: defaults }),
      kindOf('http', /^supplier_b: HTTP 410/),
    );
  });

  it('answers a 204 as null, with its status', async () => {
    assert.equal(await fetchJson(`${server.baseUrl}/empty`, { supplier: 'supplier_b', settings: defaults }), null);
    assert.equal((await fetchText(`${server.baseUrl}/empty`, { supplier: 'supplier_b', settings: defaults })).status, 204);
  });
});

describe('retryAfterMs', () => {
  const now = Date.parse('2026-11-21T10:00:00Z');
  it('reads delta seconds and HTTP dates, a past date as 0, anything else as not given', () => {
    assert.equal(retryAfterMs('2', now), 2_000);
    assert.equal(retryAfterMs(' 0 ', now), 0);
    assert.equal(retryAfterMs('Sat, 21 Nov 2026 10:00:05 GMT', now), 5_000);
    assert.equal(retryAfterMs('Sat, 21 Nov 2026 09:59:00 GMT', now), 0);
    for (const value of [null, '', '-1', 'soon']) assert.equal(retryAfterMs(value, now), undefined, String(value));
  });
});

describe('supplierMessage', () => {
  it('prefers message, then error, error.message, errors[0].message; else the text, on one line', () => {
    assert.equal(supplierMessage('{"message":"a","error":"b"}'), 'a');
    assert.equal(supplierMessage('{"error":{"message":"c"}}'), 'c');
    assert.equal(supplierMessage('{"errors":[{"message":"d"}]}'), 'd');
    assert.equal(supplierMessage('{"error":{"code":1}}'), '{"error":{"code":1}}');
    assert.equal(supplierMessage('bad\n  key'), 'bad key');
    assert.equal(supplierMessage('["message"]'), '["message"]');
  });
});
