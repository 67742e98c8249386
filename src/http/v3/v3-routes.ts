import type { FastifyInstance } from 'fastify';
import { defaults } from '../../defaults.ts';
import { deeplinks, expandLink, pageLinks } from '../links.ts';
import type { RouteContext } from '../route-context.ts';
import type { SearchQuery } from '../../search/search-query.ts';
import type { SearchResult } from '../../search/search-result.ts';
import { registerUnifiedSearch, type PresentContext } from '../unified-search-route.ts';
import { renderV3 } from './render-v3.ts';
import { v3ResponseSchema } from './v3-response-schema.ts';

/** The v3 search as the map page calls it: same parameters and body, a traveller's allowance (docs/decisions.md 39). */
export const MAP_SEARCH_PATH = '/map/v3/accommodations';

/**
 * `/v3/accommodations`, and, when `mapKeylessPerMinute` is given, the same search at
 * MAP_SEARCH_PATH with that keyless allowance per IP (its own bucket).
 */
export function registerV3Routes(app: FastifyInstance, context: RouteContext, options: { mapKeylessPerMinute?: number } = {}): void {
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
  if (options.mapKeylessPerMinute !== undefined)
    registerUnifiedSearch(app, context, {
      url: MAP_SEARCH_PATH,
      ...route,
      tags: ['pages'],
      summary: "The map page's search (v3, the map's allowance)",
      description:
        `What \`/map\` calls as the traveller pans: the v3 search, same parameters and answer, with the map's own keyless allowance ` +
        `(${defaults.mapKeylessPerMinute} a minute per address by default, docs/decisions.md 39) instead of the demo one. Partners search \`/v3/accommodations\`.`,
      keylessPerMinute: options.mapKeylessPerMinute,
    });
}
