import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../errors/api-error.ts';
import { deeplinks, expandLink, pageLinks } from '../search/links.ts';
import type { RouteContext } from '../route-context.ts';
import { registerUnifiedSearch } from '../search/unified-search-route.ts';
import { presentV2 } from './present-v2.ts';
import { v2ResponseSchema } from './v2-response-schema.ts';

export function registerV2Routes(app: FastifyInstance, context: RouteContext): void {
  registerUnifiedSearch(app, context, {
    url: '/v2/accommodations',
    summary: 'Search stays (v2, planned for deprecation: use v3)',
    description:
      'The v3 search in the v2 shape: `rating`, `policies` and `media` per stay, no `averageRatings`. Same parameters, rules and headers as v3; never a 503 (a gateway still loading answers 502).',
    errorStatuses: [400, 401, 429, 502],
    responseSchema: v2ResponseSchema,
    present: (result, query, { base, path, rawQuery, link, ignored, contentUnavailable }) =>
      presentV2(
        result,
        query,
        pageLinks(base, path, rawQuery, { page: query.page, pageSize: query.pageSize, hasMore: result.hasMore, total: result.total }),
        deeplinks(base, link),
        (cellId) => expandLink(base, path, rawQuery, cellId),
        ignored,
        contentUnavailable,
      ),
    // v2 never answers 503 (spec 1.1.3): a gateway still loading its inventory is, to a v2
    // client, an upstream that failed; it is told when to retry all the same.
    mapError: (error) =>
      error.statusCode === 503 ? new ApiError('BAD_GATEWAY', error.message, { details: error.details, headers: error.headers }) : error,
  });
}
