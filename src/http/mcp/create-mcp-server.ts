// The MCP tools (docs/decisions.md 54): each tool call is one REST request, made through a
// `RestCall` the caller supplies (in-process through Fastify's inject for `/mcp`, over HTTP for
// `staygate mcp` on stdio). Parameters, rules, messages, limits and links are therefore the REST
// ones by construction: an argument the REST route would refuse gets that 400's message.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { Type, type TSchema } from 'typebox';
import { NULL_PRICE_MEANING } from '../search/null-price.ts';
import { NULL_RATING_MEANING } from '../search/null-rating.ts';
import { reportingJsonSchema, reportingQuerySchema } from '../partner/reporting-routes.ts';
import { unifiedQuery, type UnifiedQuerySettings } from '../query/unified-query-schema.ts';
import type { Settings } from '../../types.ts';
import { v3AccommodationSchema, v3ResponseSchema } from '../v3/v3-response-schema.ts';

/** A REST answer as a tool needs it: the status and the parsed JSON body. */
export interface RestAnswer {
  status: number;
  body: unknown;
}

/** One GET of the gateway's REST API (path and query), with the MCP client's key and address. */
export type RestCall = (path: string, query: URLSearchParams) => Promise<RestAnswer>;

export const SEARCH_PATH = '/v3/accommodations';
export const TRANSACTIONS_PATH = '/v1/reporting/transactions';

/** The figures the tools' argument schemas name: the REST routes' own (the search's and the transactions'). */
export type McpSettings = UnifiedQuerySettings & Pick<Settings, 'reportingLimit'>;

/** Parameters an agent never passes: the key comes with the connection, the format is always JSON. */
const NOT_ARGUMENTS = new Set(['key', 'format']);
/** Parser hints of the query schemas (compile-query.ts), not JSON Schema: left out of what agents read. */
const PARSER_KEYWORDS = new Set(['expected', 'capReason']);
/** fast-json-stringify's "write unscanned" hint (json-schema.ts `jsonSafeString`): an unknown format to any validator. */
const isSerializerHint = (name: string, value: unknown) => name === 'format' && value === 'unsafe';

/** A TypeBox schema as plain JSON Schema for the tool list, without the arguments an agent never gives. */
function jsonSchemaOf(schema: TSchema, options: { omit?: boolean } = {}): Tool['inputSchema'] {
  const plain = JSON.parse(
    JSON.stringify(schema, (name, value: unknown) => (PARSER_KEYWORDS.has(name) || isSerializerHint(name, value) ? undefined : value)),
  ) as Tool['inputSchema'];
  if (options.omit === true && plain.properties !== undefined) {
    for (const name of NOT_ARGUMENTS) delete plain.properties[name];
  }
  return plain;
}

const TRIP_ARGUMENTS = [
  'checkin',
  'checkout',
  'adults',
  'children',
  'childrenAges',
  'rooms',
  'currency',
  'lang',
  'aid',
  'campaign',
] as const;

/** get_accommodation's arguments: the stay's id, and the search's own trip parameters. */
function getAccommodationSchema(unifiedSchema: TSchema) {
  const unifiedProperties = (unifiedSchema as unknown as { properties: Record<string, TSchema> }).properties;
  return Type.Object({
    id: Type.String({
      maxLength: 200,
      description: "The stay: its `id` from a search result, or a supplier's own id as `<supplier>:<id>` (e.g. `supplier_a:A100234`).",
    }),
    ...Object.fromEntries(TRIP_ARGUMENTS.map((name) => [name, Type.Optional(unifiedProperties[name])])),
  });
}

const SEARCH_DESCRIPTION = `Search accommodations (hotels and rentals) across every supplier; the same parameters as GET ${SEARCH_PATH}.
Location (one is required unless hotelids is given): address (a place in any language, e.g. "Paris"), or lat+lng (+ radius in metres), or a box: all four of nelat, nelng, swlat, swlng (the north-east and south-west corners of a map viewport).
Prices: give BOTH checkin and checkout (YYYY-MM-DD, today or later) for a priced search; without both dates there are no prices. ${NULL_PRICE_MEANING}
Occupancy: adults (default 2), children with childrenAges (one age per child), rooms. currency (ISO 4217, default USD).
Results: each stay has suppliers with their own link (a tracked booking deeplink: give it to the user as is), rating, policies and, when dated, price.total; averageRatings sums the suppliers' ratings up. ${NULL_RATING_MEANING}
Paging: while meta.hasMore, call again with page+1 (the same other arguments). Invalid arguments come back as an error result that says what to fix.`;

const GET_DESCRIPTION = `One accommodation by its id (the id of a search result, or <supplier>:<id>), with every supplier's link, rating and policies.
Give checkin and checkout (YYYY-MM-DD, both) to price it for those dates. ${NULL_PRICE_MEANING}
${NULL_RATING_MEANING}`;

const TRANSACTIONS_DESCRIPTION = `Your commission transactions (bookings made through your links), newest data as the suppliers report it; needs an API key, and thirdParty (the platform registered for the key).
Same parameters as GET ${TRANSACTIONS_PATH}: startDate and endDate (YYYY-MM-DD) on the dateFilter date, limit per page, zero-indexed page; while meta.hasMore, call again with page+1.`;

const TOOL_NAMES = ['search_accommodations', 'get_accommodation', 'list_transactions'] as const;

function toolsOf(settings: McpSettings): Tool[] {
  const unifiedSchema = unifiedQuery(settings).schema;
  return [
    {
      name: 'search_accommodations',
      title: 'Search accommodations',
      description: SEARCH_DESCRIPTION,
      inputSchema: jsonSchemaOf(unifiedSchema, { omit: true }),
      outputSchema: jsonSchemaOf(v3ResponseSchema),
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    {
      name: 'get_accommodation',
      title: 'Get one accommodation',
      description: GET_DESCRIPTION,
      inputSchema: jsonSchemaOf(getAccommodationSchema(unifiedSchema)),
      outputSchema: jsonSchemaOf(v3AccommodationSchema),
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    {
      name: 'list_transactions',
      title: 'List commission transactions',
      description: TRANSACTIONS_DESCRIPTION,
      inputSchema: jsonSchemaOf(reportingQuerySchema(settings), { omit: true }),
      outputSchema: jsonSchemaOf(reportingJsonSchema),
      annotations: { readOnlyHint: true },
    },
  ];
}

const tools = new WeakMap<McpSettings, Tool[]>();

/** The tool list of these settings, built once per settings object (`/mcp` makes a server per request). */
function cachedToolsOf(settings: McpSettings): Tool[] {
  let list = tools.get(settings);
  if (list === undefined) {
    list = toolsOf(settings);
    tools.set(settings, list);
  }
  return list;
}

function failure(message: string, body?: unknown): CallToolResult {
  const content: CallToolResult['content'] = [{ type: 'text', text: message }];
  if (body !== undefined) content.push({ type: 'text', text: JSON.stringify(body) });
  return { isError: true, content };
}

/** A REST error body as the tool's error result: its message first, as a 400 would say it. */
function restFailure(answer: RestAnswer): CallToolResult {
  const body = answer.body as { message?: unknown } | null;
  const message = typeof body?.message === 'string' ? body.message : `The gateway answered HTTP ${answer.status}`;
  return failure(message, answer.body);
}

function success(structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

/**
 * Tool arguments as a query string, as a REST client would write them: arrays repeated, scalars as
 * text (the REST parser converts and checks them). Objects have no query form.
 */
function toQuery(args: Record<string, unknown>, into = new URLSearchParams()): URLSearchParams | string {
  for (const [name, value] of Object.entries(args)) {
    if (NOT_ARGUMENTS.has(name))
      return `${name} is not an argument of this tool: the API key comes with the connection (?key= or X-API-KEY)`;
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) {
      if (item === undefined || item === null) continue;
      if (typeof item === 'object')
        return `${name} must be ${Array.isArray(value) ? 'a list of strings or numbers' : 'a string or a number'}`;
      into.append(name, String(item));
    }
  }
  return into;
}

async function callTool(rest: RestCall, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  switch (name) {
    case 'search_accommodations': {
      const query = toQuery(args);
      if (typeof query === 'string') return failure(query);
      const answer = await rest(SEARCH_PATH, query);
      return answer.status === 200 ? success(answer.body as Record<string, unknown>) : restFailure(answer);
    }
    case 'get_accommodation': {
      const { id, ...trip } = args;
      if (typeof id !== 'string' || id.trim() === '') return failure('id is required: the id of a search result, or <supplier>:<id>');
      if (id.includes(',')) return failure('id names one stay; to look up several, use search_accommodations with hotelids');
      const query = toQuery(trip, new URLSearchParams({ hotelids: id.trim() }));
      if (typeof query === 'string') return failure(query);
      const answer = await rest(SEARCH_PATH, query);
      if (answer.status !== 200) return restFailure(answer);
      const stay = (answer.body as { results: Record<string, unknown>[] }).results[0];
      return stay === undefined ? failure(`No accommodation has the id "${id.trim()}"`) : success(stay);
    }
    case 'list_transactions': {
      const query = toQuery(args);
      if (typeof query === 'string') return failure(query);
      query.set('format', 'json');
      const answer = await rest(TRANSACTIONS_PATH, query);
      return answer.status === 200 ? success(answer.body as Record<string, unknown>) : restFailure(answer);
    }
    default:
      return failure(`Unknown tool "${name}"; the tools are ${TOOL_NAMES.join(', ')}`);
  }
}

/** An MCP server with the gateway's tools, each call made through `rest`. One per connection (stateless HTTP: one per request). */
export function createMcpServer(rest: RestCall, version: string, settings: McpSettings): Server {
  const server = new Server(
    { name: 'staygate', title: 'staygate accommodation search', version },
    {
      capabilities: { tools: {} },
      instructions:
        'Search accommodations with search_accommodations (a location, and both dates for prices), look one up with get_accommodation, ' +
        "and, with an API key, list your commission transactions with list_transactions. Give users the suppliers' links as they are: they are tracked.",
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: cachedToolsOf(settings) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => callTool(rest, request.params.name, request.params.arguments ?? {}));
  return server;
}
