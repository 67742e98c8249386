// `/health` (readiness, with what the gateway serves and how each supplier's content stands) and
// `/health/live` (liveness: the process listens). Probes come every few seconds for months: their
// request log lines are debug, never info (`config: { probe: true }`, create-http-app.ts).
import type { FastifyInstance } from 'fastify';
import { Type, type TSchema } from 'typebox';
import { ApiError } from '../../errors/api-error.ts';
import type { SupplierId } from '../../types.ts';
import { errorBody } from '../error-body.ts';
import { errorResponses } from '../route-schemas.ts';

export interface SupplierHealth {
  /** ok: its last feed was applied; stale: its listings are held but its last refresh failed or was held back; unavailable: none held. */
  content: 'ok' | 'stale' | 'unavailable';
  listings: number;
  /** ISO time of its last applied feed, null when never. */
  lastRefresh: string | null;
  /** lastError begins `auth:` while `auth` is failed: the supplier's own words on the refused credentials. */
  lastError: string | null;
  breaker: 'closed' | 'open' | 'half-open';
  /** failed: its last call was refused for the credentials (401/403); ok: its last verdict was an answer; unknown: no call yet. */
  auth: 'unknown' | 'ok' | 'failed';
}

export interface HealthReport {
  /** starting: no index yet, or the first start is not finished (demo partner); degraded: serving, a supplier is not ok. */
  status: 'starting' | 'ok' | 'degraded';
  /** storeBytes: what the store takes on disk (Store.diskBytes; docs/decisions.md 81), null until measured. */
  inventory: { version: string; stays: number; builtAt: string; storeBytes: number | null } | null;
  suppliers: Partial<Record<SupplierId, SupplierHealth>>;
}

const supplierHealthSchema = Type.Object({
  content: Type.Union([Type.Literal('ok'), Type.Literal('stale'), Type.Literal('unavailable')], {
    description:
      '`ok`: its last feed was applied; `stale`: its listings are held but its last refresh failed or was held back; `unavailable`: none held.',
  }),
  listings: Type.Integer({ description: 'Listings of this supplier the served content holds.' }),
  lastRefresh: Type.Union([Type.String(), Type.Null()], { description: 'ISO time of its last applied feed.' }),
  lastError: Type.Union([Type.String(), Type.Null()], {
    description: "The last failure of its content or credentials; while `auth` is `failed`, `auth: ` and the supplier's own message.",
  }),
  breaker: Type.Union([Type.Literal('closed'), Type.Literal('open'), Type.Literal('half-open')], {
    description: 'Its quote circuit breaker.',
  }),
  auth: Type.Union([Type.Literal('unknown'), Type.Literal('ok'), Type.Literal('failed')], {
    description:
      "Whether it accepts the gateway's credentials, as its last call (a quote or a content pull) told: `failed` (HTTP 401 or 403: a wrong or expired key, which opens no breaker), `ok` (answered), `unknown` (no call since the gateway started).",
  }),
});

/** The health report as the OpenAPI document publishes it (HealthReport). */
const healthReportSchema = Type.Object(
  {
    status: Type.Union([Type.Literal('starting'), Type.Literal('ok'), Type.Literal('degraded')], {
      description:
        "`starting` (503) until the first start is over; `ok`, or `degraded` when a supplier's content, breaker or credentials are not ok (both 200).",
    }),
    inventory: Type.Union([
      Type.Object({
        version: Type.String({ description: 'The content version served.' }),
        stays: Type.Integer({ description: 'Stays in the search index.' }),
        builtAt: Type.String({ description: 'When that version was swapped in (ISO time).' }),
        storeBytes: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
          description:
            'Bytes the store takes on disk: on SQLite the database file and its WAL (keys, clicks and transactions share it), on PostgreSQL the tables and indexes of its schema. Measured after each refresh and every 30 s; null until first measured.',
        }),
      }),
      Type.Null(),
    ]),
    suppliers: Type.Record(Type.String(), supplierHealthSchema),
  },
  { additionalProperties: true },
);

export function registerHealthRoutes(app: FastifyInstance, health: () => HealthReport): void {
  app.get(
    '/health/live',
    {
      schema: {
        tags: ['operations'],
        summary: 'Liveness: 200 as soon as the process listens',
        response: { 200: Type.Object({ status: Type.Literal('live') }) },
      },
      config: { rateLimit: false, probe: true },
    },
    async () => ({ status: 'live' }),
  );
  app.get(
    '/health',
    {
      schema: {
        tags: ['operations'],
        summary: 'Readiness: 503 while starting, 200 when serving (degraded included)',
        response: { 200: healthReportSchema, ...errorResponses(503) } as Record<number, TSchema>,
      },
      config: { rateLimit: false, probe: true },
    },
    async (request, reply) => {
      const report = health();
      if (report.status === 'starting') {
        // Still an error body (code, requestId) so every 5xx reads alike, with the report beside it.
        const error = new ApiError('NOT_READY', 'The gateway is starting: the index is being built');
        // Written as text: the error body's serialiser would drop the report's fields (the error body
        // schema allows them; it does not name them).
        return reply
          .code(503)
          .header('Retry-After', '5')
          .type('application/json; charset=utf-8')
          .send(JSON.stringify({ ...errorBody(error, request.id), ...report }));
      }
      return report;
    },
  );
}
