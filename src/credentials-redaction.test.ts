// Credentials never appear in logs, errors, /health or /metrics (issue 24; docs/decisions.md 132):
// a gateway whose supplier_b and supplier_c carry recognisable credentials, behind local fixture
// servers that first forward to the simulator (their content is held), then supplier_b refuses
// them (401, a body that echoes nothing) and supplier_c fails (500 echoing the request headers, until its breaker opens and
// says why in the log). Its content pulls, searches on every generation, /health and /metrics are
// driven with its pino log captured at debug; neither the key nor the secret is anywhere in what
// it wrote or answered.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { generateWorld, startSimSuppliers, type SimSuppliers } from '@staygate/sim';
import { createApp, type App } from './app.ts';
import { defaults } from './defaults.ts';
import { simulatedSlots } from './compose/supplier-slots.ts';
import { forwardTo, startFixtureServer, type FixtureServer } from './test-support/fixture-server.ts';
import { TEST_QUOTE_DEADLINES, TEST_RATE_LIMITS } from './test-support/start-test-app.ts';
import { daysAhead } from './test-support/days-ahead.ts';

const KEY = 'KEY-recognisable-5f2c81d7e4';
const SECRET = 'SECRET-recognisable-a93be07c16';

describe('credentials stay out of everything the gateway writes', () => {
  let sim: SimSuppliers;
  let refusing: FixtureServer;
  let broken: FixtureServer;
  /** Whether the fixtures forward to the simulator (at the first start) or refuse and fail. */
  let forwarding = true;
  let app: App;
  let dataDir: string;
  const lines: string[] = [];
  /** Every body the gateway answered, for the final search. */
  const answers: string[] = [];

  before(async () => {
    // The simulator accepts the recognisable credentials on b and c, so that forwarding serves content.
    const recognisable = { key: KEY, secret: SECRET };
    sim = await startSimSuppliers({
      world: generateWorld({ seed: 9, stays: 1_000 }),
      latencyMs: 0,
      credentials: { supplier_b: recognisable, supplier_c: recognisable },
    });
    refusing = await startFixtureServer((url, request) =>
      forwarding
        ? forwardTo(sim.urls.supplier_b, url, request)
        : { status: 401, body: { error: { code: 401, message: 'Invalid API key' } } },
    );
    broken = await startFixtureServer((url, request) =>
      // Echoes what it received, headers and all, as some suppliers' error pages do.
      forwarding
        ? forwardTo(sim.urls.supplier_c, url, request)
        : { status: 500, body: { received: request.headers, message: 'internal error' } },
    );
    dataDir = mkdtempSync(path.join(tmpdir(), 'staygate-redaction-'));
    const fronts = { supplier_b: refusing.baseUrl, supplier_c: broken.baseUrl } as Record<string, string>;
    app = createApp({
      settings: { ...defaults, dataDir, ...TEST_RATE_LIMITS, ...TEST_QUOTE_DEADLINES, reportSyncIntervalMs: 0, contentRefreshMs: 0 },
      suppliers: simulatedSlots(sim.slots).map((slot) =>
        fronts[slot.id] === undefined ? slot : { ...slot, baseUrl: fronts[slot.id]!, key: KEY, secret: SECRET },
      ),
      geocoder: { geocode: async () => null },
      logger: {
        level: 'debug',
        stream: new Writable({
          write(chunk, _encoding, done) {
            lines.push(String(chunk));
            done();
          },
        }),
      },
    });
    await app.ready;
  });
  after(async () => {
    await app.close();
    await Promise.all([refusing.close(), broken.close(), sim.close()]);
    rmSync(dataDir, { recursive: true, force: true });
  });

  const get = async (url: string): Promise<{ status: number; body: string }> => {
    const res = await app.http.inject({ url, remoteAddress: '127.0.0.1' });
    answers.push(res.body);
    return { status: res.statusCode, body: res.body };
  };

  it('refuses and fails as expected, with the supplier messages in /health and the log', async () => {
    forwarding = false;
    // Quotes: each search asks supplier_b and supplier_c, which now refuse and fail.
    for (let day = 1; day <= 8; day++) {
      const dates = `checkin=${daysAhead(90 + day)}&checkout=${daysAhead(100 + day)}`;
      for (const url of [
        `/v3/accommodations?nelat=90&nelng=180&swlat=-90&swlng=-180&${dates}`,
        `/v2/accommodations?nelat=90&nelng=180&swlat=-90&swlng=-180&${dates}`,
      ])
        assert.equal((await get(url)).status, 200, url);
    }
    for (const provider of ['supplier_b', 'supplier_c'])
      assert.equal((await get(`/v1/accommodations?provider=${provider}&nelat=90&nelng=180&swlat=-90&swlng=-180`)).status >= 500, true);
    assert.equal(app.health().suppliers.supplier_c?.breaker, 'open');
    // Content pulled again, as an operator would.
    const outcome = await app.refreshContent(['supplier_b', 'supplier_c']);
    assert.deepEqual([outcome.feeds.supplier_b?.auth, outcome.feeds.supplier_c?.auth], ['failed', 'unknown']);
    const health = JSON.parse((await get('/health')).body);
    assert.equal(health.suppliers.supplier_b.auth, 'failed');
    assert.equal(health.suppliers.supplier_b.lastError, 'auth: Invalid API key');
    assert.match(health.suppliers.supplier_c.lastError, /HTTP 500/);
    assert.match((await get('/metrics')).body, /staygate_supplier_auth_failures_total\{supplier="supplier_b"\} [1-9]/);
    assert.ok(
      lines.some((line) => line.includes('supplier_b') && line.includes('auth: Invalid API key')),
      'the refusal is in the log, with the supplier message',
    );
    assert.ok(
      lines.some((line) => line.includes('circuit breaker open') && line.includes('HTTP 500')),
      "supplier_c's breaker opening is in the log, with the failure",
    );
  });

  it('never writes the key or the secret: log lines, answers, /health, /metrics', async () => {
    await get('/health');
    await get('/metrics');
    for (const secret of [KEY, SECRET]) {
      assert.deepEqual(
        lines.filter((line) => line.includes(secret)),
        [],
        'log lines',
      );
      assert.deepEqual(
        answers.filter((body) => body.includes(secret)),
        [],
        'answers',
      );
    }
    assert.ok(lines.length > 10 && answers.length > 5, 'there was something to look at');
  });
});
