// GET /metrics: Prometheus text with the operator's figures, loopback only by default; and the
// request log, where health probes are debug lines.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { createHttpApp } from '../create-http-app.ts';
import { createMetrics } from '../../metrics/create-metrics.ts';
import { startTestApp, type TestApp } from '../../test-support/start-test-app.ts';
import { createAddressAllowList } from '../access/address-allow-list.ts';
import { defaults } from '../../defaults.ts';

let t: TestApp;

before(async () => {
  t = await startTestApp({ stays: 2_000, settings: { keylessPerMinute: 2, keyedPerMinute: 100, goKeylessPerMinute: 100 } });
});
after(async () => {
  await t.close();
});

/** The value of one sample line, e.g. sample(text, 'staygate_index_stays') or with labels. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

async function scrape(remoteAddress = '127.0.0.1'): Promise<string> {
  const res = await t.app.http.inject({ url: '/metrics', remoteAddress });
  assert.equal(res.statusCode, 200);
  assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  return res.body;
}

describe('GET /metrics', () => {
  it('counts requests by route and status, rate-limit refusals, the index and its version', async () => {
    const ip = '192.0.2.77';
    for (let i = 0; i < 3; i++) await t.app.http.inject({ url: '/v3/accommodations?address=Paris&pageSize=1', remoteAddress: ip });
    await t.app.http.inject({ url: '/v3/accommodations?lat=95&lng=0', remoteAddress: '192.0.2.78' });
    await t.app.http.inject({ url: '/no/such/path/12345', remoteAddress: ip });
    const text = await scrape();
    assert.equal(sample(text, 'staygate_http_request_duration_seconds_count', { route: '/v3/accommodations', status: '200' }), 2);
    assert.equal(sample(text, 'staygate_http_request_duration_seconds_count', { route: '/v3/accommodations', status: '429' }), 1);
    assert.equal(sample(text, 'staygate_http_request_duration_seconds_count', { route: '/v3/accommodations', status: '400' }), 1);
    assert.equal(sample(text, 'staygate_http_request_duration_seconds_count', { route: 'unmatched', status: '404' }), 1);
    assert.ok(!text.includes('/no/such/path'), 'an unknown path is no label');
    assert.equal(sample(text, 'staygate_rate_limit_refusals_total', { endpoint: '/v3/accommodations' }), 1);
    assert.equal(sample(text, 'staygate_index_stays'), (await t.get('/health')).body.inventory.stays);
    assert.ok(sample(text, 'staygate_index_stays')! > 0, "sample(text, 'staygate_index_stays')! > 0");
    const health = (await t.get('/health')).body;
    assert.equal(sample(text, 'staygate_inventory_info', { version: health.inventory.version }), 1);
  });

  it('times supplier calls, counts their errors, shows each breaker and the quote cache', async () => {
    const dated = '/v3/accommodations?address=Paris&pageSize=5&checkin=2027-03-01&checkout=2027-03-03';
    const key = await t.createKey({ aid: 'aff-metrics' });
    await t.get(dated, { 'x-api-key': key });
    await t.get(dated, { 'x-api-key': key }); // the same quotes again: from the cache
    await t.sim.setFault('supplier_b', 'error');
    try {
      await t.get(dated.replace('03-03', '03-04'), { 'x-api-key': key });
    } finally {
      await t.sim.setFault('supplier_b', null);
    }
    const text = await scrape();
    assert.ok(
      sample(text, 'staygate_supplier_call_duration_seconds_count', { supplier: 'supplier_a', outcome: 'ok' })! >= 1,
      "sample(text, 'staygate_supplier_call_duration_seconds_count', { supplier: 'supplier_a', outcome: 'ok' })! >= 1",
    );
    assert.ok(
      sample(text, 'staygate_supplier_errors_total', { supplier: 'supplier_b', reason: 'error' })! >= 1,
      "sample(text, 'staygate_supplier_errors_total', { supplier: 'supplier_b', reason: 'error' })! >= 1",
    );
    assert.ok(
      sample(text, 'staygate_supplier_call_duration_seconds_count', { supplier: 'supplier_b', outcome: 'error' })! >= 1,
      "sample(text, 'staygate_supplier_call_duration_seconds_count', { supplier: 'supplier_b', outcome: 'error' })! >= 1",
    );
    assert.ok(
      sample(text, 'staygate_quote_cache_lookups_total', { supplier: 'supplier_a', result: 'hit' })! >= 1,
      "sample(text, 'staygate_quote_cache_lookups_total', { supplier: 'supplier_a', result: 'hit' })! >= 1",
    );
    assert.ok(
      sample(text, 'staygate_quote_cache_lookups_total', { supplier: 'supplier_a', result: 'miss' })! >= 1,
      "sample(text, 'staygate_quote_cache_lookups_total', { supplier: 'supplier_a', result: 'miss' })! >= 1",
    );
    for (const supplier of ['supplier_a', 'supplier_b', 'supplier_c', 'supplier_d']) {
      assert.equal(sample(text, 'staygate_supplier_breaker_state', { supplier, state: 'closed' }), 1, supplier);
      assert.equal(sample(text, 'staygate_supplier_breaker_state', { supplier, state: 'open' }), 0, supplier);
    }
  });

  it('is served to loopback only by default, IPv4 and IPv6 alike; others get a 403 error body', async () => {
    await scrape('::1');
    await scrape('::ffff:127.0.0.1');
    const res = await t.app.http.inject({ url: '/metrics', remoteAddress: '203.0.113.9' });
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().code, 'FORBIDDEN');
    assert.equal(res.json().requestId, res.headers['x-request-id']);
  });

  it('allow lists take addresses, CIDRs, named ranges and any; a typo throws', () => {
    const allowed = createAddressAllowList(['10.1.0.0/16', '2001:db8::/32', '198.51.100.7']);
    assert.ok(allowed('10.1.2.3'), "allowed('10.1.2.3')");
    assert.ok(allowed('::ffff:10.1.2.3'), "allowed('::ffff:10.1.2.3')");
    assert.ok(allowed('2001:db8::1'), "allowed('2001:db8::1')");
    assert.ok(allowed('198.51.100.7'), "allowed('198.51.100.7')");
    assert.ok(!allowed('10.2.0.1'), "!allowed('10.2.0.1')");
    assert.ok(!allowed('127.0.0.1'), "!allowed('127.0.0.1')");
    assert.ok(createAddressAllowList(['any'])('203.0.113.1'), "createAddressAllowList(['any'])('203.0.113.1')");
    assert.throws(() => createAddressAllowList(['10.0.0.0/33']));
    assert.throws(() => createAddressAllowList(['localhost']));
  });
});

describe('request logs', () => {
  /** Every line logged at `level` while a probe, a scrape and a search are answered, and the probes' request ids. */
  async function linesAt(level: string): Promise<{ lines: Array<Record<string, any>>; probeIds: string[] }> {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = createHttpApp({
      settings: defaults,
      services: () => ({
        search: async () => {
          throw new Error('unused');
        },
        inventory: { stays: 1, version: 'v' },
      }),
      now: () => new Date(),
      publicUrl: null,
      logger: { level, stream },
      metrics: { metrics: createMetrics({ processMetrics: false }), allow: ['loopback'] },
    });
    const health = await app.inject('/health');
    const metrics = await app.inject({ url: '/metrics', remoteAddress: '127.0.0.1' });
    await app.inject('/v3/accommodations');
    await app.close();
    return { lines: lines.map((line) => JSON.parse(line)), probeIds: [health, metrics].map((r) => String(r.headers['x-request-id'])) };
  }

  it('health probes and scrapes are debug lines, both the incoming and the completed one; other requests info', async () => {
    const info = await linesAt('info');
    const urls = info.lines.filter((l) => l.req !== undefined).map((l) => l.req.url);
    assert.deepEqual(urls, ['/v3/accommodations']);
    assert.ok(
      info.lines.some((l) => l.res?.statusCode === 400),
      'the search is logged at info when it completes',
    );
    // "request completed" names no URL, only the request id: every line of a probe is looked for by its id.
    const probeLines = info.lines.filter((l) => info.probeIds.includes(l.reqId));
    assert.deepEqual(probeLines, [], 'no info line of a probe');
    const debug = await linesAt('debug');
    const probes = debug.lines.filter((l) => l.level === 20 && l.req !== undefined).map((l) => l.req.url);
    assert.deepEqual(probes, ['/health', '/metrics']);
    const completed = debug.lines.filter((l) => debug.probeIds.includes(l.reqId) && l.msg === 'request completed').map((l) => l.level);
    assert.deepEqual(completed, [20, 20], 'each probe completes in one debug line');
  });
});
