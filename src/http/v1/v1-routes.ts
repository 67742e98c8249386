import type { FastifyInstance } from 'fastify';
import { ApiError, Violations } from '../../errors/api-error.ts';
import type { FailureInfo } from '../../search/price-stays.ts';
import type { SupplierId } from '../../types.ts';
import { compileQuery, type RawQuery } from '../query/compile-query.ts';
import { deeplinks, linkQuery, selfLink, unknownParams } from '../search/links.ts';
import { effectiveLinkParams } from '../access/request-auth.ts';
import type { RouteContext } from '../route-context.ts';
import { MIGRATION_GUIDE_PATH } from '../ops/docs-routes.ts';
import { presentV1 } from './present-v1.ts';
import { errorResponses, OPTIONAL_KEY } from '../route-schemas.ts';
import { v1QuerySchema } from './v1-query-schema.ts';
import { v1ResponseSchema } from './v1-response-schema.ts';
import { toV1SearchQuery } from './v1-params.ts';

const parseQuery = compileQuery(v1QuerySchema);
/** The spec's retry delay for v1's 503 (Limits: "Retry delay for 503: 30 seconds"). */
const V1_RETRY_SECONDS = 30;

/** v1 is one supplier per call: when that supplier fails, the call fails, with v1's own codes. */
function upstreamError(provider: SupplierId, info: FailureInfo): ApiError {
  const options = { provider };
  switch (info.failure) {
    case 'timeout':
      return new ApiError('UPSTREAM_TIMEOUT', `${provider} did not answer in time`, options);
    case 'error':
    case 'auth': // the gateway's credentials refused: the operator's to fix (its /health says so), an error to the partner
      return new ApiError('UPSTREAM_ERROR', `${provider} returned an error`, options);
    case 'rate_limited':
      return new ApiError('UPSTREAM_ERROR', `${provider} is limiting the gateway's request rate; retry shortly`, options);
    case 'malformed':
      return new ApiError('BAD_GATEWAY', `${provider} answered with a response that could not be parsed`, options);
    case 'unreachable':
      return new ApiError('BAD_GATEWAY', `${provider} could not be reached`, options);
    case 'busy':
      return new ApiError('UPSTREAM_TIMEOUT', `${provider} could not be asked in time: the gateway is busy; retry shortly`, options);
    case 'open':
      // The spec's fixed "retry after 30 seconds", not the breaker's remaining pause: a client
      // that comes back sooner would meet the half-open probe, or the breaker open again.
      return new ApiError(
        'SERVICE_UNAVAILABLE',
        `${provider} is failing; calls to it are paused. Retry after ${V1_RETRY_SECONDS} seconds`,
        {
          ...options,
          headers: { 'Retry-After': String(V1_RETRY_SECONDS) },
          details: { retryAfter: V1_RETRY_SECONDS },
        },
      );
  }
}

export function registerV1Routes(app: FastifyInstance, context: RouteContext): void {
  const { settings } = context;
  /** RFC 9745: when v1 was deprecated, as a structured-field date. */
  const deprecatedAt = `@${Math.floor(Date.parse(settings.v1DeprecatedAt) / 1000)}`;
  /** RFC 8594: the HTTP date after which v1 may stop answering. */
  const sunsetAt = new Date(settings.v1SunsetAt).toUTCString();
  app.get(
    '/v1/accommodations',
    {
      schema: {
        tags: ['search'],
        summary: 'Search one supplier (v1, deprecated: use v3)',
        description:
          'One `provider` per call, always priced (default: a 3-night stay from today + 90 days, 0 to 1000 USD a night). ' +
          'Every answer, errors included, carries `Deprecation`, `Sunset` (the date v1 may stop answering) and a `Link` to the migration guide.',
        deprecated: true,
        security: OPTIONAL_KEY,
        querystring: v1QuerySchema,
        response: { 200: v1ResponseSchema, ...errorResponses(400, 401, 429, 502, 503, 504) },
      },
    },
    async (request, reply) => {
      const { base, path, rawQuery } = context.urlOf(request);
      // Deprecation and sunset are announced on every answer, errors included (RFC 9745, RFC 8594).
      reply.headers({
        Deprecation: deprecatedAt,
        Sunset: sunsetAt,
        Link: `<${base}${MIGRATION_GUIDE_PATH}>; rel="deprecation"; type="text/html", <${base}${MIGRATION_GUIDE_PATH}>; rel="sunset"; type="text/html", <${base}/v3/accommodations>; rel="successor-version"`,
      });
      const services = context.services();
      const violations = new Violations();
      const params = parseQuery(request.query as RawQuery, violations);
      const query = toV1SearchQuery(params, context.now(), violations, settings);
      violations.throwIfAny();
      const linked = linkQuery(rawQuery, unknownParams(violations.ignored));
      const provider = query.providers[0];
      const result = await services.search(query);
      const failure = result.failures[provider];
      if (failure !== undefined) throw upstreamError(provider, failure);
      reply.header('X-Cache', result.cache);
      // v1 is always dated (defaults included): its links carry the stay priced, so the booking
      // page opens on the same dates and party.
      const { occupancy, dates } = query;
      const trip =
        dates === null
          ? undefined
          : {
              checkin: dates.checkin,
              checkout: dates.checkout,
              adults: String(occupancy.adults),
              children: String(occupancy.children),
              rooms: String(occupancy.rooms),
            };
      const link = effectiveLinkParams(request, { aid: params.aid ?? null, campaign: params.campaign ?? null, trip });
      return presentV1(
        result,
        query,
        provider,
        selfLink(base, path, linked),
        deeplinks(base, link),
        (hotelids) => `${base}/v3/accommodations?hotelids=${encodeURIComponent(hotelids)}`,
        violations.ignored,
      );
    },
  );
}
