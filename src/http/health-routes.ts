// `/health` (readiness, with what the gateway serves and how each supplier's content stands) and
// `/health/live` (liveness: the process listens). Probes come every few seconds for months: they
// are logged at warn level only, never at info.
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors/api-error.ts';
import type { SupplierId } from '../types.ts';
import { errorBody } from './error-body.ts';

export interface SupplierHealth {
  /** ok: its last feed was applied; stale: its listings are held but its last refresh failed or was held back; unavailable: none held. */
  content: 'ok' | 'stale' | 'unavailable';
  listings: number;
  /** ISO time of its last applied feed, null when never. */
  lastRefresh: string | null;
  lastError: string | null;
  breaker: 'closed' | 'open' | 'half-open';
}

export interface HealthReport {
  /** starting: no index yet, or the first start is not finished (demo partner); degraded: serving, a supplier is not ok. */
  status: 'starting' | 'ok' | 'degraded';
  inventory: { version: string; stays: number; builtAt: string } | null;
  suppliers: Partial<Record<SupplierId, SupplierHealth>>;
}

export function registerHealthRoutes(app: FastifyInstance, health: () => HealthReport): void {
  app.get('/health/live', { config: { rateLimit: false }, logLevel: 'warn' }, async () => ({ status: 'live' }));
  app.get('/health', { config: { rateLimit: false }, logLevel: 'warn' }, async (request, reply) => {
    const report = health();
    if (report.status === 'starting') {
      // Still an error body (code, requestId) so every 5xx reads alike, with the report beside it.
      const error = new ApiError('NOT_READY', 'The gateway is starting: the index is being built');
      return reply.code(503).header('Retry-After', '5').send({ ...errorBody(error, request.id), ...report });
    }
    return report;
  });
}
