// Configuration read from the environment, for what issue 15 added: CORS origins, who may read
// /metrics, and the log format (pretty output checked in a real process, as `npm start` logs).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { readConfig } from './config.ts';

describe('readConfig', () => {
  it('CORS origins and the metrics allow list: comma-separated, with their defaults', () => {
    const none = readConfig({});
    assert.deepEqual(none.corsOrigins, ['*']);
    assert.deepEqual(none.metricsAllow, ['loopback']);
    const some = readConfig({
      STAYGATE_CORS_ORIGINS: 'https://a.example, https://b.example',
      STAYGATE_METRICS_ALLOW: 'loopback,10.0.0.0/8',
    });
    assert.deepEqual(some.corsOrigins, ['https://a.example', 'https://b.example']);
    assert.deepEqual(some.metricsAllow, ['loopback', '10.0.0.0/8']);
  });

  it('LOG_FORMAT is json by default, pretty on request, anything else an error', () => {
    assert.equal(readConfig({}).logFormat, 'json');
    assert.equal(readConfig({ LOG_FORMAT: 'pretty' }).logFormat, 'pretty');
    assert.throws(() => readConfig({ LOG_FORMAT: 'fancy' }), /LOG_FORMAT/);
  });

  it('DATABASE_URL: unset or empty = SQLite (null), a postgres URL as given, anything else an error without its password', () => {
    assert.equal(readConfig({}).databaseUrl, null);
    assert.equal(readConfig({ DATABASE_URL: ' ' }).databaseUrl, null);
    assert.equal(readConfig({ DATABASE_URL: 'postgres://gw:pw@db:5432/staygate' }).databaseUrl, 'postgres://gw:pw@db:5432/staygate');
    assert.equal(readConfig({ DATABASE_URL: 'postgresql://db/staygate' }).databaseUrl, 'postgresql://db/staygate');
    assert.throws(
      () => readConfig({ DATABASE_URL: 'mysql://gw:secret@db/staygate' }),
      (error: Error) => /DATABASE_URL/.test(error.message) && !error.message.includes('secret'),
    );
  });

  it('STAYGATE_CONTENT_REFRESH_MS: the schedule of the content refresh (content-refresh.test.ts runs it), hourly by default, 0 = never', () => {
    assert.equal(readConfig({}).contentRefreshMs, 3_600_000);
    assert.equal(readConfig({ STAYGATE_CONTENT_REFRESH_MS: '100' }).contentRefreshMs, 100);
    assert.equal(readConfig({ STAYGATE_CONTENT_REFRESH_MS: '0' }).contentRefreshMs, 0);
  });

  it('STAYGATE_REDIS_PREFIX: unset = the defaults (null), else as given', () => {
    assert.equal(readConfig({}).redisKeyPrefix, null);
    assert.equal(readConfig({ STAYGATE_REDIS_PREFIX: 'eu-1:' }).redisKeyPrefix, 'eu-1:');
  });
});

describe('LOG_FORMAT=pretty', () => {
  it('writes lines for people (pino-pretty), not JSON', async () => {
    const script = `
      import { createHttpApp } from './src/http/create-http-app.ts';
      import { logOptions } from './src/log-options.ts';
      const app = createHttpApp({ services: () => null, now: () => new Date(), publicUrl: null, logger: logOptions('info', process.argv[1]) });
      await app.inject('/v3/accommodations?lat=1&lng=1');
      await app.close();`;
    const run = (format: string) =>
      new Promise<string>((resolve, reject) => {
        execFile(
          process.execPath,
          ['--import', 'tsx', '--input-type=module', '-e', script, format],
          { cwd: new URL('..', import.meta.url).pathname },
          (error, stdout) => (error ? reject(error) : resolve(stdout)),
        );
      });
    const json = await run('json');
    assert.ok(
      json
        .trim()
        .split('\n')
        .every((line) => line.startsWith('{')),
      json,
    );
    const pretty = await run('pretty');
    assert.match(pretty, /INFO.*request completed/);
    assert.ok(
      !pretty
        .trim()
        .split('\n')
        .some((line) => line.startsWith('{"level"')),
      pretty,
    );
  });
});
