// The client against a real gateway whose allowance is small: searchAll says when it waits for the
// rate limit (onRateLimitWait, with the wait the 429 asked for), then carries on; maxResults stops
// it before pages it does not need; the README's example stays within the keyless allowance. The
// limiter runs on a clock of the test's, which the client's `wait` moves: no test sleeps a minute.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { createClient, type RateLimitWait } from '@staygate/client';
import { defaults } from '../../../src/defaults.ts';
import { startTestApp, TEST_RATE_LIMITS, type TestApp } from '../../../src/test-support/start-test-app.ts';

const PARIS = { nelat: 48.9, nelng: 2.42, swlat: 48.82, swlng: 2.27 };

describe('@staygate/client and the rate limit', () => {
  let t: TestApp;
  let base: string;
  let clockMs = 1_000_000;
  let addresses = 0;
  before(async () => {
    t = await startTestApp({
      stays: 3_000,
      settings: { ...TEST_RATE_LIMITS, keylessPerMinute: 2 },
      app: {
        publicUrl: null,
        rateLimitClock: () => clockMs,
        // Each test comes from an address of its own (its own bucket), as a client behind a proxy.
        trustedProxies: ['loopback'],
      },
    });
    base = await t.app.http.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await t.close();
  });

  /** A client from a fresh address whose waits move the limiter's clock; `requests` counts what it asked. */
  function client(onRateLimitWait?: (wait: RateLimitWait) => void) {
    const address = `10.9.0.${++addresses}`;
    const requests: string[] = [];
    const waits: number[] = [];
    const staygate = createClient({
      baseUrl: base,
      onRateLimitWait,
      retry: {
        max: 2,
        wait: async (ms) => {
          waits.push(ms);
          clockMs += ms;
        },
      },
      fetch: (url, init) => {
        requests.push(String(url));
        return fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), 'x-forwarded-for': address } });
      },
    });
    return { staygate, requests, waits };
  }

  it('searchAll tells the caller when it waits for the limit, and how long, then goes on', async () => {
    const told: RateLimitWait[] = [];
    const toldClient: RateLimitWait[] = [];
    const { staygate, requests, waits } = client((wait) => toldClient.push(wait));
    const ids: string[] = [];
    for await (const stay of staygate.searchAll({ ...PARIS, pageSize: 3 }, { maxResults: 12, onRateLimitWait: (wait) => told.push(wait) }))
      ids.push(stay.id);
    assert.equal(ids.length, 12, 'four pages of three');
    assert.equal(new Set(ids).size, 12, 'no stay twice');
    // Pages 1-2 spend the allowance of 2 (at one moment of the limiter's clock); page 3 is refused,
    // waited out (the window then is empty) and asked again; page 4 follows.
    assert.equal(told.length, 1, `one wait: ${JSON.stringify(told)}`);
    assert.deepEqual(toldClient, told, "the client's callback hears the same");
    assert.deepEqual(
      told.map((w) => w.retryAfterMs),
      waits,
      'each call comes before the wait, with the time the client then waits',
    );
    for (const wait of told) {
      assert.ok(wait.retryAfterMs > 0 && wait.retryAfterMs <= 60_000, `Retry-After within the window: ${wait.retryAfterMs}`);
      assert.equal(wait.limit, 2);
      assert.equal(wait.attempt, 1);
      assert.match(wait.url, /\/v3\/accommodations\?.*page=3/);
      assert.match(wait.requestId ?? '', /./, 'the refusal has a request id');
    }
    assert.equal(requests.length, 5, 'four pages, the third asked twice');
  });

  it('maxResults stops before a page it does not need', async () => {
    const { staygate, requests } = client();
    const ids: string[] = [];
    for await (const stay of staygate.searchAll({ ...PARIS, pageSize: 5 }, { maxResults: 5 })) ids.push(stay.id);
    assert.equal(ids.length, 5);
    assert.equal(requests.length, 1, 'one page asked for');
  });

  it("the README's searchAll example asks no more pages than the keyless allowance holds", async () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    // The example's arguments, as written (plain JavaScript: objects and an arrow function).
    const call = /staygate\.searchAll\(([\s\S]*?)\)\) \{/.exec(readme);
    assert.ok(call !== null, 'the README calls staygate.searchAll(...)');
    const [params, options] = new Function(`return [${call[1]}]`)() as [Record<string, unknown>, { maxResults?: number }];
    assert.ok(options?.maxResults !== undefined, 'the example stops after maxResults');
    // Before it, the README's example makes one search: together within the allowance, whatever the world's size.
    const pages = Math.ceil(options.maxResults / Number(params.pageSize ?? 10));
    assert.ok(1 + pages <= defaults.keylessPerMinute, `1 search + ${pages} pages within ${defaults.keylessPerMinute} a minute`);
    // And run as written against this gateway (allowance 2 here), it is never made to wait beyond it.
    const waits: RateLimitWait[] = [];
    const { staygate } = client((wait) => waits.push(wait));
    let count = 0;
    for await (const stay of staygate.searchAll(params as never, { ...options, onRateLimitWait: undefined })) {
      assert.match(stay.id, /./);
      count++;
    }
    assert.ok(count > 0 && count <= options.maxResults, `${count} stays`);
    assert.ok(waits.length <= Math.max(0, pages - 2), `waited only past this gateway's allowance of 2 (${waits.length})`);
  });
});
