import type { FastifyInstance } from 'fastify';
import { Violations } from '../../errors/api-error.ts';
import { compileQuery, type RawQuery } from '../compile-query.ts';
import { deeplinks, pageLinks } from '../links.ts';
import { effectiveLinkParams } from '../request-auth.ts';
import type { RouteContext } from '../route-context.ts';
import { linkParams, toSearchQuery } from '../search-params.ts';
import { unifiedQuerySchema } from '../unified-query-schema.ts';
import { presentV3 } from './present-v3.ts';
import { v3ResponseSchema } from './v3-response-schema.ts';

const parseQuery = compileQuery(unifiedQuerySchema);

export function registerV3Routes(app: FastifyInstance, context: RouteContext): void {
  app.get('/v3/accommodations', { schema: { response: { 200: v3ResponseSchema } } }, async (request, reply) => {
    const services = context.services();
    const violations = new Violations();
    const params = parseQuery(request.query as RawQuery, violations);
    const query = toSearchQuery(params, context.now(), violations);
    violations.throwIfAny();
    const result = await services.search(query);
    reply.header('X-Cache', result.cache);
    const { base, path, rawQuery } = context.urlOf(request);
    return presentV3(result, query, pageLinks(base, path, rawQuery, query.page, result.hasMore), deeplinks(base, effectiveLinkParams(request, linkParams(params))));
  });
}
