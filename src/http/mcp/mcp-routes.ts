// `/mcp`: the Model Context Protocol over Streamable HTTP (docs/decisions.md 54), stateless: a new
// server and transport per POST, so any gateway behind a load balancer can answer any request.
// Each tool call is an in-process REST request (inject) carrying the client's key and address, so
// it is counted, keyed and linked exactly as that REST request would be.
import { readFileSync } from 'node:fs';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors/api-error.ts';
import { presentedKey } from '../access-control.ts';
import { Type } from 'typebox';
import { errorBody } from '../error-body.ts';
import { errorResponses, OPTIONAL_KEY } from '../route-schemas.ts';
import { createMcpServer, type RestCall } from './create-mcp-server.ts';

export const MCP_PATH = '/mcp';

const { version: VERSION } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };

/** Tool calls as REST requests of this app, from the MCP client's address, with its key and host (links). */
function restCallOf(app: FastifyInstance, request: FastifyRequest): RestCall {
  const key = presentedKey(request);
  return async (path, query) => {
    const answer = await app.inject({
      method: 'GET',
      url: `${path}?${query.toString()}`,
      remoteAddress: request.ip,
      headers: { host: request.host, accept: 'application/json', ...(key === null ? {} : { 'x-api-key': key }) },
    });
    let body: unknown;
    try {
      body = answer.json();
    } catch {
      body = { message: `The gateway answered HTTP ${answer.statusCode} without a JSON body` };
    }
    return { status: answer.statusCode, body };
  };
}

export function registerMcpRoutes(app: FastifyInstance): void {
  // The key is checked on every request (a refused key is a 401 before any protocol); the request
  // itself spends no allowance: its tool calls do, as the REST requests they are.
  const config = { rateLimit: 'key-only' as const };
  app.post(
    MCP_PATH,
    {
      schema: {
        tags: ['agents'],
        summary: 'Model Context Protocol (Streamable HTTP, stateless): the search, lookup and transactions tools',
        description:
          'POST one JSON-RPC 2.0 message (or a batch) as the MCP Streamable HTTP transport says, with `Accept: application/json, text/event-stream`: ' +
          '`initialize`, `tools/list`, `tools/call` (`search_accommodations`, `get_accommodation`, `list_transactions`). ' +
          'The key comes as `X-API-KEY` or `?key=`; each tool call counts as the REST request it makes. ' +
          'Protocol errors are JSON-RPC error objects; GET and DELETE are 405 (no sessions, no event stream).',
        security: OPTIONAL_KEY,
        body: Type.Object(
          {
            jsonrpc: Type.Literal('2.0'),
            id: Type.Optional(Type.Union([Type.String(), Type.Integer()])),
            method: Type.String({ examples: ['tools/list'] }),
            params: Type.Optional(Type.Object({}, { additionalProperties: true })),
          },
          { additionalProperties: true, description: 'A JSON-RPC 2.0 request or notification.' },
        ),
        response: {
          200: Type.Object(
            { jsonrpc: Type.Literal('2.0'), id: Type.Union([Type.String(), Type.Integer(), Type.Null()]) },
            { additionalProperties: true, description: 'The JSON-RPC response: `result`, or `error`.' },
          ),
          202: Type.Null({ description: 'A notification or response was accepted; no body.' }),
          ...errorResponses(401),
        },
      },
      config,
    },
    async (request: FastifyRequest, reply: FastifyReply) => {
      const server = createMcpServer(restCallOf(app, request), VERSION);
      // JSON answers, not an SSE stream: every tool answers at once, and proxies handle JSON better.
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      reply.hijack();
      // The headers set so far (X-Request-Id, caching, Vary) would be lost with the hijack.
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value as string);
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      try {
        await server.connect(transport);
        await transport.handleRequest(request.raw, reply.raw, request.body);
      } catch (error) {
        request.log.error({ err: error }, 'MCP request failed');
        if (!reply.raw.headersSent) {
          const body = errorBody(new ApiError('INTERNAL_ERROR', 'The MCP request could not be handled'), request.id);
          reply.raw.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
        }
      }
    },
  );
  // Stateless: no server-sent event stream to open (GET) and no session to end (DELETE).
  app.route({
    method: ['GET', 'DELETE', 'PUT', 'PATCH'],
    url: MCP_PATH,
    schema: { hide: true },
    config,
    handler: async (request, reply) => {
      const error = new ApiError(
        'METHOD_NOT_ALLOWED',
        `${request.method} is not allowed here: this MCP endpoint is stateless; POST JSON-RPC messages`,
      );
      return reply.code(405).header('Allow', 'POST').send(errorBody(error, request.id));
    },
  });
}
