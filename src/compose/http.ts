// The HTTP app and the services of its surfaces: access control (keys, rate limits), metrics,
// tracked deeplinks, partner reporting, the pages and the map search. The running gateway
// (app.ts) and the routes-only app (routes-only.ts) build it here alike, so both register every route.
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { fileURLToPath } from 'node:url';
import type { MapSearchCounter } from '../auth/map-search-counter.ts';
import type { RateLimiter } from '../auth/rate-limiter.ts';
import { createKeyVerifier } from '../auth/key-verifier.ts';
import type { GeocodedPlace } from '../geo/geocoder.ts';
import { createHttpApp } from '../http/create-http-app.ts';
import type { HealthReport } from '../http/ops/health-routes.ts';
import type { Tracking } from '../http/partner/go-routes.ts';
import type { Services } from '../http/route-context.ts';
import type { Metrics } from '../metrics/create-metrics.ts';
import { createPartnerSummaries } from '../reporting/partner-summary.ts';
import type { Settings } from '../types.ts';
import type { RecordStores } from './open-stores.ts';

export interface HttpParts {
  /** `config.settings`: the routes', the limits' and the web conventions' figures. */
  settings: Settings;
  /** The loaded services, or null while the first content version is being loaded. */
  services: () => Services | null;
  now: () => Date;
  /** STAYGATE_PUBLIC_URL; null = the request's own host. */
  publicUrl: string | null;
  logger: FastifyServerOptions['logger'];
  /** STAYGATE_TRUSTED_PROXIES. */
  trustedProxies: readonly string[];
  stores: Pick<RecordStores, 'keys' | 'clicks' | 'transactions'>;
  limiter: RateLimiter;
  /** Milliseconds clock of the limiter (tests); absent = monotonic. */
  rateLimitClock?: () => number;
  metrics: Metrics;
  /** The `/go` routes' clicks and booking pages (trackingOf). */
  tracking: Tracking;
  pages: {
    /** Where web/build.ts wrote the bundles. */
    dir: string;
    geocode(address: string): Promise<GeocodedPlace | null>;
    /** STAYGATE_MAP_TILES_URL and _ATTRIBUTION; null = the offline basemap. */
    tilesUrl: string | null;
    tilesAttribution: string | null;
  };
  /** Map searches made with a token, counted for the partners' hub (docs/decisions.md 91). */
  mapSearches: MapSearchCounter;
  /** What /health reports. */
  health: () => HealthReport;
}

/** Where web/build.ts writes the pages' bundles: web/dist of this package. */
export const WEB_DIST = fileURLToPath(new URL('../../web/dist/', import.meta.url));

/** The `/go` routes' parts: where clicks are kept, each slot's booking page, and the keyless allowance. */
export function trackingOf(
  settings: Pick<Settings, 'goKeylessPerMinute'>,
  clicks: Tracking['clicks'],
  bookingPages: Tracking['bookingPages'],
): Tracking {
  return { clicks, bookingPages, keylessPerMinute: settings.goKeylessPerMinute };
}

export function createGatewayHttp(parts: HttpParts): FastifyInstance {
  const { settings, stores, metrics } = parts;
  const http = createHttpApp({
    services: parts.services,
    now: parts.now,
    publicUrl: parts.publicUrl,
    logger: parts.logger,
    access: {
      keys: createKeyVerifier({
        store: stores.keys,
        maxAgeMs: settings.keyRefreshMs,
        onError: (error) => http.log.error({ err: error }, 'reloading the API keys failed; the keys held are still used'),
      }),
      limiter: parts.limiter,
      limits: { keyless: settings.keylessPerMinute, keyed: settings.keyedPerMinute },
      clock: parts.rateLimitClock,
      windowMs: settings.rateWindowMs,
      onRefused: (endpoint) => metrics.rateLimited(endpoint),
    },
    settings,
    metrics: { metrics, allow: settings.metricsAllow },
    tracking: parts.tracking,
    reporting: {
      transactions: stores.transactions,
      summary: createPartnerSummaries({ clicks: stores.clicks, transactions: stores.transactions, keys: stores.keys }),
    },
    trustedProxies: [...parts.trustedProxies],
    pages: {
      ...parts.pages,
      keylessPerMinute: settings.mapKeylessPerMinute,
      mapTokenPerMinute: settings.mapTokenPerMinute,
      mapSearches: parts.mapSearches,
    },
    health: parts.health,
  });
  return http;
}
