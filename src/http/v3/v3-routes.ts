import type { FastifyInstance } from 'fastify';
import { deeplinks, expandLink, pageLinks } from '../search/links.ts';
import type { RouteContext } from '../route-context.ts';
import type { SearchQuery } from '../../search/search-query.ts';
import type { SearchResult } from '../../search/search-result.ts';
import { registerUnifiedSearch, type PresentContext } from '../search/unified-search-route.ts';
import type { MapSearchAccess } from '../search/map-search.ts';
import { renderV3 } from './render-v3.ts';
import { v3ResponseSchema } from './v3-response-schema.ts';

/** The v3 search as the map page calls it: what the map draws, with its token (docs/decisions.md 39, 91). */
export const MAP_SEARCH_PATH = '/map/v3/accommodations';

/**
 * `/v3/accommodations`, and, when `map` is given, the map's search at MAP_SEARCH_PATH
 * (http/search/map-search.ts: what the map draws, the map token's allowance or the keyless one).
 */
export function registerV3Routes(
  app: FastifyInstance,
  context: RouteContext,
  options: { map?: { access: MapSearchAccess | null } } = {},
): void {
  const route = {
    summary: 'Search stays (v3, current)',
    errorStatuses: [400, 401, 429, 503],
    description:
      'Unified multi-supplier search: each result carries its suppliers with their own `rating`, `media`, `policies` and, on dated searches, `price`; `averageRatings` sums them up. ' +
      'Static without both dates (no prices), dated with both. Pages: follow `_links.next` while `meta.hasMore`. ' +
      '`meta.ignored` lists parameters given but not applied (unknown ones, a lone date, `min`/`max` without dates). ' +
      'Answers carry `ETag` (a matching `If-None-Match` is a 304), `X-Cache`, `X-RateLimit-*`, `RateLimit-Policy` and `RateLimit`.',
    responseSchema: v3ResponseSchema,
    present: (result: SearchResult, query: SearchQuery, { base, path, rawQuery, link, ignored, contentUnavailable }: PresentContext) =>
      renderV3(
        result,
        query,
        pageLinks(base, path, rawQuery, { page: query.page, pageSize: query.pageSize, hasMore: result.hasMore, total: result.total }),
        deeplinks(base, link),
        (cellId) => expandLink(base, path, rawQuery, cellId),
        ignored,
        contentUnavailable,
      ),
  };
  registerUnifiedSearch(app, context, { url: '/v3/accommodations', ...route });
  if (options.map !== undefined)
    registerUnifiedSearch(app, context, {
      url: MAP_SEARCH_PATH,
      ...route,
      tags: ['pages'],
      summary: "The map page's search (v3, only what the map draws)",
      description:
        `What \`/map\` calls as the traveller pans: a v3 search of a viewport with \`cluster=auto\` and the map's filters, nothing else ` +
        `(other parameters are a 400). With a partner's publishable map \`token\` from an origin the token lists, the map's allowance ` +
        `(per address and per token, docs/decisions.md 91); without one, the keyless demo allowance. Partners search \`/v3/accommodations\`.`,
      map: options.map,
    });
}
