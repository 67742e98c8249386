// The agent skill (docs/decisions.md 55): a Markdown document with YAML frontmatter that teaches
// an AI agent the MCP tools and the REST search. Documentation, so it has the docs' allowance,
// not a search's: an agent reads it once before it searches.
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Settings } from '../../types.ts';
import { errorResponses, textResponse } from '../route-schemas.ts';

export const AGENT_SKILL_PATH = '/.well-known/agent-skills/accommodation-search/SKILL.md';

const SKILL = readFileSync(new URL('../../../docs/agent-skills/accommodation-search/SKILL.md', import.meta.url), 'utf8');

export function registerAgentSkillRoute(app: FastifyInstance, settings: Pick<Settings, 'docsKeylessPerMinute'>): void {
  app.get(
    AGENT_SKILL_PATH,
    {
      schema: {
        tags: ['agents'],
        summary: 'The agent skill for accommodation search (Markdown with YAML frontmatter)',
        description: 'Teaches an AI agent the MCP tools and the REST search: parameters, paging, limits, prices, deeplinks and errors.',
        response: { 200: textResponse('The skill, SKILL.md.', 'text/markdown'), ...errorResponses(429) },
      },
      config: { rateLimit: { keyless: settings.docsKeylessPerMinute } },
    },
    async (_request, reply) => reply.type('text/markdown; charset=utf-8').header('Cache-Control', 'public, max-age=3600').send(SKILL),
  );
}
