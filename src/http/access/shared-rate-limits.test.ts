// Rate limits with REDIS_URL, through whole gateways: several gateways share one limit through
// the real Redis server, and an unreachable Redis leaves each gateway limiting on its own.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, describe, it } from 'node:test';
import {
  closedRedisUrl,
  countRedisKeys,
  deleteRedisKeys,
  skipWithoutRedis,
  TEST_REDIS_URL,
  testRedisPrefix,
} from '../../test-support/redis.ts';
import { startTestApp, type TestApp } from '../../test-support/start-test-app.ts';

const SEARCH = '/v3/accommodations?lat=48.85&lng=2.35&pageSize=1';
/** No address searches here: a geocoder that knows nothing spares each gateway the gazetteer's load. */
const geocoder = { geocode: async () => null };
const skip = await skipWithoutRedis();
const available = skip === false;
const prefix = testRedisPrefix();
after(async () => {
  if (available) await deleteRedisKeys(prefix);
});

/**
 * Until each gateway limits through Redis: a request from an address of its own leaves that
 * address's bucket in Redis, which a request limited in memory (made while the connection opens,
 * or before the limiter's retry after that) does not. Polls that state instead of sleeping.
 */
async function untilLimitingThroughRedis(gateways: TestApp[]): Promise<void> {
  let n = 0;
  for (const g of gateways) {
    for (;;) {
      n++;
      const ip = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
      await g.app.http.inject({ url: SEARCH, remoteAddress: ip });
      if ((await countRedisKeys(`${prefix}*ip:${ip}`)) > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20)); // the poll's pace, not a guess at a duration
    }
  }
}

describe('several gateways with one Redis', { skip }, () => {
  it('share one limit per client and endpoint', async () => {
    // A generous Redis timeout: on a loaded machine the first calls, made while the connection
    // opens, must not fall back to per-process limits (that path has its own test below).
    const options = {
      stays: 300,
      settings: { redisCommandTimeoutMs: 5_000, keylessPerMinute: 5 },
      app: { geocoder, redisUrl: TEST_REDIS_URL, redisKeyPrefix: prefix },
    };
    const gateways: TestApp[] = [await startTestApp(options), await startTestApp(options)];
    try {
      // The limiter's Redis connection opens in the background: a request made before it is up
      // is limited in memory, and Redis is retried a second later. Wait until both use Redis.
      await untilLimitingThroughRedis(gateways);
      const statuses = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          gateways[i % 2].app.http.inject({ url: SEARCH, remoteAddress: '203.0.113.40' }).then((r) => r.statusCode),
        ),
      );
      assert.equal(statuses.filter((s) => s === 200).length, 5);
      assert.equal(statuses.filter((s) => s === 429).length, 7);
    } finally {
      await Promise.all(gateways.map((g) => g.close()));
    }
  });
});

describe('Redis unreachable', () => {
  it('keeps serving, limits per gateway in memory, and logs the outage once', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const t = await startTestApp({
      stays: 300,
      settings: { keylessPerMinute: 5 },
      app: { geocoder, redisUrl: await closedRedisUrl(), logger: { level: 'warn', stream } },
    });
    try {
      const statuses = [];
      for (let i = 0; i < 7; i++) statuses.push((await t.app.http.inject({ url: SEARCH, remoteAddress: '203.0.113.41' })).statusCode);
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429]);
      const outages = lines.filter((l) => l.includes('unreachable'));
      assert.equal(outages.length, 1, lines.join(''));
      assert.match(outages[0], /enforced per process/);
    } finally {
      await t.close();
    }
  });
});
