// One meaning of a null guest rating (docs/decisions.md 135), said the same way in the four places
// a partner or an agent reads it (the OpenAPI document, the MCP tools, docs/api.md and the agent
// skill): each holds the sentence of null-rating.ts, word for word (line breaks in Markdown aside).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FastifyInstance } from 'fastify';
import { SUPPLIER_IDS } from '../../types.ts';
import { createHttpApp } from '../create-http-app.ts';
import { NULL_RATING_MEANING } from './null-rating.ts';
import { defaults } from '../../defaults.ts';

/** Markdown wraps lines where it likes: compare with runs of white space as one space. */
const flat = (text: string) => text.replace(/\s+/g, ' ');
const doc = (file: string) => flat(readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8'));

interface RatingSchema {
  type: string;
  properties: { value: { type: unknown; description?: string } };
}

describe('the meaning of a null guest rating', () => {
  let app: FastifyInstance;
  let base: string;
  before(async () => {
    app = createHttpApp({
      settings: defaults,
      services: () => null,
      now: () => new Date(),
      publicUrl: null,
      logger: false,
    });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await app.close();
  });

  it('is one sentence: no guest rating, "no rating", never 0, and left out by minguestrating', () => {
    assert.match(
      NULL_RATING_MEANING,
      /^A rating `value` of null means there is no guest rating: .*"no rating", never 0; `minguestrating` above 0 leaves such stays out\.$/,
    );
  });

  it('docs/api.md and the agent skill hold that sentence', () => {
    for (const file of ['docs/api.md', 'docs/agent-skills/accommodation-search/SKILL.md'])
      assert.ok(
        doc(file).includes(NULL_RATING_MEANING),
        `${file} says what a null rating means in the words of src/http/search/null-rating.ts`,
      );
  });

  it("every rating of the OpenAPI document's v1, v2 and v3 answers is nullable and holds it", async () => {
    const document = (await app.inject('/openapi.json')).json();
    const resultOf = (version: string) =>
      document.paths[`/${version}/accommodations`].get.responses['200'].content['application/json'].schema.properties.results.items
        .properties;
    const v3 = resultOf('v3');
    const ratings: [string, RatingSchema][] = [
      ['v1 rating', resultOf('v1').rating],
      ['v2 rating', resultOf('v2').rating],
      ['v3 averageRatings', v3.averageRatings],
      ...SUPPLIER_IDS.map((id): [string, RatingSchema] => [`v3 suppliers.${id}.rating`, v3.suppliers.properties[id].properties.rating]),
    ];
    for (const [where, schema] of ratings) {
      assert.deepEqual(schema.properties.value.type, ['number', 'null'], `${where}.value is a number or null`);
      const description = schema.properties.value.description ?? '';
      assert.ok(description.includes(NULL_RATING_MEANING), `${where}.value: ${description}`);
    }
  });

  it('the MCP tools that show ratings hold it', async () => {
    const client = new Client({ name: 'null-rating-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    try {
      const { tools } = await client.listTools();
      for (const name of ['search_accommodations', 'get_accommodation']) {
        const description = tools.find((tool) => tool.name === name)?.description ?? '';
        assert.ok(description.includes(NULL_RATING_MEANING), `${name}: ${description}`);
      }
    } finally {
      await client.close();
    }
  });
});
