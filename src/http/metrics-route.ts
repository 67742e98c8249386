// GET /metrics (Prometheus text format) and the hook that times every answer. The figures live in
// metrics/create-metrics.ts; this file only knows HTTP.
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors/api-error.ts';
import type { Metrics } from '../metrics/create-metrics.ts';
import { createAddressAllowList } from './address-allow-list.ts';

export const METRICS_PATH = '/metrics';

export interface MetricsOptions {
  metrics: Metrics;
  /** Who may scrape: `loopback`, `any`, addresses or CIDRs (STAYGATE_METRICS_ALLOW). */
  allow: readonly string[];
}

export function registerMetrics(app: FastifyInstance, options: MetricsOptions): void {
  const allowed = createAddressAllowList(options.allow);
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
  app.get(METRICS_PATH, { schema: { hide: true }, config: { rateLimit: false, probe: true } }, async (request, reply) => {
    // request.ip is the client, read through trusted proxies only (STAYGATE_TRUSTED_PROXIES).
    if (!allowed(request.ip)) throw new ApiError('FORBIDDEN', 'Metrics are not served to this address; see STAYGATE_METRICS_ALLOW');
    const { contentType, body } = await options.metrics.scrape();
    return reply.type(contentType).header('Cache-Control', 'no-store').send(body);
  });
}
