// `/mcp`: the Model Context Protocol over Streamable HTTP (docs/decisions.md 54), stateless: a new
// server and transport per POST, so any gateway behind a load balancer can answer any request.
// Each tool call is an in-process REST request (inject) carrying the client's key and address, so
// it is counted, keyed and linked exactly as that REST request would be.
import { readFileSync } from 'node:fs';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ErrorCode, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors/api-error.ts';
import { presentedKey } from '../access/access-control.ts';
import { Type } from 'typebox';
import { errorBody } from '../error-body.ts';
import { errorResponses, OPTIONAL_KEY } from '../route-schemas.ts';
import { createMcpServer, type McpSettings, type RestCall } from './create-mcp-server.ts';

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

/**
 * A JSON-RPC error answer as the SDK's Streamable HTTP transport writes its own (HTTP 400 for a
 * parse error or an invalid request, `id: null` since no request id could be read), with the
 * request id in `error.data`, as every error body of this gateway carries it.
 */
function sendJsonRpcError(reply: FastifyReply, status: number, code: number, message: string): FastifyReply {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send({ jsonrpc: '2.0', error: { code, message, data: { requestId: reply.request.id } }, id: null });
}

/**
 * A body Fastify could not read, answered as JSON-RPC (the REST error body means nothing to a
 * JSON-RPC client); null for any other error (a refused key, a limit), which keeps the REST body.
 */
function bodyError(error: FastifyError): { status: number; code: number; message: string } | null {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, code: ErrorCode.ParseError, message: 'Parse error: the body is not valid JSON' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, code: -32000, message: 'Unsupported Media Type: Content-Type must be application/json' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, code: -32000, message: 'Payload Too Large: the body is over the limit' };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, code: ErrorCode.ParseError, message: 'Parse error: the body does not match its Content-Length' };
    default:
      return null;
  }
}

/**
 * Why a parsed JSON body is not a JSON-RPC message (or a batch of them), or null when it is one.
 * Checked here because the SDK's transport answers such a body -32700 Parse error, while JSON-RPC
 * 2.0 says well-formed JSON that is not a valid Request object is -32600 Invalid Request.
 */
function invalidRequest(body: unknown): string | null {
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length === 0) return 'Invalid Request: an empty batch';
  for (const message of messages) {
    if (!JSONRPCMessageSchema.safeParse(message).success) {
      return 'Invalid Request: not a JSON-RPC 2.0 message (an object with "jsonrpc": "2.0" and a "method", or a response)';
    }
  }
  return null;
}

const isJson = (contentType: string | undefined) => /^application\/json\s*(;|$)/i.test(contentType ?? '');

export function registerMcpRoutes(app: FastifyInstance, settings: McpSettings): void {
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
      // JSON-RPC clients read JSON-RPC errors: a body that is not JSON is -32700 Parse error, as
      // the MCP SDK's own transport answers it (docs/decisions.md 87).
      errorHandler: (error: FastifyError, request, reply) => {
        const rpc = bodyError(error);
        if (rpc === null) throw error; // the app's error handler: the REST body
        return sendJsonRpcError(reply, rpc.status, rpc.code, rpc.message);
      },
    },
    async (request: FastifyRequest, reply: FastifyReply) => {
      // (Another media type is left to the transport, which answers it 415 in JSON-RPC.)
      const invalid = isJson(request.headers['content-type']) ? invalidRequest(request.body) : null;
      if (invalid !== null) return sendJsonRpcError(reply, 400, ErrorCode.InvalidRequest, invalid);
      const server = createMcpServer(restCallOf(app, request), VERSION, settings);
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
          const body = {
            jsonrpc: '2.0',
            error: {
              code: ErrorCode.InternalError,
              message: 'Internal error: the MCP request could not be handled',
              data: { requestId: request.id },
            },
            id: null,
          };
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
