import { getResolution, isValidCell } from 'h3-js';
import type { SupplierId } from '../../types.ts';
import { withoutKeyParams } from '../access/key-param.ts';
import type { LinkParams } from '../query/search-params.ts';
import { UNKNOWN_PARAMETER } from '../query/compile-query.ts';

export interface Href {
  href: string;
}

export interface PageLinks {
  self: Href;
  first: Href;
  prev?: Href;
  next?: Href;
}

/**
 * The request's query as links repeat it: without `key` (a link is often logged or shared, a key
 * must not be) and without the parameters the API does not know (reported in `meta.ignored`, so a
 * typo is not carried from page to page as if it had been applied). Pairs are kept as written.
 */
export function linkQuery(rawQuery: string, unknown: ReadonlySet<string>): string {
  const params = withoutKeyParams(rawQuery);
  for (const name of unknown) params.delete(name);
  return params.toString();
}

/** The unknown parameters among a request's ignored ones. */
export function unknownParams(ignored: readonly { param: string; reason: string }[]): Set<string> {
  return new Set(ignored.filter((i) => i.reason === UNKNOWN_PARAMETER).map((i) => i.param));
}

/** Where a page stands among the pages of its search. */
export interface PagePosition {
  page: number;
  pageSize: number;
  hasMore: boolean;
  /** The results the pages run over (`meta.total`). */
  total: number;
}

/**
 * `_links` for a paginated search: absolute URLs carrying the request's own query with `page`
 * replaced. The `key` parameter (in any spelling) is dropped: a link is often logged or shared,
 * a key must not be. `prev` of a page past the end is the last page that has results, not
 * another empty page (docs/decisions.md 86); without any result there is none, `first` remains.
 */
export function pageLinks(base: string, path: string, rawQuery: string, { page, pageSize, hasMore, total }: PagePosition): PageLinks {
  const params = withoutKeyParams(rawQuery);
  const at = (p: number): Href => {
    params.set('page', String(p));
    return { href: `${base}${path}?${params.toString()}` };
  };
  const links: PageLinks = { self: at(page), first: at(1) };
  const prev = Math.min(page - 1, Math.ceil(total / pageSize));
  if (prev >= 1) links.prev = at(prev);
  if (hasMore) links.next = at(page + 1);
  return links;
}

/** The request's URL without `key`, for versions whose `_links` has only `self`. */
export function selfLink(base: string, path: string, rawQuery: string): Href {
  const params = withoutKeyParams(rawQuery);
  const query = params.toString();
  return { href: `${base}${path}${query === '' ? '' : `?${query}`}` };
}

export interface Deeplinks {
  /** Top-level `url` of a stay: the gateway picks the supplier (docs/decisions.md 7). */
  stay(id: string): string;
  /** A supplier entry's `link`. */
  supplier(supplier: SupplierId, supplierStayId: string): string;
}

/**
 * Deeplinks through the gateway's `/go` redirects, carrying the effective `aid` and `campaign`,
 * and on dated searches the stay priced (`link.trip`), so `/go/{id}` picks the best-priced supplier.
 */
export function deeplinks(base: string, link: LinkParams): Deeplinks {
  const params = new URLSearchParams();
  if (link.aid !== null) params.set('aid', link.aid);
  if (link.campaign !== null) params.set('campaign', link.campaign);
  for (const [name, value] of Object.entries(link.trip ?? {})) params.set(name, value);
  const query = params.size > 0 ? `?${params.toString()}` : '';
  return {
    stay: (id) => `${base}/go/${encodeURIComponent(id)}${query}`,
    supplier: (supplier, supplierStayId) => `${base}/go/${supplier}/${encodeURIComponent(supplierStayId)}${query}`,
  };
}

/**
 * A cluster's expand link: the request's own query (same filters) restricted to the cluster's
 * H3 cell, as a flat list from its first page. Shared by every version that clusters.
 */
export function expandLink(base: string, path: string, rawQuery: string, cellId: string): string {
  const params = withoutKeyParams(rawQuery);
  // A `cell` filter finer than the cluster's cell lies inside it (the cluster holds its stays):
  // the finer one is their intersection, so it is the one the link keeps.
  const own = params.get('cell')?.toLowerCase();
  const cell = own !== undefined && isValidCell(own) && getResolution(own) > getResolution(cellId) ? own : cellId;
  for (const name of ['cluster', 'precision', 'page', 'cell']) params.delete(name);
  params.set('cell', cell);
  return `${base}${path}?${params.toString()}`;
}
