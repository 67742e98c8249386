// The routes-only HTTP app: every surface of the gateway registered exactly as createApp registers
// it (compose/http.ts), over inert services, without a store, a supplier, a simulator or a world.
// It answers what needs none of them (GET /openapi.json, the docs); `staygate openapi` prints its
// document, the one a running gateway serves. Anything that would need a service throws.
import type { FastifyInstance } from 'fastify';
import { createMapSearchCounter } from '../auth/map-search-counter.ts';
import { createMemoryRateLimiter } from '../auth/memory-rate-limiter.ts';
import { createMetrics } from '../metrics/create-metrics.ts';
import { SUPPLIER_IDS, type Settings } from '../types.ts';
import { createGatewayHttp, trackingOf, WEB_DIST, type HttpParts } from './http.ts';
import type { RecordStores } from './open-stores.ts';

/** An object whose every method throws: a service the routes-only app has not got. */
function inert<T extends object>(what: string): T {
  return new Proxy({} as T, {
    get(_target, property) {
      // Not a promise: `await` of an inert service must not call `then`.
      if (property === 'then') return undefined;
      return () => {
        throw new Error(`${what}.${String(property)}: the routes-only app has no ${what} (staygate openapi serves no requests)`);
      };
    },
  });
}

export interface RoutesOnlyApp {
  http: FastifyInstance;
  close(): Promise<void>;
}

export function createRoutesOnlyHttp(settings: Settings): RoutesOnlyApp {
  const stores: HttpParts['stores'] = { keys: inert('key store'), clicks: inert('click store'), transactions: inert('transaction store') };
  const mapSearches = createMapSearchCounter({
    store: inert<Pick<RecordStores['keys'], 'countMapSearches'>>('key store'),
    flushMs: settings.mapCountFlushMs,
  });
  const limiter = createMemoryRateLimiter({ windowMs: settings.rateWindowMs });
  const bookingPages = Object.fromEntries(
    SUPPLIER_IDS.map((id) => [id, inert(`${id} booking page`)]),
  ) as HttpParts['tracking']['bookingPages'];
  const http = createGatewayHttp({
    settings,
    services: () => null,
    now: () => new Date(),
    publicUrl: null,
    logger: false,
    trustedProxies: [],
    stores,
    limiter,
    metrics: createMetrics({ processMetrics: false }),
    tracking: trackingOf(settings, stores.clicks, bookingPages),
    pages: { dir: WEB_DIST, geocode: async () => null, tilesUrl: null, tilesAttribution: null },
    mapSearches,
    health: () => ({ status: 'starting', inventory: null, suppliers: {} }),
  });
  return {
    http,
    async close() {
      await http.close();
      await mapSearches.close();
      await limiter.close();
    },
  };
}
