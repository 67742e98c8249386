import type { FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';

export const MIGRATION_GUIDE_PATH = '/docs/migrating-v1-to-v3';

const guide = readFileSync(new URL('../../docs/migrating-v1-to-v3.md', import.meta.url), 'utf8');

/** Documentation the API points to (v1's deprecation `Link`). */
export function registerDocsRoutes(app: FastifyInstance): void {
  app.get(MIGRATION_GUIDE_PATH, async (_request, reply) => reply.type('text/markdown; charset=utf-8').send(guide));
}
