// Configuration read from the environment, for what issue 15 added: CORS origins, who may read
// /metrics, and the log format (pretty output checked in a real process, as `npm start` logs).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { readConfig } from './config.ts';
import { defaults } from './defaults.ts';
import { SUPPLIER_IDS } from './types.ts';

describe('readConfig', () => {
  it('CORS origins and the metrics allow list: comma-separated, with their defaults', () => {
    const none = readConfig({});
    assert.deepEqual(none.settings.corsOrigins, ['*']);
    assert.deepEqual(none.settings.metricsAllow, ['loopback']);
    const some = readConfig({
      STAYGATE_CORS_ORIGINS: 'https://a.example, https://b.example',
      STAYGATE_METRICS_ALLOW: 'loopback,10.0.0.0/8',
    });
    assert.deepEqual(some.settings.corsOrigins, ['https://a.example', 'https://b.example']);
    assert.deepEqual(some.settings.metricsAllow, ['loopback', '10.0.0.0/8']);
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
    assert.equal(readConfig({}).settings.contentRefreshMs, 3_600_000);
    assert.equal(readConfig({ STAYGATE_CONTENT_REFRESH_MS: '100' }).settings.contentRefreshMs, 100);
    assert.equal(readConfig({ STAYGATE_CONTENT_REFRESH_MS: '0' }).settings.contentRefreshMs, 0);
  });

  it('STAYGATE_REDIS_PREFIX: unset = the defaults (null), else as given', () => {
    assert.equal(readConfig({}).redisKeyPrefix, null);
    assert.equal(readConfig({ STAYGATE_REDIS_PREFIX: 'eu-1:' }).redisKeyPrefix, 'eu-1:');
  });

  it('STAYGATE_URL and STAYGATE_API_KEY (staygate mcp): unset or blank = null, else as given (the URL without a trailing slash)', () => {
    assert.deepEqual([readConfig({}).gatewayUrl, readConfig({}).apiKey], [null, null]);
    assert.deepEqual(
      [readConfig({ STAYGATE_URL: ' ', STAYGATE_API_KEY: ' ' }).gatewayUrl, readConfig({ STAYGATE_API_KEY: ' ' }).apiKey],
      [null, null],
    );
    const set = readConfig({ STAYGATE_URL: 'https://gw.example/', STAYGATE_API_KEY: ' sk_1 ' });
    assert.deepEqual([set.gatewayUrl, set.apiKey], ['https://gw.example', 'sk_1']);
  });

  it('settings: every figure of defaults.ts, those a variable sets overlaid, nothing else changed', () => {
    assert.deepEqual(readConfig({}).settings, { ...defaults, dataDir: path.resolve(defaults.dataDir) });
    const { settings } = readConfig({
      PORT: '8080',
      STAYGATE_DATA_DIR: '/srv/staygate',
      STAYGATE_SIM_SEED: '7',
      STAYGATE_SIM_STAYS: '1000',
      STAYGATE_REPORT_SYNC_MS: '0',
      STAYGATE_REPORT_SYNC_OVERLAP_MS: '60000',
      STAYGATE_REPORT_RECONCILE_MS: '0',
      STAYGATE_REPORT_RECONCILE_DAYS: '7',
      STAYGATE_CONTENT_RETRY_MS: '1000',
      STAYGATE_FEED_SHRINK_LIMIT: '0.5',
    });
    assert.deepEqual(settings, {
      ...defaults,
      port: 8080,
      dataDir: '/srv/staygate',
      simSeed: 7,
      simStays: 1000,
      reportSyncIntervalMs: 0,
      reportSyncOverlapMs: 60_000,
      reportReconcileIntervalMs: 0,
      reportReconcileDays: 7,
      contentRetryMs: 1000,
      feedShrinkLimit: 0.5,
    });
  });

  it('every variable is checked here, at the start: a mistake is refused by name, a password never repeated', () => {
    const refused: Record<string, string>[] = [
      { PORT: '70000' },
      { PORT: 'http' },
      { HOST: 'not a host' },
      { STAYGATE_PUBLIC_URL: 'api.example.com' },
      { STAYGATE_URL: 'localhost:3000' },
      { STAYGATE_SIM_SEED: '-1' },
      { STAYGATE_SIM_STAYS: 'many' },
      { LOG_LEVEL: 'verbose' },
      { REDIS_URL: 'http://user:secret@cache:6379' },
      { STAYGATE_TRUSTED_PROXIES: '10.0.0.0/33' },
      { STAYGATE_TRUSTED_PROXIES: 'any' },
      { STAYGATE_REPORT_SYNC_MS: '5m' },
      { STAYGATE_REPORT_SYNC_OVERLAP_MS: '1.5' },
      { STAYGATE_REPORT_RECONCILE_MS: '-5' },
      { STAYGATE_REPORT_RECONCILE_DAYS: 'month' },
      { STAYGATE_MAP_TILES_URL: 'https://tiles.example/{z}/{x}.png' },
      { STAYGATE_MAP_TILES_ATTRIBUTION: '© someone' },
      { STAYGATE_CORS_ORIGINS: 'https://a.example/path' },
      { STAYGATE_METRICS_ALLOW: 'everyone' },
      { STAYGATE_CONTENT_REFRESH_MS: 'hourly' },
      { STAYGATE_CONTENT_RETRY_MS: '-1' },
      { STAYGATE_FEED_SHRINK_LIMIT: '2' },
      { DATABASE_URL: 'sqlite://x' },
      { LOG_FORMAT: 'xml' },
    ];
    for (const env of refused) {
      const [name] = Object.keys(env);
      assert.throws(
        () => readConfig(env),
        (error: Error) => error.message.startsWith(name) && !error.message.includes('secret'),
        `${name}=${env[name]} is refused by name`,
      );
    }
    const accepted = readConfig({
      HOST: '0.0.0.0',
      STAYGATE_PUBLIC_URL: 'https://api.example.com/',
      LOG_LEVEL: 'debug',
      REDIS_URL: 'rediss://cache:6380/0',
      STAYGATE_TRUSTED_PROXIES: 'loopback, 10.0.0.0/8, ::1',
      STAYGATE_MAP_TILES_URL: 'https://tiles.example/{z}/{x}/{y}.png',
      STAYGATE_MAP_TILES_ATTRIBUTION: '© someone',
      STAYGATE_CORS_ORIGINS: 'https://a.example, http://localhost:5173',
      STAYGATE_METRICS_ALLOW: 'any',
    });
    assert.deepEqual(
      [accepted.host, accepted.publicUrl, accepted.logLevel, accepted.redisUrl, accepted.trustedProxies, accepted.mapTilesUrl],
      [
        '0.0.0.0',
        'https://api.example.com',
        'debug',
        'rediss://cache:6380/0',
        ['loopback', '10.0.0.0/8', '::1'],
        'https://tiles.example/{z}/{x}/{y}.png',
      ],
    );
  });
});

describe('supplier slots: STAYGATE_SUPPLIER_<X>_API, _URL, _KEY, _SECRET, _AFFILIATE_ID, _BOOKING_URL', () => {
  /** A real slot of each API with every credential it needs. */
  const REAL = {
    STAYGATE_SUPPLIER_A_URL: 'https://demandapi.booking.com/3.1',
    STAYGATE_SUPPLIER_A_KEY: 'booking-token-s3cr3t',
    STAYGATE_SUPPLIER_A_AFFILIATE_ID: '1234567',
  };

  it('unset: every slot simulated, in its default API (a booking-demand, b hotelbeds, c liteapi, d expedia-rapid)', () => {
    const { suppliers } = readConfig({});
    assert.deepEqual(
      SUPPLIER_IDS.map((id) => suppliers[id].api),
      ['booking-demand', 'hotelbeds', 'liteapi', 'expedia-rapid'],
    );
    for (const id of SUPPLIER_IDS)
      assert.deepEqual(
        { ...suppliers[id], api: undefined },
        { api: undefined, url: null, key: '', secret: '', affiliateId: '', bookingUrl: null },
        `${id} is simulated, with nothing of its own`,
      );
  });

  it('_API names any of the four APIs for any slot (LiteAPI on two slots), and an unknown one is refused by name', () => {
    const { suppliers } = readConfig({ STAYGATE_SUPPLIER_B_API: 'expedia-rapid', STAYGATE_SUPPLIER_D_API: ' liteapi ' });
    assert.equal(suppliers.supplier_b.api, 'expedia-rapid');
    assert.equal(suppliers.supplier_c.api, 'liteapi');
    assert.equal(suppliers.supplier_d.api, 'liteapi');
    assert.throws(
      () => readConfig({ STAYGATE_SUPPLIER_C_API: 'expedia' }),
      (error: Error) =>
        error.message === 'STAYGATE_SUPPLIER_C_API must be one of booking-demand, hotelbeds, liteapi, expedia-rapid, got "expedia"',
    );
  });

  it('_URL must be http(s); a trailing slash is dropped; a password in it is never repeated', () => {
    assert.equal(
      readConfig({ ...REAL, STAYGATE_SUPPLIER_A_URL: 'https://demandapi.booking.com/3.1/' }).suppliers.supplier_a.url,
      'https://demandapi.booking.com/3.1',
    );
    for (const url of ['ftp://api.example/x', 'api.liteapi.travel/v3.0', 'http//broken'])
      assert.throws(
        () => readConfig({ STAYGATE_SUPPLIER_C_URL: url, STAYGATE_SUPPLIER_C_KEY: 'k' }),
        /^Error: STAYGATE_SUPPLIER_C_URL must be an http\(s\) URL/,
        url,
      );
    assert.throws(
      () => readConfig({ STAYGATE_SUPPLIER_C_URL: 'ftp://user:hunter2@api.example/x', STAYGATE_SUPPLIER_C_KEY: 'k' }),
      (error: Error) => /STAYGATE_SUPPLIER_C_URL/.test(error.message) && !error.message.includes('hunter2'),
    );
  });

  it('a real slot without the credentials its API needs is refused, naming each missing variable', () => {
    const cases: [Record<string, string>, string][] = [
      [
        { STAYGATE_SUPPLIER_A_URL: 'https://demandapi.booking.com/3.1' },
        'set STAYGATE_SUPPLIER_A_KEY and STAYGATE_SUPPLIER_A_AFFILIATE_ID too',
      ],
      [{ ...REAL, STAYGATE_SUPPLIER_A_AFFILIATE_ID: ' ' }, 'set STAYGATE_SUPPLIER_A_AFFILIATE_ID too'],
      [{ STAYGATE_SUPPLIER_B_URL: 'https://api.test.hotelbeds.com', STAYGATE_SUPPLIER_B_KEY: 'k' }, 'set STAYGATE_SUPPLIER_B_SECRET too'],
      [{ STAYGATE_SUPPLIER_B_URL: 'https://api.test.hotelbeds.com' }, 'set STAYGATE_SUPPLIER_B_KEY and STAYGATE_SUPPLIER_B_SECRET too'],
      [{ STAYGATE_SUPPLIER_C_URL: 'https://api.liteapi.travel/v3.0' }, 'set STAYGATE_SUPPLIER_C_KEY too'],
      [{ STAYGATE_SUPPLIER_D_URL: 'https://test.ean.com/v3', STAYGATE_SUPPLIER_D_SECRET: 's' }, 'set STAYGATE_SUPPLIER_D_KEY too'],
      // The API decides, not the slot: Rapid on supplier_b wants Rapid's credentials.
      [
        { STAYGATE_SUPPLIER_B_API: 'expedia-rapid', STAYGATE_SUPPLIER_B_URL: 'https://test.ean.com/v3', STAYGATE_SUPPLIER_B_KEY: 'k' },
        'set STAYGATE_SUPPLIER_B_SECRET too',
      ],
    ];
    for (const [env, missing] of cases)
      assert.throws(
        () => readConfig(env),
        (error: Error) => error.message.endsWith(missing),
        JSON.stringify(env),
      );
    // LiteAPI needs only its key; neither a secret nor an affiliate id.
    assert.equal(
      readConfig({ STAYGATE_SUPPLIER_C_URL: 'https://api.liteapi.travel/v3.0', STAYGATE_SUPPLIER_C_KEY: 'k' }).suppliers.supplier_c.key,
      'k',
    );
  });

  it('slots are configured one by one: one real slot beside three simulated ones is accepted', () => {
    const { suppliers } = readConfig(REAL);
    assert.deepEqual(suppliers.supplier_a, {
      api: 'booking-demand',
      url: 'https://demandapi.booking.com/3.1',
      key: 'booking-token-s3cr3t',
      secret: '',
      affiliateId: '1234567',
      bookingUrl: null,
    });
    for (const id of ['supplier_b', 'supplier_c', 'supplier_d'] as const) assert.equal(suppliers[id].url, null, `${id} stays simulated`);
    // Credentials of a simulated slot are kept but unused: the simulator's own are.
    assert.equal(readConfig({ STAYGATE_SUPPLIER_D_KEY: 'k' }).suppliers.supplier_d.url, null);
  });

  it('_BOOKING_URL is checked when read: an unknown placeholder or one in the host is refused, naming the variable', () => {
    const template = 'https://book.example/h?id={supplierStayId}&agency={affiliateId}&c={clickId}&a={adults}&r={rooms}';
    assert.equal(readConfig({ STAYGATE_SUPPLIER_B_BOOKING_URL: template }).suppliers.supplier_b.bookingUrl, template);
    assert.equal(
      readConfig({ STAYGATE_SUPPLIER_B_BOOKING_URL: '{supplierUrl}/book?id={supplierStayId}' }).suppliers.supplier_b.bookingUrl,
      '{supplierUrl}/book?id={supplierStayId}',
    );
    assert.throws(
      () => readConfig({ STAYGATE_SUPPLIER_B_BOOKING_URL: 'https://book.example/h?id={hotelId}' }),
      /^Error: STAYGATE_SUPPLIER_B_BOOKING_URL: .*unknown placeholder \{hotelId\}/,
    );
    assert.throws(
      () => readConfig({ STAYGATE_SUPPLIER_B_BOOKING_URL: 'https://{aid}.example/h' }),
      /^Error: STAYGATE_SUPPLIER_B_BOOKING_URL: .*host/,
    );
  });

  it("no error text carries a credential's value, even one pasted into the wrong variable", () => {
    const key = 'live-key-9f8e7d';
    const secret = 'live-secret-1a2b3c';
    const envs: Record<string, string>[] = [
      { STAYGATE_SUPPLIER_D_API: key, STAYGATE_SUPPLIER_D_KEY: key },
      { STAYGATE_SUPPLIER_D_URL: `ftp://${secret}`, STAYGATE_SUPPLIER_D_KEY: key, STAYGATE_SUPPLIER_D_SECRET: secret },
      { STAYGATE_SUPPLIER_D_URL: `https://test.ean.com/v3?k=${key}`, STAYGATE_SUPPLIER_D_KEY: key },
      { STAYGATE_SUPPLIER_D_BOOKING_URL: `${secret}/book?id={supplierStayId}`, STAYGATE_SUPPLIER_D_SECRET: secret },
      { STAYGATE_SUPPLIER_A_URL: 'https://demandapi.booking.com/3.1', STAYGATE_SUPPLIER_A_KEY: key },
    ];
    for (const env of envs)
      assert.throws(
        () => readConfig(env),
        (error: Error) => !error.message.includes(key) && !error.message.includes(secret) && /STAYGATE_SUPPLIER_[AD]_/.test(error.message),
        JSON.stringify(env),
      );
  });
});

describe('LOG_FORMAT=pretty', () => {
  it('writes lines for people (pino-pretty), not JSON', async () => {
    const script = `
      import { createHttpApp } from './src/http/create-http-app.ts';
      import { logOptions } from './src/config.ts';
      import { defaults } from './src/defaults.ts';
      const app = createHttpApp({ services: () => null, now: () => new Date(), publicUrl: null, logger: logOptions('info', process.argv[1]), settings: defaults });
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
