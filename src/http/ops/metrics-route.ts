// GET /metrics (Prometheus text format) and the hook that times every answer. The figures live in
// metrics/create-metrics.ts; this file only knows HTTP.
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../errors/api-error.ts';
import type { Metrics } from '../../metrics/create-metrics.ts';
import { createAddressAllowList } from '../access/address-allow-list.ts';
import { errorResponses, textResponse } from '../route-schemas.ts';

export const METRICS_PATH = '/metrics';

export interface MetricsOptions {
  metrics: Metrics;
  /** Who may scrape: `loopback`, `any`, addresses or CIDRs (STAYGATE_METRICS_ALLOW). */
  allow: readonly string[];
}

/** The hook that times every answer, by route pattern. */
export function registerMetrics(app: FastifyInstance, options: MetricsOptions): void {
  // Every answer, by route pattern: unknown paths are one `unmatched` label, so a scanner walking
  // random URLs cannot grow the label set without bound.
  app.addHook('onResponse', (request, reply, done) => {
    options.metrics.request(
      request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched'),
      request.method,
      reply.statusCode,
      reply.elapsedTime / 1_000,
    );
    done();
  });
}

/**
 * GET /metrics, registered with the other routes (after the OpenAPI generator has loaded, so the
 * document lists it; the timing hook above is the root instance's, for every route).
 */
export function registerMetricsRoute(app: FastifyInstance, options: MetricsOptions): void {
  const allowed = createAddressAllowList(options.allow);
  const schema = {
    tags: ['operations'],
    summary: 'Prometheus metrics (text format)',
    description:
      'Request latency by route and status, supplier calls, errors and breaker state, quote-cache lookups, rate-limit refusals, index size and content version, and the process. ' +
      'Served to loopback only unless `STAYGATE_METRICS_ALLOW` allows more; not rate limited.',
    response: { 200: textResponse('Prometheus text exposition format.', 'text/plain'), ...errorResponses(403) },
  };
  app.get(METRICS_PATH, { schema, config: { rateLimit: false, probe: true } }, async (request, reply) => {
    // request.ip is the client, read through trusted proxies only (STAYGATE_TRUSTED_PROXIES).
    if (!allowed(request.ip)) throw new ApiError('FORBIDDEN', 'Metrics are not served to this address; see STAYGATE_METRICS_ALLOW');
    const { contentType, body } = await options.metrics.scrape();
    return reply.type(contentType).header('Cache-Control', 'no-store').send(body);
  });
}
