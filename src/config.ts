import path from 'node:path';
import { compileBookingTemplate } from './clicks/booking-url.ts';
import { defaults } from './defaults.ts';
import {
  DEFAULT_SUPPLIER_APIS,
  isSupplierApi,
  SUPPLIER_APIS,
  SUPPLIER_IDS,
  type Settings,
  type SupplierApi,
  type SupplierId,
} from './types.ts';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Public base URL for links; null = the request's own scheme and host. */
  publicUrl: string | null;
  /** Each slot's API, where it is (null: the built-in simulator), credentials and booking page. */
  suppliers: Record<SupplierId, SupplierSlotSetting>;
  sim: { seed: number; stays: number };
  logLevel: string;
  /**
   * DATABASE_URL: every store on this PostgreSQL database (postgres://...), shared by gateways and
   * the CLI; null = the SQLite file in the data folder (the embedded default).
   */
  databaseUrl: string | null;
  /** Shared rate limits and quote cache through Redis; null = each process limits and caches in memory. */
  redisUrl: string | null;
  /** STAYGATE_REDIS_PREFIX: the prefix of every key this gateway writes in Redis (several deployments on one Redis); null = the defaults. */
  redisKeyPrefix: string | null;
  /** Proxies whose X-Forwarded-For is believed (IPs, CIDRs, or loopback / linklocal / uniquelocal). */
  trustedProxies: string[];
  /** How often the suppliers' commission reports are pulled (STAYGATE_REPORT_SYNC_MS); 0 = only on demand. */
  reportSyncIntervalMs: number;
  /** How much each pull re-reads before the end of the previous one (STAYGATE_REPORT_SYNC_OVERLAP_MS). */
  reportSyncOverlapMs: number;
  /** How often a pull is a reconciliation (STAYGATE_REPORT_RECONCILE_MS; 0 = only on demand), and of how many days (STAYGATE_REPORT_RECONCILE_DAYS). */
  reportReconcileIntervalMs: number;
  reportReconcileDays: number;
  /** A raster tile template for the map (STAYGATE_MAP_TILES_URL); null = the offline basemap. */
  mapTilesUrl: string | null;
  /** Credit shown for those tiles (STAYGATE_MAP_TILES_ATTRIBUTION). */
  mapTilesAttribution: string | null;
  /** Origins browsers may call from (STAYGATE_CORS_ORIGINS, comma-separated; `*` = any). */
  corsOrigins: string[];
  /** Who may read /metrics (STAYGATE_METRICS_ALLOW: `loopback`, `any`, addresses, CIDRs). */
  metricsAllow: string[];
  /** `json` (one object per line, for machines) or `pretty` (pino-pretty, for people): LOG_FORMAT. */
  logFormat: 'json' | 'pretty';
  /** How often every supplier's content feed is pulled again (STAYGATE_CONTENT_REFRESH_MS); 0 = only on demand. */
  contentRefreshMs: number;
  /** First retry of a supplier whose feed failed (STAYGATE_CONTENT_RETRY_MS), doubling up to contentRefreshMs. */
  contentRetryMs: number;
  /** A feed shrinking by more than this share is held back (STAYGATE_FEED_SHRINK_LIMIT, 0..1). */
  feedShrinkLimit: number;
  /** Every tunable figure, defaults.ts overlaid with the variables above: what modules are given. */
  settings: Settings;
}

/** One supplier slot's STAYGATE_SUPPLIER_<X>_* variables. */
export interface SupplierSlotSetting {
  /** _API: the API the slot speaks; default a booking-demand, b hotelbeds, c liteapi, d expedia-rapid. */
  api: SupplierApi;
  /** _URL: the API's base URL; null = the built-in simulator serves the slot (in that API's format). */
  url: string | null;
  /** _KEY, _SECRET, _AFFILIATE_ID ('' when unset). */
  key: string;
  secret: string;
  affiliateId: string;
  /** _BOOKING_URL: the booking page template (checked when read); null = the API's or the simulator's default. */
  bookingUrl: string | null;
}

/** Which credentials each API cannot work without (an unset one is refused at start, by name). */
const REQUIRED_CREDENTIALS: Record<SupplierApi, readonly ('KEY' | 'SECRET' | 'AFFILIATE_ID')[]> = {
  'booking-demand': ['KEY', 'AFFILIATE_ID'],
  hotelbeds: ['KEY', 'SECRET'],
  liteapi: ['KEY'],
  'expedia-rapid': ['KEY', 'SECRET'],
};

/**
 * A slot's variables. Slots are configured one by one: a slot without _URL is simulated, in the
 * API it names, whatever the others do. Errors name the variable, never a credential's value: the
 * slot's key and secret are masked in every message, even when pasted into another variable.
 */
function supplierSlot(env: NodeJS.ProcessEnv, id: SupplierId): SupplierSlotSetting {
  const prefix = `STAYGATE_${id.toUpperCase()}_`;
  const text = (name: string): string => (env[prefix + name] ?? '').trim();
  // Masked wherever they appear; a value under 4 characters is no credential any API issues, and
  // masking it would garble the message's own words.
  const secrets = [text('KEY'), text('SECRET')].filter((value) => value.length >= 4);
  const refuse = (message: string): never => {
    throw new Error(secrets.reduce((masked, value) => masked.replaceAll(value, '***'), message));
  };
  const apiText = text('API');
  if (apiText !== '' && !isSupplierApi(apiText)) refuse(`${prefix}API must be one of ${SUPPLIER_APIS.join(', ')}, got "${apiText}"`);
  const api = apiText === '' ? DEFAULT_SUPPLIER_APIS[id] : (apiText as SupplierApi);
  const url = text('URL');
  if (url !== '') {
    let parsed: URL | null = null;
    try {
      parsed = new URL(url);
    } catch {
      // reported below
    }
    if (parsed === null || !/^https?:$/.test(parsed.protocol))
      refuse(`${prefix}URL must be an http(s) URL, got "${url.replace(/\/\/[^@/]*@/, '//***@')}"`);
    const missing = REQUIRED_CREDENTIALS[api].filter((name) => text(name) === '');
    if (missing.length > 0)
      refuse(`${prefix}URL points ${id} at a real ${api} API: set ${missing.map((name) => prefix + name).join(' and ')} too`);
  }
  const bookingUrl = text('BOOKING_URL') || null;
  if (bookingUrl !== null) {
    // Checked now, not at the first click: `{supplierUrl}` stands for a URL known only once the simulator runs.
    try {
      compileBookingTemplate(bookingUrl, { supplierUrl: url || 'http://127.0.0.1', affiliateId: '' });
    } catch (error) {
      refuse(`${prefix}BOOKING_URL: ${(error as Error).message}`);
    }
  }
  return {
    api,
    url: url === '' ? null : url.replace(/\/+$/, ''),
    key: text('KEY'),
    secret: text('SECRET'),
    affiliateId: text('AFFILIATE_ID'),
    bookingUrl,
  };
}

function list(env: NodeJS.ProcessEnv, name: string, fallback: readonly string[]): string[] {
  const items = (env[name] ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  return items.length === 0 ? [...fallback] : items;
}

function share(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!(value >= 0 && value <= 1)) throw new Error(`${name} must be a number from 0 to 1, got "${text}"`);
  return value;
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${text}"`);
  return value;
}

function databaseUrl(text: string | undefined): string | null {
  if (text === undefined || text.trim() === '') return null;
  if (!/^postgres(ql)?:\/\//.test(text.trim()))
    throw new Error(`DATABASE_URL must be a postgres:// or postgresql:// URL, got "${text.replace(/\/\/[^@/]*@/, '//***@')}"`);
  return text.trim();
}

function logFormat(text: string | undefined): 'json' | 'pretty' {
  if (text === undefined || text === '' || text === 'json') return 'json';
  if (text === 'pretty') return 'pretty';
  throw new Error(`LOG_FORMAT must be json or pretty, got "${text}"`);
}

/**
 * Configuration from the environment (documented in the README). The supplier registry is
 * configuration: each slot's STAYGATE_SUPPLIER_<X>_API, _URL and credentials point its driver at a
 * real API; a slot without _URL is served by the built-in simulator.
 */
export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const config: Omit<Config, 'settings'> = {
    port: int(env, 'PORT', defaults.port),
    host: env.HOST || '127.0.0.1',
    dataDir: path.resolve(env.STAYGATE_DATA_DIR || defaults.dataDir),
    publicUrl: env.STAYGATE_PUBLIC_URL ? env.STAYGATE_PUBLIC_URL.replace(/\/+$/, '') : null,
    suppliers: Object.fromEntries(SUPPLIER_IDS.map((id) => [id, supplierSlot(env, id)])) as Record<SupplierId, SupplierSlotSetting>,
    sim: { seed: int(env, 'STAYGATE_SIM_SEED', defaults.simSeed), stays: int(env, 'STAYGATE_SIM_STAYS', defaults.simStays) },
    logLevel: env.LOG_LEVEL || 'info',
    databaseUrl: databaseUrl(env.DATABASE_URL),
    redisUrl: env.REDIS_URL || null,
    redisKeyPrefix: env.STAYGATE_REDIS_PREFIX || null,
    trustedProxies: (env.STAYGATE_TRUSTED_PROXIES ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p !== ''),
    reportSyncIntervalMs: int(env, 'STAYGATE_REPORT_SYNC_MS', defaults.reportSyncIntervalMs),
    reportSyncOverlapMs: int(env, 'STAYGATE_REPORT_SYNC_OVERLAP_MS', defaults.reportSyncOverlapMs),
    reportReconcileIntervalMs: int(env, 'STAYGATE_REPORT_RECONCILE_MS', defaults.reportReconcileIntervalMs),
    reportReconcileDays: int(env, 'STAYGATE_REPORT_RECONCILE_DAYS', defaults.reportReconcileDays),
    mapTilesUrl: env.STAYGATE_MAP_TILES_URL || null,
    mapTilesAttribution: env.STAYGATE_MAP_TILES_ATTRIBUTION || null,
    corsOrigins: list(env, 'STAYGATE_CORS_ORIGINS', defaults.corsOrigins),
    metricsAllow: list(env, 'STAYGATE_METRICS_ALLOW', defaults.metricsAllow),
    logFormat: logFormat(env.LOG_FORMAT),
    contentRefreshMs: int(env, 'STAYGATE_CONTENT_REFRESH_MS', defaults.contentRefreshMs),
    contentRetryMs: int(env, 'STAYGATE_CONTENT_RETRY_MS', defaults.contentRetryMs),
    feedShrinkLimit: share(env, 'STAYGATE_FEED_SHRINK_LIMIT', defaults.feedShrinkLimit),
  };
  const settings: Settings = {
    ...defaults,
    port: config.port,
    dataDir: config.dataDir,
    simSeed: config.sim.seed,
    simStays: config.sim.stays,
    reportSyncIntervalMs: config.reportSyncIntervalMs,
    reportSyncOverlapMs: config.reportSyncOverlapMs,
    reportReconcileIntervalMs: config.reportReconcileIntervalMs,
    reportReconcileDays: config.reportReconcileDays,
    corsOrigins: config.corsOrigins,
    metricsAllow: config.metricsAllow,
    contentRefreshMs: config.contentRefreshMs,
    contentRetryMs: config.contentRetryMs,
    feedShrinkLimit: config.feedShrinkLimit,
  };
  return { ...config, settings };
}

// The logger settings of a real server (server.ts), here so that a test can start a gateway
// logging exactly as `npm start` does.

/** pino options: JSON lines by default; LOG_FORMAT=pretty renders them for people with pino-pretty. */
export function logOptions(
  level: string,
  format: 'json' | 'pretty',
): { level: string; transport?: { target: string; options: Record<string, unknown> } } {
  if (format !== 'pretty') return { level };
  // In pino's worker thread, so formatting never holds up a request.
  return { level, transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } };
}
