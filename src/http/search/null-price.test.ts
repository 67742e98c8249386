// One meaning of a null price, said the same way in the four places a partner or an agent reads it
// (the OpenAPI document, the MCP tools, docs/api.md and the agent skill): each holds the sentence of
// null-price.ts, word for word (line breaks in Markdown aside).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FastifyInstance } from 'fastify';
import { createHttpApp } from '../create-http-app.ts';
import { NULL_PRICE_MEANING } from './null-price.ts';
import { defaults } from '../../defaults.ts';

/** Markdown wraps lines where it likes: compare with runs of white space as one space. */
const flat = (text: string) => text.replace(/\s+/g, ' ');
const doc = (file: string) => flat(readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8'));

describe('the meaning of a null price', () => {
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

  it('is one sentence about an unknown price, not 0 and not sold out', () => {
    assert.match(NULL_PRICE_MEANING, /^A `price` of null means .*unknown.*never 0 or "sold out".*no entry at all\.$/);
  });

  it('docs/api.md and the agent skill hold that sentence', () => {
    for (const file of ['docs/api.md', 'docs/agent-skills/accommodation-search/SKILL.md'])
      assert.ok(
        doc(file).includes(NULL_PRICE_MEANING),
        `${file} says what a null price means in the words of src/http/search/null-price.ts`,
      );
  });

  it("the OpenAPI document's v2 and v3 price fields hold it", async () => {
    const document = (await app.inject('/openapi.json')).json();
    for (const version of ['v2', 'v3']) {
      const schema = document.paths[`/${version}/accommodations`].get.responses['200'].content['application/json'].schema;
      for (const [supplier, entry] of Object.entries(schema.properties.results.items.properties.suppliers.properties)) {
        const description = (entry as { properties: { price: { description?: string } } }).properties.price.description ?? '';
        assert.ok(description.includes(NULL_PRICE_MEANING), `${version} suppliers.${supplier}.price: ${description}`);
      }
    }
  });

  it('the MCP tools that price stays hold it', async () => {
    const client = new Client({ name: 'null-price-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    try {
      const { tools } = await client.listTools();
      for (const name of ['search_accommodations', 'get_accommodation']) {
        const description = tools.find((tool) => tool.name === name)?.description ?? '';
        assert.ok(description.includes(NULL_PRICE_MEANING), `${name}: ${description}`);
      }
    } finally {
      await client.close();
    }
  });
});
