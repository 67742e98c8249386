import { isIP } from 'node:net';
import path from 'node:path';
import { createAddressAllowList } from './http/access/address-allow-list.ts';
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

/**
 * The configuration, read and checked once at the entry (server.ts, the CLI): where the process
 * listens and keeps its data, what it talks to, and `settings`, every tunable figure. Nothing below
 * reads the environment or defaults.ts: it is handed what it needs from here.
 */
export interface Config {
  /** PORT (also settings.port). */
  port: number;
  /** HOST: the interface to listen on. */
  host: string;
  /** STAYGATE_DATA_DIR, resolved to an absolute path (also settings.dataDir). */
  dataDir: string;
  /** STAYGATE_PUBLIC_URL: the public base URL for links; null = the request's own scheme and host. */
  publicUrl: string | null;
  /** Each slot's API, where it is (null: the built-in simulator), credentials and booking page. */
  suppliers: Record<SupplierId, SupplierSlotSetting>;
  /** LOG_LEVEL: a pino level. */
  logLevel: string;
  /**
   * DATABASE_URL: every store on this PostgreSQL database (postgres://...), shared by gateways and
   * the CLI; null = the SQLite file in the data folder (the embedded default).
   */
  databaseUrl: string | null;
  /** REDIS_URL: shared rate limits and quote cache through Redis; null = each process limits and caches in memory. */
  redisUrl: string | null;
  /** STAYGATE_REDIS_PREFIX: the prefix of every key this gateway writes in Redis (several deployments on one Redis); null = the defaults. */
  redisKeyPrefix: string | null;
  /** STAYGATE_TRUSTED_PROXIES: proxies whose X-Forwarded-For is believed (IPs, CIDRs, or loopback / linklocal / uniquelocal). */
  trustedProxies: string[];
  /** STAYGATE_MAP_TILES_URL: a raster tile template for the map; null = the offline basemap. */
  mapTilesUrl: string | null;
  /** STAYGATE_MAP_TILES_ATTRIBUTION: credit shown for those tiles. */
  mapTilesAttribution: string | null;
  /** LOG_FORMAT: `json` (one object per line, for machines) or `pretty` (pino-pretty, for people). */
  logFormat: 'json' | 'pretty';
  /** STAYGATE_URL: the gateway `staygate mcp` talks to; null = this configuration's own (http://localhost:PORT). */
  gatewayUrl: string | null;
  /** STAYGATE_API_KEY: the key `staygate mcp` sends; null = none (the demo's keyless limits). */
  apiKey: string | null;
  /**
   * Every tunable figure: defaults.ts overlaid with the variables that set one (PORT,
   * STAYGATE_DATA_DIR, STAYGATE_SIM_SEED, STAYGATE_SIM_STAYS, STAYGATE_REPORT_*, STAYGATE_CORS_ORIGINS,
   * STAYGATE_METRICS_ALLOW, STAYGATE_CONTENT_REFRESH_MS, STAYGATE_CONTENT_RETRY_MS,
   * STAYGATE_FEED_SHRINK_LIMIT): what modules are given.
   */
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
    if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
      refuse(`${prefix}URL must be an http(s) URL, got "${maskUserinfo(url)}"`);
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

/** A password in a URL is never repeated in a message. */
function maskUserinfo(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
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

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 0 || value > max)
    throw new Error(`${name} must be a whole number from 0${max === Number.MAX_SAFE_INTEGER ? '' : ` to ${max}`}, got "${text}"`);
  return value;
}

/** An http(s) URL without a trailing slash, or null when unset. */
function httpUrl(env: NodeJS.ProcessEnv, name: string): string | null {
  const text = (env[name] ?? '').trim();
  if (text === '') return null;
  if (!URL.canParse(text) || !/^https?:$/.test(new URL(text).protocol))
    throw new Error(`${name} must be an http(s) URL, got "${maskUserinfo(text)}"`);
  return text.replace(/\/+$/, '');
}

function databaseUrl(text: string | undefined): string | null {
  if (text === undefined || text.trim() === '') return null;
  if (!/^postgres(ql)?:\/\//.test(text.trim()))
    throw new Error(`DATABASE_URL must be a postgres:// or postgresql:// URL, got "${maskUserinfo(text)}"`);
  return text.trim();
}

function redisUrl(text: string | undefined): string | null {
  if (text === undefined || text.trim() === '') return null;
  if (!/^rediss?:\/\//.test(text.trim()) || !URL.canParse(text.trim()))
    throw new Error(`REDIS_URL must be a redis:// or rediss:// URL, got "${maskUserinfo(text)}"`);
  return text.trim();
}

function logFormat(text: string | undefined): 'json' | 'pretty' {
  if (text === undefined || text === '' || text === 'json') return 'json';
  if (text === 'pretty') return 'pretty';
  throw new Error(`LOG_FORMAT must be json or pretty, got "${text}"`);
}

/** pino's levels; anything else would only fail when the logger is made. */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function logLevel(text: string | undefined): string {
  if (text === undefined || text === '') return 'info';
  if (!LOG_LEVELS.includes(text)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${text}"`);
  return text;
}

/** An interface to listen on: an IP address or a host name. */
function host(text: string | undefined): string {
  if (text === undefined || text === '') return '127.0.0.1';
  if (isIP(text) === 0 && !/^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/.test(text))
    throw new Error(`HOST must be an IP address or a host name, got "${text}"`);
  return text;
}

/** Address entries (`loopback`, IPs, CIDRs; `any` where allowed), checked as the allow list reads them. */
function addresses(env: NodeJS.ProcessEnv, name: string, fallback: readonly string[], anyAllowed: boolean): string[] {
  const entries = list(env, name, fallback);
  const refused = entries.find((entry) => {
    if (entry === 'any' || entry === '*') return !anyAllowed;
    try {
      createAddressAllowList([entry]);
      return false;
    } catch {
      return true;
    }
  });
  if (refused !== undefined)
    throw new Error(
      `${name}: "${refused}" is not an address, a CIDR range, loopback, linklocal or uniquelocal${anyAllowed ? ', or any' : ''}`,
    );
  return entries;
}

/** `*`, or origins as a browser sends them: scheme, host and port, nothing else. */
function origins(env: NodeJS.ProcessEnv, name: string, fallback: readonly string[]): string[] {
  const entries = list(env, name, fallback);
  const refused = entries.find((entry) => entry !== '*' && !(URL.canParse(entry) && new URL(entry).origin === entry));
  if (refused !== undefined) throw new Error(`${name}: "${refused}" is not an origin (scheme://host[:port], no path) or *`);
  return entries;
}

/** A raster tile template: an http(s) URL with {z}, {x} and {y}. */
function tilesUrl(env: NodeJS.ProcessEnv): string | null {
  const url = httpUrl(env, 'STAYGATE_MAP_TILES_URL');
  if (url !== null && !['{z}', '{x}', '{y}'].every((part) => url.includes(part)))
    throw new Error(`STAYGATE_MAP_TILES_URL must hold {z}, {x} and {y}, got "${maskUserinfo(url)}"`);
  return url;
}

/**
 * Configuration from the environment (documented in the README's table), every variable checked
 * here, once: a mistake stops the start with a message naming the variable, never a failure later
 * in the module that uses it. The supplier registry is configuration: each slot's
 * STAYGATE_SUPPLIER_<X>_API, _URL and credentials point its driver at a real API; a slot without
 * _URL is served by the built-in simulator.
 */
/**
 * A variable refused at the start: the CLI and the server print its message, one line, and exit 1
 * (never a stack trace). Its name stays "Error", so the message reads as before.
 */
export class ConfigError extends Error {}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return configOf(env);
  } catch (error) {
    throw new ConfigError((error as Error).message, { cause: error });
  }
}

function configOf(env: NodeJS.ProcessEnv): Config {
  const mapTilesUrl = tilesUrl(env);
  const mapTilesAttribution = env.STAYGATE_MAP_TILES_ATTRIBUTION?.trim() || null;
  if (mapTilesAttribution !== null && mapTilesUrl === null)
    throw new Error('STAYGATE_MAP_TILES_ATTRIBUTION credits tiles, but STAYGATE_MAP_TILES_URL is not set');
  const settings: Settings = {
    ...defaults,
    port: int(env, 'PORT', defaults.port, 65_535),
    dataDir: path.resolve(env.STAYGATE_DATA_DIR || defaults.dataDir),
    simSeed: int(env, 'STAYGATE_SIM_SEED', defaults.simSeed),
    simStays: int(env, 'STAYGATE_SIM_STAYS', defaults.simStays),
    reportSyncIntervalMs: int(env, 'STAYGATE_REPORT_SYNC_MS', defaults.reportSyncIntervalMs),
    reportSyncOverlapMs: int(env, 'STAYGATE_REPORT_SYNC_OVERLAP_MS', defaults.reportSyncOverlapMs),
    reportReconcileIntervalMs: int(env, 'STAYGATE_REPORT_RECONCILE_MS', defaults.reportReconcileIntervalMs),
    reportReconcileDays: int(env, 'STAYGATE_REPORT_RECONCILE_DAYS', defaults.reportReconcileDays),
    corsOrigins: origins(env, 'STAYGATE_CORS_ORIGINS', defaults.corsOrigins),
    metricsAllow: addresses(env, 'STAYGATE_METRICS_ALLOW', defaults.metricsAllow, true),
    contentRefreshMs: int(env, 'STAYGATE_CONTENT_REFRESH_MS', defaults.contentRefreshMs),
    contentRetryMs: int(env, 'STAYGATE_CONTENT_RETRY_MS', defaults.contentRetryMs),
    feedShrinkLimit: share(env, 'STAYGATE_FEED_SHRINK_LIMIT', defaults.feedShrinkLimit),
  };
  return {
    port: settings.port,
    host: host(env.HOST),
    dataDir: settings.dataDir,
    publicUrl: httpUrl(env, 'STAYGATE_PUBLIC_URL'),
    suppliers: Object.fromEntries(SUPPLIER_IDS.map((id) => [id, supplierSlot(env, id)])) as Record<SupplierId, SupplierSlotSetting>,
    logLevel: logLevel(env.LOG_LEVEL),
    databaseUrl: databaseUrl(env.DATABASE_URL),
    redisUrl: redisUrl(env.REDIS_URL),
    redisKeyPrefix: env.STAYGATE_REDIS_PREFIX || null,
    trustedProxies: addresses(env, 'STAYGATE_TRUSTED_PROXIES', [], false),
    mapTilesUrl,
    mapTilesAttribution,
    logFormat: logFormat(env.LOG_FORMAT),
    gatewayUrl: httpUrl(env, 'STAYGATE_URL'),
    apiKey: env.STAYGATE_API_KEY?.trim() || null,
    settings,
  };
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
