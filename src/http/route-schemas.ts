import { Type, type TSchema } from 'typebox';
import { ERROR_CODES } from '../errors/api-error.ts';

// Pieces every route's schema uses, so that GET /openapi.json (generated from the route schemas
// by @fastify/swagger) describes the error body, the keys and the tags once.

/** The `$id` of the shared error body: routes point at it, the OpenAPI document lists it once. */
export const ERROR_BODY_ID = 'ErrorBody';

/** The spec's error body (docs/decisions.md 2), as every error of every route is sent. */
export const errorBodySchema = Type.Object(
  {
    statusCode: Type.Integer({ description: 'The HTTP status, repeated.', examples: [400] }),
    error: Type.String({ description: 'The HTTP reason phrase.', examples: ['Bad Request'] }),
    code: Type.Union(
      Object.keys(ERROR_CODES).map((code) => Type.Literal(code)),
      { description: 'Machine-readable code (docs/api.md, "Errors").' },
    ),
    message: Type.String({ description: 'What went wrong, for a person.', examples: ['lat must be at most 90'] }),
    requestId: Type.String({ description: 'Tracking id of the request, also sent as `X-Request-Id`.' }),
    details: Type.Optional(
      Type.Object(
        {},
        {
          additionalProperties: true,
          description:
            '400: `params` (parameter -> message) and `errors` (`[{ param, code, message }]`); 429: `limit` and `retryAfter` (seconds, as text); v1 503: `retryAfter`.',
        },
      ),
    ),
    provider: Type.Optional(Type.String({ description: 'The supplier concerned, on v1 upstream errors.' })),
  },
  { $id: ERROR_BODY_ID, description: 'The error body of every endpoint.' },
);

const STATUS_MEANINGS: Record<number, string> = {
  400: 'Invalid request: one body names every offending parameter (`details.params`, `details.errors`).',
  401: '`INVALID_API_KEY` (unknown, revoked or not yet granted) or `MISSING_API_KEY`.',
  403: 'Not allowed from this address.',
  404: 'No such stay, supplier or path.',
  429: '`RATE_LIMIT_EXCEEDED`: retry after `Retry-After` seconds; `TOO_MANY_INVALID_KEYS`: too many unknown keys from this address, so new keys are not checked until `Retry-After` seconds have passed.',
  502: 'A supplier failed (v1: `UPSTREAM_ERROR`, `BAD_GATEWAY`); v2 while the index is loading.',
  503: "v1: the supplier's circuit breaker is open (`Retry-After: 30`); v3 and others: the index is still loading (`NOT_READY`).",
  504: '`UPSTREAM_TIMEOUT`: the supplier did not answer in time (v1).',
};

/** Response schemas pointing at the shared error body, for these statuses. */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(
    statuses.map((status) => [status, Type.Unsafe({ $ref: `${ERROR_BODY_ID}#`, description: STATUS_MEANINGS[status] ?? 'Error' })]),
  );
}

/**
 * A 200 that is not JSON (a page, Markdown, Prometheus text), described with its media types: the
 * OpenAPI document lists them under `content`, and Fastify leaves such bodies unserialised.
 */
export function textResponse(description: string, ...mediaTypes: string[]): TSchema {
  return Type.Unsafe({
    description,
    content: Object.fromEntries(mediaTypes.map((type) => [type, { schema: { type: 'string' } }])),
  });
}

/** Security requirements: keyless demo access, or a key in the header or the query. */
type SecurityRequirement = Record<string, string[]>;
export const OPTIONAL_KEY: SecurityRequirement[] = [{}, { apiKeyHeader: [] }, { apiKeyQuery: [] }];
export const REQUIRED_KEY: SecurityRequirement[] = [{ apiKeyHeader: [] }, { apiKeyQuery: [] }];
