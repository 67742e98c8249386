import type { FastifyRequest } from 'fastify';
import type { EncodedBodies } from './encoded-bodies.ts';
import type { Search } from '../search/search-result.ts';
import type { SupplierId } from '../types.ts';

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

/** What every route module receives from the HTTP app. */
export interface RouteContext {
  /** The loaded services; throws a 503 NOT_READY ApiError while the index is being built. */
  services(): Services;
  /** The clock, injected so that date rules are testable. */
  now(): Date;
  /** The public base URL (no trailing slash), path and raw query string of a request. */
  urlOf(request: FastifyRequest): { base: string; path: string; rawQuery: string };
  /** The encoded bytes of static answers, by entity tag and encoding (encoded-bodies.ts), shared by every search route. */
  encodedBodies: EncodedBodies;
}
