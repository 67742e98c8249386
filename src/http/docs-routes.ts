import type { FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import { defaults } from '../defaults.ts';

export const MIGRATION_GUIDE_PATH = '/docs/migrating-v1-to-v3';

const guide = readFileSync(new URL('../../docs/migrating-v1-to-v3.md', import.meta.url), 'utf8');

/** Documentation the API points to (v1's deprecation `Link`). */
export function registerDocsRoutes(app: FastifyInstance): void {
  // Documentation is read by people following a link, not by a partner's integration: it gets
  // the click allowance, not the 5-per-minute demo search allowance.
  app.get(MIGRATION_GUIDE_PATH, { config: { rateLimit: { keyless: defaults.goKeylessPerMinute } } }, async (_request, reply) => reply.type('text/markdown; charset=utf-8').send(guide));
}
