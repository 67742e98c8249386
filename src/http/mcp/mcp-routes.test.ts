// `/mcp` through the official MCP SDK client against a running gateway, and `staygate mcp` on
// stdio answering the same client (docs/decisions.md 54).
import assert from 'node:assert/strict';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startTestApp, TEST_RATE_LIMITS, type TestApp } from '../../test-support/start-test-app.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'staygate-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function text(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

describe('MCP over Streamable HTTP', () => {
  let t: TestApp;
  let base: string;
  let key: string;
  before(async () => {
    t = await startTestApp({ stays: 1_500 });
    base = await t.app.http.listen({ port: 0, host: '127.0.0.1' });
    key = await t.createKey({ aid: 'aff-mcp', partnerId: 'partner-mcp', thirdParties: ['shop-mcp'] });
  });
  after(async () => {
    await t.close();
  });

  it('lists every tool with JSON Schema input and output derived from the REST schemas', async () => {
    const client = await connect(`${base}/mcp`);
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), ['get_accommodation', 'list_transactions', 'search_accommodations']);
    const search = tools.find((tool) => tool.name === 'search_accommodations')!;
    for (const name of [
      'address',
      'lat',
      'lng',
      'radius',
      'nelat',
      'checkin',
      'checkout',
      'adults',
      'currency',
      'provider',
      'hotelids',
      'hotelsearch',
      'page',
      'pageSize',
      'aid',
      'campaign',
      'cluster',
    ]) {
      assert.ok(search.inputSchema.properties?.[name] !== undefined, `search_accommodations takes ${name}`);
    }
    assert.equal(search.inputSchema.properties?.key, undefined, 'the key comes with the connection');
    assert.match(search.description ?? '', /box/, 'the description says what a box is');
    for (const tool of tools) assert.equal(tool.outputSchema?.type, 'object', `${tool.name} has an output schema`);
    await client.close();
  });

  it('keyless: searches, looks a stay up, and is told list_transactions needs a key', async () => {
    const client = await connect(`${base}/mcp`);
    const result = await call(client, 'search_accommodations', { address: 'Paris', pageSize: 3 });
    assert.notEqual(result.isError, true, text(result));
    const page = result.structuredContent as { results: { id: string }[]; meta: { hasMore: boolean } };
    const rest = await t.get('/v3/accommodations?address=Paris&pageSize=3');
    assert.deepEqual(
      page.results.map((r) => r.id),
      rest.body.results.map((r: { id: string }) => r.id),
      "the REST page's stays",
    );

    const one = await call(client, 'get_accommodation', { id: page.results[0].id, checkin: '2026-12-01', checkout: '2026-12-03' });
    assert.notEqual(one.isError, true, text(one));
    assert.equal((one.structuredContent as { id: string }).id, page.results[0].id);

    const missing = await call(client, 'get_accommodation', { id: 'supplier_a:NOPE' });
    assert.equal(missing.isError, true, 'an unknown id is an error result');

    const transactions = await call(client, 'list_transactions', { thirdParty: 'shop-mcp' });
    assert.equal(transactions.isError, true, 'keyless transactions are refused');
    assert.equal(text(transactions), (await t.get('/v1/reporting/transactions?thirdParty=shop-mcp')).body.message);
    await client.close();
  });

  it("keyed (?key= and X-API-KEY): links carry the key's aid; transactions are the key's partner's", async () => {
    for (const client of [await connect(`${base}/mcp?key=${key}`), await connect(`${base}/mcp`, { 'X-API-KEY': key })]) {
      const result = await call(client, 'search_accommodations', { address: 'Paris', pageSize: 2, aid: 'someone-else' });
      assert.notEqual(result.isError, true, text(result));
      const links = JSON.stringify((result.structuredContent as { results: unknown[] }).results);
      assert.match(links, /aid=aff-mcp/, "deeplinks carry the key's aid");
      assert.doesNotMatch(links, /someone-else/, "the key's aid wins in deeplinks");
      const transactions = await call(client, 'list_transactions', { thirdParty: 'shop-mcp', limit: 5 });
      assert.notEqual(transactions.isError, true, text(transactions));
      assert.equal((transactions.structuredContent as { partnerId: string }).partnerId, 'partner-mcp');
      await client.close();
    }
  });

  it("a bad argument is an error result with the REST 400's message", async () => {
    const client = await connect(`${base}/mcp`);
    for (const [args, query] of [
      [{ lat: 48 }, 'lat=48'],
      [{ address: 'Paris', checkin: '2026-13-40', checkout: '2026-12-02' }, 'address=Paris&checkin=2026-13-40&checkout=2026-12-02'],
      [{}, ''],
    ] as const) {
      const result = await call(client, 'search_accommodations', args);
      assert.equal(result.isError, true, `${JSON.stringify(args)} is refused`);
      const rest = await t.get(`/v3/accommodations?${query}`);
      assert.equal(rest.status, 400);
      assert.equal(text(result), rest.body.message, 'the REST message');
    }
    const nested = await call(client, 'search_accommodations', { address: { city: 'Paris' } });
    assert.equal(nested.isError, true, 'an object argument is refused, not a crash');
    await client.close();
  });

  it('a refused key is a 401 before any tool', async () => {
    await assert.rejects(connect(`${base}/mcp?key=sg_not_a_key`), /401|invalid/i);
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'X-API-KEY': 'sg_not_a_key', 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as { code: string }).code, 'INVALID_API_KEY');
  });

  it('a body that is not JSON is -32700 Parse error, JSON that is not JSON-RPC -32600 Invalid Request: HTTP 400, id null, as the SDK transport answers', async () => {
    // The MCP SDK's own Streamable HTTP transport, bare (no framework parsing the body first): what
    // it answers a body that is not JSON is what a JSON-RPC client of /mcp expects too.
    const bare: HttpServer = createServer((req, res) => {
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      const server = new Server({ name: 'bare', version: '1.0.0' }, { capabilities: {} });
      void server.connect(transport).then(() => transport.handleRequest(req, res));
    });
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    const post = (url: string, body: string, headers: Record<string, string> = {}) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body,
      });
    try {
      const sdk = await post(`http://127.0.0.1:${(bare.address() as AddressInfo).port}/`, '{"jsonrpc": "2.0", "method"');
      const sdkBody = (await sdk.json()) as { jsonrpc: string; id: unknown; error: { code: number } };
      assert.deepEqual([sdk.status, sdkBody.jsonrpc, sdkBody.id, sdkBody.error.code], [400, '2.0', null, -32700], 'the SDK transport');

      for (const [body, code] of [
        ['{"jsonrpc": "2.0", "method"', -32700],
        ['', -32700],
        ['{"jsonrpc":"2.0","id":1,"method":"tools/list"', -32700],
        ['{"hello": "world"}', -32600],
        ['{"jsonrpc":"1.0","id":1,"method":"tools/list"}', -32600],
        ['42', -32600],
        ['null', -32600],
        ['[]', -32600],
        ['[{"jsonrpc":"2.0","id":1,"method":"tools/list"}, {"nope":true}]', -32600],
      ] as const) {
        const res = await post(`${base}/mcp`, body);
        assert.equal(res.status, sdk.status, `${body}: the transport's status`);
        assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
        const answer = (await res.json()) as {
          jsonrpc: string;
          id: unknown;
          error: { code: number; message: string; data: { requestId: string } };
        };
        assert.equal(answer.jsonrpc, '2.0', body);
        assert.equal(answer.id, null, body);
        assert.equal(answer.error.code, code, `${body}: ${answer.error.message}`);
        assert.match(answer.error.message, code === -32700 ? /^Parse error/ : /^Invalid Request/);
        assert.equal(answer.error.data.requestId, res.headers.get('x-request-id'), 'the request id, as in every error body');
      }
      // Another media type: 415 in JSON-RPC, as the transport answers it.
      const xml = await post(`${base}/mcp`, '<a/>', { 'content-type': 'application/xml' });
      assert.equal(xml.status, 415);
      assert.equal(((await xml.json()) as { error: { code: number } }).error.code, -32000);
      // A well-formed message still works after all that.
      const ping = await post(`${base}/mcp`, '{"jsonrpc":"2.0","id":7,"method":"ping"}');
      assert.equal(ping.status, 200);
      assert.deepEqual(await ping.json(), { result: {}, jsonrpc: '2.0', id: 7 });
      // A refused key is refused before any protocol: the REST 401, whatever the body.
      const refused = await post(`${base}/mcp`, '{', { 'x-api-key': 'sg_not_a_key' });
      assert.equal(refused.status, 401);
      assert.equal(((await refused.json()) as { code: string }).code, 'INVALID_API_KEY');
    } finally {
      await new Promise((resolve) => bare.close(resolve));
    }
  });

  it('GET /mcp is a 405 with the JSON error body (stateless: no event stream)', async () => {
    const res = await fetch(`${base}/mcp`);
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'POST');
    assert.equal(((await res.json()) as { code: string }).code, 'METHOD_NOT_ALLOWED');
  });

  it('staygate mcp on stdio answers the same client, through the gateway at --url', async () => {
    const client = new Client({ name: 'staygate-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['bin/staygate.js', 'mcp', '--url', base, '--key', key],
        cwd: ROOT,
        stderr: 'inherit',
      }),
    );
    const { tools } = await client.listTools();
    assert.equal(tools.length, 3);
    const result = await call(client, 'search_accommodations', { address: 'Paris', pageSize: 2 });
    assert.notEqual(result.isError, true, text(result));
    assert.match(JSON.stringify(result.structuredContent), /aid=aff-mcp/, 'the key given with --key');
    const bad = await call(client, 'search_accommodations', { lat: 48 });
    assert.equal(bad.isError, true, 'a bad argument is an error result on stdio too');
    assert.equal(text(bad), (await t.get('/v3/accommodations?lat=48')).body.message);
    await client.close();
  });

  it('staygate mcp takes the gateway and the key from STAYGATE_URL and STAYGATE_API_KEY when no flag names them', async () => {
    const client = new Client({ name: 'staygate-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['bin/staygate.js', 'mcp'],
        env: { ...(process.env as Record<string, string>), STAYGATE_URL: base, STAYGATE_API_KEY: key },
        cwd: ROOT,
        stderr: 'inherit',
      }),
    );
    const result = await call(client, 'search_accommodations', { address: 'Paris', pageSize: 2 });
    assert.notEqual(result.isError, true, text(result));
    assert.match(JSON.stringify(result.structuredContent), /aid=aff-mcp/, 'the key of STAYGATE_API_KEY');
    await client.close();
  });
});

describe('MCP rate limits', () => {
  let t: TestApp;
  let base: string;
  before(async () => {
    t = await startTestApp({ stays: 500, settings: { ...TEST_RATE_LIMITS, keylessPerMinute: 2 } });
    base = await t.app.http.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await t.close();
  });

  it("every tool call counts against the IP's search limit; the protocol's own requests do not", async () => {
    const client = await connect(`${base}/mcp`);
    await client.listTools();
    await client.listTools();
    await client.listTools();
    for (let i = 0; i < 2; i++) {
      const result = await call(client, 'search_accommodations', { address: 'Paris', pageSize: 1 });
      assert.notEqual(result.isError, true, `call ${i + 1} is within the limit: ${text(result)}`);
    }
    const limited = await call(client, 'get_accommodation', { id: 'supplier_a:A1' });
    assert.equal(limited.isError, true, 'the third call is over the limit');
    assert.match(text(limited), /^Rate limit of 2 requests per minute exceeded; retry in \d+ s\. .*X-API-KEY/);
    const rest = await t.get('/v3/accommodations?address=Paris');
    assert.equal(rest.status, 429, 'the REST search shares the allowance');
    await client.close();
  });
});
