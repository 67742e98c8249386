import type { FastifyRequest } from 'fastify';
import type { EncodedBodies } from './encoded-bodies.ts';
import type { Search } from '../search/search-result.ts';
import type { Settings, SupplierId } from '../types.ts';

/** What the service offers once its inventory is loaded. */
export interface Services {
  search: Search;
  inventory: { stays: number; version: string };
  /**
   * Suppliers of which the served inventory holds no listing (content `unavailable`: down since
   * the first start): dated searches name them in `meta.unavailableSuppliers`. Absent: none.
   */
  contentUnavailable?: readonly SupplierId[];
}

/**
 * The figures the HTTP app reads (`Settings`, resolved once by config.ts): the app takes them from
 * its caller and hands each route module its share; each module names the slice it uses.
 */
export type HttpSettings = Pick<
  Settings,
  // the query pipeline and its defaults (query/, v1/)
  | 'radiusMeters'
  | 'maxHotelIds'
  | 'maxPageSize'
  | 'pageSize'
  | 'adults'
  | 'rooms'
  | 'v1Nights'
  | 'v1CheckinInDays'
  | 'v1MinPrice'
  | 'v1MaxPrice'
  | 'v1DeprecatedAt'
  | 'v1SunsetAt'
  // the map's search and pages (search/map-search.ts, ops/page-routes.ts)
  | 'mapMaxPageSize'
  | 'mapTokenPerMinute'
  | 'pricedCandidates'
  // the documentation's allowance (ops/)
  | 'docsKeylessPerMinute'
  // partner reporting (partner/reporting-routes.ts)
  | 'reportingLimit'
  | 'summaryTop'
  | 'summaryMaxTop'
  | 'summaryLatest'
  | 'summaryMaxDays'
  // web conventions (create-http-app.ts, encoded-bodies.ts)
  | 'corsOrigins'
  | 'corsMaxAgeSeconds'
  | 'compressThresholdBytes'
  | 'compressSyncMaxBytes'
  | 'brotliQuality'
  | 'encodedBodiesMaxBytes'
>;

/** What every route module receives from the HTTP app. */
export interface RouteContext {
  /** The loaded services; throws a 503 NOT_READY ApiError while the index is being built. */
  services(): Services;
  /** The clock, injected so that date rules are testable. */
  now(): Date;
  /** The public base URL (no trailing slash), path and raw query string of a request. */
  urlOf(request: FastifyRequest): { base: string; path: string; rawQuery: string };
  /** The figures the routes read. */
  settings: HttpSettings;
  /** The encoded bytes of static answers, by entity tag and encoding (encoded-bodies.ts), shared by every search route. */
  encodedBodies: EncodedBodies;
}
