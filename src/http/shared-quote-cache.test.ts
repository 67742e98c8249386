// The quote cache with REDIS_URL, through whole gateways: two gateways on one Redis ask a
// supplier once for the same quote within its TTL, and an unreachable Redis only means each
// gateway caches on its own (docs/decisions.md 73).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { createApp, type App } from '../app.ts';
import { defaults } from '../defaults.ts';
import { generateWorld, startSimSuppliers } from '@staygate/sim';
import {
  closedRedisUrl,
  countRedisKeys,
  deleteRedisKeys,
  skipWithoutRedis,
  TEST_REDIS_URL,
  testRedisPrefix,
} from '../test-support/redis.ts';
import { startTestApp, TEST_NOW, TEST_RATE_LIMITS } from '../test-support/start-test-app.ts';
import { SUPPLIER_IDS, type SupplierId } from '../types.ts';
import { simulatedSlot } from '../compose/supplier-slots.ts';
import { daysAhead } from '../test-support/days-ahead.ts';

const PARIS_BOX = 'nelat=48.90&nelng=2.42&swlat=48.82&swlng=2.27';
/**
 * A dated search for two nights from `day` days after `first`: each day is a quote of its own.
 * The first check-in is fixed once and ahead of the gateway's clock: the two gateways' real one
 * (REAL_FIRST), or startTestApp's fixed one.
 */
const dated = (day: number, first: number) =>
  `/v3/accommodations?${PARIS_BOX}&pageSize=20&checkin=${daysAhead(day, first)}&checkout=${daysAhead(day + 2, first)}`;
const REAL_FIRST = Date.now() + 100 * 86_400_000;
const geocoder = { geocode: async () => null };
/**
 * Deadlines no loaded machine reaches: a batch that missed the search's budget is cached after
 * the answer went out, and the next search would ask for it again (and be a MISS).
 */
const NO_DEADLINES = { quoteBudgetMs: 60_000, quoteCallTimeoutMs: 60_000 };
const skip = await skipWithoutRedis();
const available = skip === false;
const prefix = testRedisPrefix();
after(async () => {
  if (available) await deleteRedisKeys(prefix);
});

/** An HTTP relay in front of one supplier that records every request it forwards: the supplier's own count of calls. */
async function countingRelay(target: string): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const upstream = http.request(new URL(req.url!, target), { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('two gateways with one Redis', { skip }, () => {
  it('ask a supplier once for the same quote within its TTL', async () => {
    const world = generateWorld({ seed: 7, stays: 2_000 });
    const sim = await startSimSuppliers({ world, latencyMs: 0 });
    const relays = Object.fromEntries(
      await Promise.all(SUPPLIER_IDS.map(async (id) => [id, await countingRelay(sim.urls[id])] as const)),
    ) as Record<SupplierId, Awaited<ReturnType<typeof countingRelay>>>;
    // The suppliers reached through the counting relays, with the simulator's credentials.
    const suppliers = SUPPLIER_IDS.map((id) => simulatedSlot(id, { ...sim.slots[id], url: relays[id].url }));
    const calls = () => SUPPLIER_IDS.reduce((n, id) => n + relays[id].requests.length, 0);
    const dirs: string[] = [];
    const gateways: App[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        const dataDir = mkdtempSync(path.join(tmpdir(), 'staygate-test-'));
        dirs.push(dataDir);
        const app = createApp({
          settings: { ...defaults, dataDir, ...TEST_RATE_LIMITS, reportSyncIntervalMs: 0, redisCommandTimeoutMs: 5_000, ...NO_DEADLINES },
          suppliers,
          geocoder,
          redisUrl: TEST_REDIS_URL,
          redisKeyPrefix: prefix,
        });
        gateways.push(app);
        await app.ready;
      }
      const search = async (app: App, day: number) => {
        const res = await app.http.inject({ url: dated(day, REAL_FIRST) });
        assert.equal(res.statusCode, 200, res.body);
        return {
          cache: res.headers['x-cache'],
          body: res.json() as { results: { suppliers: Record<string, { price: { total: number } | null }> }[] },
        };
      };

      // Each gateway's quote cache connects to Redis in the background (until then it caches on
      // its own): new dates each round, until the second gateway finds what the first wrote.
      for (let day = 1; ; day++) {
        assert.ok(day < 200, 'both gateways reach Redis');
        const before = await countRedisKeys(`${prefix}quotes:*`);
        await search(gateways[0], day);
        if ((await countRedisKeys(`${prefix}quotes:*`)) > before && (await search(gateways[1], day)).cache === 'HIT') break;
        await new Promise((resolve) => setTimeout(resolve, 20)); // the poll's pace, not a guess at a duration
      }

      const asked = calls();
      const first = await search(gateways[0], 300);
      assert.equal(first.cache, 'MISS');
      const quoteCalls = calls() - asked;
      assert.ok(quoteCalls > 0, 'the first gateway asked the suppliers');
      // The first gateway's writes went out on its connection before its answer came back, so
      // Redis holds them before the second gateway asks.
      const second = await search(gateways[1], 300);
      assert.equal(calls() - asked, quoteCalls, 'the second gateway asked no supplier');
      assert.equal(second.cache, 'HIT');
      assert.deepEqual(second.body.results, first.body.results, 'the same prices');
      assert.ok(
        first.body.results.some((r) => Object.values(r.suppliers).some((s) => s.price !== null)),
        'some prices',
      );
    } finally {
      await Promise.all(gateways.map((g) => g.close()));
      await Promise.all(SUPPLIER_IDS.map((id) => relays[id].close()));
      await sim.close();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('quote cache with Redis unreachable', () => {
  it("prices every search (asking the suppliers) and caches in the gateway's own memory", async () => {
    const t = await startTestApp({ stays: 2_000, settings: { ...NO_DEADLINES }, app: { geocoder, redisUrl: await closedRedisUrl() } });
    try {
      const first = await t.get(dated(3, TEST_NOW.getTime() + 100 * 86_400_000));
      assert.equal(first.status, 200);
      assert.equal(first.headers['x-cache'], 'MISS');
      assert.ok(
        first.body.results.some((r: { suppliers: Record<string, { price: unknown }> }) =>
          Object.values(r.suppliers).some((s) => s.price !== null),
        ),
        'priced',
      );
      const again = await t.get(dated(3, TEST_NOW.getTime() + 100 * 86_400_000));
      assert.equal(again.headers['x-cache'], 'HIT');
      assert.deepEqual(again.body.results, first.body.results);
    } finally {
      await t.close();
    }
  });
});
