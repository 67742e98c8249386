import type { FastifyInstance } from 'fastify';
import { deeplinks, expandLink, pageLinks } from '../links.ts';
import type { RouteContext } from '../route-context.ts';
import { registerUnifiedSearch } from '../unified-search-route.ts';
import { renderV3 } from './render-v3.ts';
import { v3ResponseSchema } from './v3-response-schema.ts';

export function registerV3Routes(app: FastifyInstance, context: RouteContext): void {
  registerUnifiedSearch(app, context, {
    url: '/v3/accommodations',
    responseSchema: v3ResponseSchema,
    present: (result, query, { base, path, rawQuery, link, ignored }) => renderV3(
      result, query, pageLinks(base, path, rawQuery, query.page, result.hasMore), deeplinks(base, link),
      (cellId) => expandLink(base, path, rawQuery, cellId), ignored,
    ),
  });
}
