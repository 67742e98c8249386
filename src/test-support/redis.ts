// Test support for Redis: the real server on the machine (REDIS_URL, default 127.0.0.1:6379),
// never a mock, and a unique key prefix per test run whose keys are deleted afterwards.
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { Redis } from 'ioredis';

export const TEST_REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

/** Whether the Redis server answers PING (tests that need it are skipped, loudly, when not). */
export async function redisAvailable(url = TEST_REDIS_URL): Promise<boolean> {
  const client = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
    connectTimeout: 1_000,
    disconnectTimeout: 100,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/**
 * The `skip` option of a suite that needs Redis: false when Redis answers; otherwise a reason on a
 * developer's machine, but never under CI (CI=true), where a missing Redis must fail, not hide.
 */
export async function skipWithoutRedis(url = TEST_REDIS_URL): Promise<false | string> {
  if (await redisAvailable(url)) return false;
  return process.env.CI ? false : `no Redis answering at ${url} (set REDIS_URL, or start redis-server)`;
}

/** A fresh key prefix for one test run. */
export function testRedisPrefix(): string {
  return `staygate-test:${randomUUID()}:`;
}

/** Deletes every key under `prefix`; returns how many there were. */
export async function deleteRedisKeys(prefix: string, url = TEST_REDIS_URL): Promise<number> {
  const client = new Redis(url, { maxRetriesPerRequest: 1, disconnectTimeout: 100 });
  client.on('error', () => undefined);
  try {
    let deleted = 0;
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) deleted += await client.del(...keys);
    } while (cursor !== '0');
    return deleted;
  } finally {
    client.disconnect();
  }
}

/** How many keys match `pattern` (a Redis glob, e.g. `${prefix}*`). */
export async function countRedisKeys(pattern: string, url = TEST_REDIS_URL): Promise<number> {
  const client = new Redis(url, { maxRetriesPerRequest: 1, disconnectTimeout: 100 });
  client.on('error', () => undefined);
  try {
    let count = 0;
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      cursor = next;
      count += keys.length;
    } while (cursor !== '0');
    return count;
  } finally {
    client.disconnect();
  }
}

/** A redis:// URL on a loopback port where nothing listens (bound then closed). */
export async function closedRedisUrl(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `redis://127.0.0.1:${port}`;
}

/**
 * A TCP relay to the Redis server that a test can cut and restore: Redis going away and coming
 * back, without touching the real server other tests share.
 */
export async function startRedisRelay(
  url = TEST_REDIS_URL,
): Promise<{ url: string; cut(): Promise<void>; restore(): Promise<void>; close(): Promise<void> }> {
  const target = new URL(url);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    });
  return {
    url: `redis://127.0.0.1:${port}${target.pathname}`,
    cut: stop,
    restore: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
    close: stop,
  };
}
