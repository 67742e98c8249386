import { Type, type TSchema } from 'typebox';
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, Violations, type IgnoredParam } from '../../errors/api-error.ts';
import type { SearchQuery } from '../../search/search-query.ts';
import type { SearchResult } from '../../search/search-result.ts';
import type { RawQuery } from '../query/compile-query.ts';
import { encodeBody, negotiateEncoding, type EncodedBody } from '../encoded-bodies.ts';
import { etagOf, ifNoneMatchHits, resultDigest } from '../etag.ts';
import { linkQuery, unknownParams } from './links.ts';
import { effectiveLinkParams } from '../access/request-auth.ts';
import type { RouteContext } from '../route-context.ts';
import { linkParams, toSearchQuery, type LinkParams } from '../query/search-params.ts';
import { errorResponses, OPTIONAL_KEY } from '../route-schemas.ts';
import { unifiedQuery } from '../query/unified-query-schema.ts';
import { checkMapAccess, checkMapQuery, countMapSearch, type MapSearchAccess } from './map-search.ts';
import type { SupplierId } from '../../types.ts';

/** What a presenter gets besides the result: where the request came from and its link parameters. */
export interface PresentContext {
  base: string;
  path: string;
  /** The request's query for links: without `key` and unknown parameters (links.ts `linkQuery`). */
  rawQuery: string;
  link: LinkParams;
  /** Parameters given but not applied (the answer's `meta.ignored`). */
  ignored: readonly IgnoredParam[];
  /** Suppliers without content in the served inventory (Services.contentUnavailable). */
  contentUnavailable: readonly SupplierId[];
}

export interface UnifiedSearchRoute {
  url: string;
  /** The OpenAPI summary and description of the route. */
  summary: string;
  description: string;
  deprecated?: boolean;
  /** The error statuses it answers with (the OpenAPI document lists them). */
  errorStatuses: number[];
  /**
   * 200 body schema. It drives the serialisation of a presented object, so the body carries
   * nothing it does not name; a presenter that writes the JSON text itself is held to it by tests.
   */
  responseSchema: TSchema;
  /** The 200 body: an object the schema serialises, or JSON text sent as it is. */
  present(result: SearchResult, query: SearchQuery, context: PresentContext): unknown;
  /** A version may narrow the errors it answers with (v2 never answers 503). */
  mapError?(error: ApiError): ApiError;
  /** OpenAPI tags; default `search`. */
  tags?: string[];
  /**
   * The map page's search (map-search.ts, docs/decisions.md 91): only what the map draws, its
   * token and origin checked and its allowance counted by `access` (null: an app without access
   * control, unit tests of other things). Absent: a search of the API.
   */
  map?: { access: MapSearchAccess | null };
}

/**
 * A static answer's encoded bytes, with the headers the compress plugin would have set (it leaves a
 * body that already names its Content-Encoding alone). Accept-Encoding is added to the answer's
 * Vary (Host, X-API-KEY: create-http-app.ts) whatever the encoding: the bytes depend on it.
 */
function sendEncoded(reply: FastifyReply, etag: string, body: EncodedBody): FastifyReply {
  const vary = reply.getHeader('Vary');
  reply.headers({
    ETag: etag,
    'X-Cache': 'HIT',
    Vary: vary === undefined ? 'Accept-Encoding' : `${String(vary)}, Accept-Encoding`,
    'Content-Length': body.bytes.length,
  });
  reply.type('application/json; charset=utf-8');
  if (body.contentEncoding !== null) reply.header('Content-Encoding', body.contentEncoding);
  return reply.send(body.bytes);
}

/**
 * The search route of the unified generations (v2, v3): same parameters and rules, one search
 * core, a presenter per version. Conditional GET: a static search's tag is known before searching
 * (inventory version, request URL without the key, effective affiliate parameters), so a matching
 * If-None-Match costs no search; a dated search's tag adds the prices and totals it found.
 */
export function registerUnifiedSearch(app: FastifyInstance, context: RouteContext, route: UnifiedSearchRoute): void {
  // The map's search does its own access check: the app-wide hook leaves it alone.
  const config: FastifyContextConfig = route.map === undefined ? {} : { rateLimit: false };
  const mapAccess = route.map?.access ?? null;
  const { settings } = context;
  const { schema, parse } = unifiedQuery(settings);
  app.get(
    route.url,
    {
      config,
      ...(mapAccess === null
        ? {}
        : {
            onRequest: async (request: FastifyRequest, reply: FastifyReply) =>
              checkMapAccess(request, reply, mapAccess, new URL(context.urlOf(request).base).origin),
            onResponse: async (request: FastifyRequest, reply: FastifyReply) => countMapSearch(request, reply, mapAccess),
          }),
      schema: {
        tags: route.tags ?? ['search'],
        summary: route.summary,
        description: route.description,
        ...(route.deprecated ? { deprecated: true } : {}),
        security: OPTIONAL_KEY,
        querystring: schema,
        response: {
          200: route.responseSchema,
          304: Type.Null({ description: 'Not Modified: the `If-None-Match` tag matches; no body.' }),
          ...errorResponses(...route.errorStatuses),
        },
      },
    },
    async (request, reply) => {
      try {
        const services = context.services();
        const violations = new Violations();
        const raw = request.query as RawQuery;
        const params = parse(route.map === undefined ? raw : checkMapQuery(raw, settings.mapMaxPageSize, violations), violations);
        const query = toSearchQuery(params, context.now(), violations, settings);
        violations.throwIfAny();
        const { base, path, rawQuery: requestQuery } = context.urlOf(request);
        const rawQuery = linkQuery(requestQuery, unknownParams(violations.ignored));
        const link = effectiveLinkParams(request, linkParams(params, settings));
        const requestParts = [route.url, services.inventory.version, base, rawQuery, link.aid ?? '', link.campaign ?? ''];

        const staticTag = query.dates === null ? etagOf(requestParts) : null;
        if (staticTag !== null && ifNoneMatchHits(request.headers['if-none-match'], staticTag)) {
          return reply.code(304).headers({ ETag: staticTag, 'X-Cache': 'HIT' }).send();
        }
        // A static answer already sent in this encoding: its bytes again, with no search (encoded-bodies.ts).
        const encoding = staticTag === null ? null : negotiateEncoding(request.headers);
        const kept = staticTag === null || encoding === null ? undefined : context.encodedBodies.get(staticTag, encoding);
        if (kept !== undefined) return sendEncoded(reply, staticTag!, kept);
        const result = await services.search(query);
        const etag = staticTag ?? etagOf([...requestParts, resultDigest(result)]);
        reply.headers({ ETag: etag, 'X-Cache': result.cache });
        if (ifNoneMatchHits(request.headers['if-none-match'], etag)) return reply.code(304).send();
        const body = route.present(result, query, {
          base,
          path,
          rawQuery,
          link,
          ignored: violations.ignored,
          contentUnavailable: services.contentUnavailable ?? [],
        });
        if (staticTag !== null && encoding !== null) {
          const encoded = encodeBody(typeof body === 'string' ? body : String(reply.serialize(body)), encoding, settings);
          context.encodedBodies.set(staticTag, encoding, encoded);
          return sendEncoded(reply, staticTag, encoded);
        }
        if (typeof body === 'string') reply.type('application/json; charset=utf-8');
        return body;
      } catch (error) {
        if (error instanceof ApiError && route.mapError) throw route.mapError(error);
        throw error;
      }
    },
  );
}
