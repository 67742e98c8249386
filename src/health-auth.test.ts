// /health's `auth` per supplier (issue 24, "What every driver handles"): a supplier refusing the
// gateway's credentials is `"auth": "failed"` with the supplier's message in `lastError`, for
// content pulls and quotes alike, without opening its breaker; `ok` once a call is answered;
// `unknown` before any call. /metrics counts the refusals and the 429s waited out. supplier_b sits
// behind a local fixture server that forwards to the simulator, or refuses, or rate-limits once.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generateWorld, startSimSuppliers, type SimSuppliers } from '@staygate/sim';
import { createApp, type App, type AppOptions } from './app.ts';
import { defaults } from './defaults.ts';
import { simulatedSlots } from './compose/supplier-slots.ts';
import { forwardTo, startFixtureServer, type FixtureResponse, type FixtureServer } from './test-support/fixture-server.ts';
import { TEST_QUOTE_DEADLINES, TEST_RATE_LIMITS } from './test-support/start-test-app.ts';
import { daysAhead } from './test-support/days-ahead.ts';

/** What the fixture in front of supplier_b does with the next requests. */
type Mode = 'forward' | 'refuse' | 'limit-once';

describe('/health auth', () => {
  let sim: SimSuppliers;
  let front: FixtureServer;
  let mode: Mode = 'refuse';
  let dataDir: string;
  let app: App;
  let options: AppOptions;

  before(async () => {
    sim = await startSimSuppliers({ world: generateWorld({ seed: 5, stays: 1_500 }), latencyMs: 0 });
    front = await startFixtureServer(async (url, request): Promise<FixtureResponse> => {
      if (mode === 'refuse') return { status: 401, body: { error: { code: 401, message: 'Invalid API key' } } };
      if (mode === 'limit-once') {
        mode = 'forward';
        return { status: 429, body: { message: 'Too many requests' }, headers: { 'retry-after': '0' } };
      }
      return forwardTo(sim.urls.supplier_b, url, request);
    });
    dataDir = mkdtempSync(path.join(tmpdir(), 'staygate-health-auth-'));
    options = {
      settings: {
        ...defaults,
        dataDir,
        ...TEST_RATE_LIMITS,
        ...TEST_QUOTE_DEADLINES,
        reportSyncIntervalMs: 0,
        contentRefreshMs: 0,
        contentRetryMs: 3_600_000,
      },
      suppliers: simulatedSlots(sim.slots).map((slot) => (slot.id === 'supplier_b' ? { ...slot, baseUrl: front.baseUrl } : slot)),
      geocoder: { geocode: async () => null },
    };
    app = createApp(options);
    await app.ready;
  });
  after(async () => {
    await app.close();
    await front.close();
    await sim.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const health = async () => {
    const res = await app.http.inject('/health');
    assert.equal(res.statusCode, 200);
    return res.json();
  };
  const metric = async (name: string, supplier: string): Promise<number> => {
    const text = (await app.http.inject({ url: '/metrics', remoteAddress: '127.0.0.1' })).body;
    const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(`supplier="${supplier}"`));
    return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
  };
  let day = 1;
  /** A dated v3 search of supplier_b alone, on dates no earlier search asked (no cached quote answers it). */
  const searchB = async () => {
    const d = day++;
    const res = await app.http.inject(
      `/v3/accommodations?nelat=90&nelng=180&swlat=-90&swlng=-180&checkin=${daysAhead(120 + d)}&checkout=${daysAhead(150 + d)}&provider=supplier_b`,
    );
    assert.equal(res.statusCode, 200);
    return res.json();
  };

  it('a content pull refused at the first start: failed, with the supplier message, the breaker closed; the others ok', async () => {
    const body = await health();
    assert.equal(body.status, 'degraded');
    assert.deepEqual(
      [
        body.suppliers.supplier_b.auth,
        body.suppliers.supplier_b.lastError,
        body.suppliers.supplier_b.content,
        body.suppliers.supplier_b.breaker,
      ],
      ['failed', 'auth: Invalid API key', 'unavailable', 'closed'],
    );
    for (const s of ['supplier_a', 'supplier_c', 'supplier_d']) assert.equal(body.suppliers[s].auth, 'ok', s);
    assert.equal(await metric('staygate_supplier_auth_failures_total', 'supplier_b'), 1);
  });

  it('ok once a pull is answered; a quote refused turns it failed again, a storm of them leaves the breaker closed', async () => {
    mode = 'forward';
    await app.refreshContent(['supplier_b']);
    let b = (await health()).suppliers.supplier_b;
    assert.deepEqual([b.auth, b.lastError, b.content], ['ok', null, 'ok']);

    mode = 'refuse';
    const before = await metric('staygate_supplier_auth_failures_total', 'supplier_b');
    const sent = front.requests.length;
    for (let i = 0; i < 8; i++) {
      const page = await searchB();
      assert.deepEqual(page.meta.unavailableSuppliers, [{ supplier: 'supplier_b', reason: 'error' }]);
    }
    b = (await health()).suppliers.supplier_b;
    assert.deepEqual([b.auth, b.lastError, b.breaker], ['failed', 'auth: Invalid API key', 'closed']);
    // Every call was made (no breaker refused one) and counted once.
    assert.ok(front.requests.length - sent >= 8, 'every search asked supplier_b');
    assert.equal(await metric('staygate_supplier_auth_failures_total', 'supplier_b'), before + front.requests.length - sent);
    // v1 names the failure as the spec's upstream error.
    const v1 = await app.http.inject('/v1/accommodations?provider=supplier_b&nelat=90&nelng=180&swlat=-90&swlng=-180');
    assert.equal(v1.statusCode, 502);
    assert.equal(v1.json().code, 'UPSTREAM_ERROR');

    mode = 'forward';
    const page = await searchB();
    assert.deepEqual(page.meta.unavailableSuppliers, []);
    b = (await health()).suppliers.supplier_b;
    assert.deepEqual([b.auth, b.lastError], ['ok', null]);
  });

  it('a content pull that meets a 429 waits, asks again and applies; the wait is counted', async () => {
    const before = await metric('staygate_supplier_rate_limit_waits_total', 'supplier_b');
    mode = 'limit-once';
    const outcome = await app.refreshContent(['supplier_b']);
    assert.equal(outcome.feeds.supplier_b?.ok, true);
    assert.equal(outcome.feeds.supplier_b?.rateLimitWaits, 1);
    assert.equal(await metric('staygate_supplier_rate_limit_waits_total', 'supplier_b'), before + 1);
    assert.equal((await health()).suppliers.supplier_b.content, 'ok');
  });

  it('unknown for every supplier after a restart that served the stored content, until a call of it ends', async () => {
    await app.close();
    app = createApp(options);
    await app.ready;
    const body = await health();
    for (const s of ['supplier_a', 'supplier_b', 'supplier_c', 'supplier_d']) assert.equal(body.suppliers[s].auth, 'unknown', s);
    await searchB();
    const after = await health();
    assert.equal(after.suppliers.supplier_b.auth, 'ok');
    assert.equal(after.suppliers.supplier_a.auth, 'unknown');
  });
});
