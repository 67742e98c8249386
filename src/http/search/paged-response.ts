import { Type, type Static } from 'typebox';
import { jsonSafeString } from '../json-schema.ts';
import type { SearchQuery } from '../../search/search-query.ts';
import type { SearchResult } from '../../search/search-result.ts';
import type { IgnoredParam } from '../../errors/api-error.ts';
import type { SupplierFailure } from '../../suppliers/quote-service.ts';
import { SUPPLIER_IDS, type Listing, type Offers, type Stay, type SupplierId } from '../../types.ts';

// What the unified generations (v2, v3) share around their results: `meta`, `_links` and
// `clusters`. A version's presenter differs only in the shape of one accommodation.
const href = Type.Object({ href: jsonSafeString });
const latLng = Type.Object({ lat: Type.Number(), lng: Type.Number() });

/** Why a supplier could not price, as `meta.unavailableSuppliers` says it. */
const UNAVAILABLE_REASONS = {
  timeout: 'timeout',
  error: 'error',
  unreachable: 'unreachable',
  malformed: 'malformed',
  open: 'circuit_open',
  busy: 'busy',
  // The gateway's credentials refused, or its calls rate limited: the supplier answered with an
  // HTTP error; the operator sees which in /health and /metrics (docs/decisions.md 131).
  auth: 'error',
  rate_limited: 'error',
} as const satisfies Record<SupplierFailure, Static<typeof unavailableSupplierSchema>['reason']>;

export const unavailableSupplierSchema = Type.Object({
  supplier: Type.String(),
  reason: Type.Union([
    Type.Literal('timeout'),
    Type.Literal('error'),
    Type.Literal('unreachable'),
    Type.Literal('malformed'),
    Type.Literal('circuit_open'),
    Type.Literal('busy'),
    Type.Literal('content_unavailable'),
  ]),
});
export const ignoredParamSchema = Type.Object({ param: Type.String(), reason: Type.String() });

export const pageMetaSchema = Type.Object({
  pageSize: Type.Number(),
  count: Type.Number(),
  page: Type.Number(),
  hasMore: Type.Boolean(),
  total: Type.Number(),
  unresolved: Type.Array(Type.String()),
  /** Present when the answer is clustered. */
  clustering: Type.Optional(Type.Object({ strategy: Type.String(), precision: Type.Number(), mode: Type.String() })),
  currency: Type.String(),
  checkin: Type.Optional(Type.String()),
  checkout: Type.Optional(Type.String()),
  nights: Type.Optional(Type.Number()),
  /**
   * Dated searches: the asked suppliers that could not price (their entries carry `price: null`)
   * and why, so that "supplier down" is told from "no price known"; and suppliers whose content
   * the gateway does not hold yet (`content_unavailable`: none of their stays can be in the
   * results, docs/decisions.md 68).
   */
  unavailableSuppliers: Type.Optional(Type.Array(unavailableSupplierSchema)),
  /** The language of the content: `en`, whatever `lang` asked (only English is served). */
  lang: Type.String(),
  /** Parameters the request gave that this answer does not apply, and why; absent when none. */
  ignored: Type.Optional(Type.Array(ignoredParamSchema)),
});

export const pageLinksSchema = Type.Object({ self: href, first: href, prev: Type.Optional(href), next: Type.Optional(href) });

/** A dense H3 cell of `cluster=auto`/`true`; `_links.expand` lists exactly its stays. */
export const clusterSchema = Type.Object({
  id: Type.String(),
  type: Type.Literal('Cluster'),
  location: Type.Object({ coordinates: latLng, bounds: Type.Object({ ne: latLng, sw: latLng }) }),
  count: Type.Number(),
  _links: Type.Object({ expand: href }),
});

export type PageMeta = Static<typeof pageMetaSchema>;
export type Cluster = Static<typeof clusterSchema>;

/**
 * `meta.unavailableSuppliers`: the asked suppliers that failed, and the suppliers without content
 * (docs/decisions.md 68: never asked, since no stay of theirs is held, yet missing from the answer).
 */
export function unavailableSuppliers(
  result: SearchResult,
  contentUnavailable: readonly SupplierId[] = [],
): Static<typeof unavailableSupplierSchema>[] {
  return SUPPLIER_IDS.flatMap((supplier): Static<typeof unavailableSupplierSchema>[] => {
    const info = result.failures[supplier];
    if (info !== undefined) return [{ supplier, reason: UNAVAILABLE_REASONS[info.failure] }];
    return contentUnavailable.includes(supplier) ? [{ supplier, reason: 'content_unavailable' }] : [];
  });
}

export function pageMeta(
  result: SearchResult,
  query: SearchQuery,
  count: number,
  ignored: readonly IgnoredParam[],
  contentUnavailable: readonly SupplierId[] = [],
): PageMeta {
  return {
    pageSize: query.pageSize,
    count,
    page: query.page,
    hasMore: result.hasMore,
    total: result.total,
    unresolved: result.unresolved,
    ...(result.clustering === null ? {} : { clustering: result.clustering }),
    currency: result.currency,
    ...(query.dates === null
      ? {}
      : {
          checkin: query.dates.checkin,
          checkout: query.dates.checkout,
          nights: query.dates.nights,
          unavailableSuppliers: unavailableSuppliers(result, contentUnavailable),
        }),
    lang: 'en',
    ...(ignored.length === 0 ? {} : { ignored: [...ignored] }),
  };
}

/** `clusters[]` of a clustered answer, or undefined for a flat list (the field is then absent). */
export function presentClusters(result: SearchResult, expand: (cellId: string) => string): Cluster[] | undefined {
  return result.clusters?.map((c): Cluster => ({
    id: c.id,
    type: 'Cluster',
    location: { coordinates: { lat: c.lat, lng: c.lng }, bounds: c.bounds },
    count: c.count,
    _links: { expand: { href: expand(c.id) } },
  }));
}

/** Generic label when a supplier gives no display type (the spec's "generic fallback label"). */
export function displayType(label: string): string {
  return label || 'Accommodation';
}

/**
 * The suppliers a result shows: the requested providers only, and on a dated search only those
 * that sell the stay for these dates or could not say (a sold-out supplier has no entry).
 */
export function shownListings(stay: Stay, providers: readonly SupplierId[] | null, offers: Offers | null): Listing[] {
  return stay.listings.filter((l) => (providers === null || providers.includes(l.supplier)) && (offers === null || offers.has(l.supplier)));
}

/** A supplier entry's `price`: absent on static searches, null when the supplier could not say. */
export function priceOf(offers: Offers | null, supplier: SupplierId): { price?: { total: number } | null } {
  if (offers === null) return {};
  const total = offers.get(supplier)!;
  return { price: total === null ? null : { total } };
}
