import compress from '@fastify/compress';
import cors from '@fastify/cors';
import Fastify, {
  LogController,
  type FastifyHttpOptions,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import { ApiError } from '../errors/api-error.ts';
import { jsonSafeUrl } from '../text/json-safe-url.ts';
import { brotliOptions, createEncodedBodies } from './encoded-bodies.ts';
import { errorBody, toApiError } from './error-body.ts';
import { isKeyParamName } from './access/key-param.ts';
import { isValidHost } from './host-header.ts';
import { requestIdOf } from './request-id.ts';
import { registerAccessControl, type AccessControl } from './access/access-control.ts';
import { registerGoRoutes, type Tracking } from './partner/go-routes.ts';
import { registerPageRoutes, type Pages } from './ops/page-routes.ts';
import type { MapSearchAccess } from './search/map-search.ts';
import { registerReportingRoutes, type Reporting } from './partner/reporting-routes.ts';
import { KEYLESS, type RequestAuth } from './access/request-auth.ts';
import type { HttpSettings, RouteContext, Services } from './route-context.ts';
import { registerDocsRoutes } from './ops/docs-routes.ts';
import { registerMetrics, registerMetricsRoute, type MetricsOptions } from './ops/metrics-route.ts';
import { registerMcpRoutes } from './mcp/mcp-routes.ts';
import { registerAgentSkillRoute } from './ops/agent-skill-route.ts';
import { registerOpenApi, registerOpenApiRoute } from './ops/openapi.ts';
import { registerHealthRoutes, type HealthReport } from './ops/health-routes.ts';
import { registerV1Routes } from './v1/v1-routes.ts';
import { registerV2Routes } from './v2/v2-routes.ts';
import { registerV3Routes } from './v3/v3-routes.ts';

export interface HttpAppOptions {
  /** The loaded services, or null while the inventory is being loaded. */
  services: () => Services | null;
  now: () => Date;
  /** Public base URL for links (e.g. https://api.example.com); by default the request's own host. */
  publicUrl: string | null;
  logger: FastifyServerOptions['logger'];
  /** The figures of the routes and web conventions (CORS origins, compression, page sizes...): the resolved `Config.settings`. */
  settings: HttpSettings;
  /** API keys and rate limits; absent = every request keyless and unlimited (unit tests of other things). */
  access?: AccessControl;
  /** Tracked deeplinks (`/go/...`); absent = no such routes. */
  tracking?: Tracking;
  /** Partner reporting (`/v1/reporting/transactions`); absent = no such route. */
  reporting?: Reporting;
  /** The map and hub pages and their assets; absent = no such routes. */
  pages?: Pages;
  /** Proxies whose X-Forwarded-For gives the client IP (IPs, CIDRs, `loopback`...); empty = the socket address. */
  trustedProxies?: string[];
  /** What `/health` reports; absent = ok once services exist (tests of other things). */
  health?: () => HealthReport;
  /** How long a client may take to send its headers (Node's default, 60 s, when absent; tests set less). */
  headersTimeoutMs?: number;
  /** GET /metrics and the request timings; absent = no metrics. */
  metrics?: MetricsOptions;
}

/** The map search's access check (http/search/map-search.ts), from the app's access control and the pages' settings. */
function mapSearchAccess(options: HttpAppOptions): MapSearchAccess | null {
  const { access, pages } = options;
  if (access === undefined || pages === undefined) return null;
  return {
    keys: access.keys,
    limiter: access.limiter,
    keylessPerMinute: access.limits.keyless,
    travellerPerMinute: pages.keylessPerMinute,
    tokenPerMinute: pages.mapTokenPerMinute ?? options.settings.mapTokenPerMinute,
    windowSeconds: Math.round(access.windowMs / 1_000),
    counter: pages.mapSearches,
    now: options.now,
    onRefused: access.onRefused,
  };
}

/** The error of a request Node could not read: too large, too slow, or not HTTP. */
function clientError(code: string | undefined): ApiError {
  if (code === 'HPE_HEADER_OVERFLOW') return new ApiError('HEADERS_TOO_LARGE', 'The request line or headers are too large');
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return new ApiError('REQUEST_TIMEOUT', 'The request was not received in time');
  return new ApiError('VALIDATION_ERROR', 'The request could not be parsed as HTTP');
}

/** Writes an error body straight to a socket that never became a request, and closes it. */
function answerOnSocket(socket: Socket, error: ApiError): void {
  const requestId = crypto.randomUUID();
  const body = JSON.stringify(errorBody(error, requestId));
  const extra = Object.entries(error.headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(
    `HTTP/1.1 ${error.statusCode} ${STATUS_CODES[error.statusCode]}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\n${extra}Connection: close\r\n\r\n${body}`,
  );
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Health checks and scrapes: their request log lines are debug, not info (every few seconds, all alike). */
    probe?: boolean;
  }
}

/** Response headers a browser script may read (CORS): rate limits, request ids, caching, deprecation. */
const EXPOSED_HEADERS = [
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'X-Cache',
  'ETag',
  'Deprecation',
  'Sunset',
  'Link',
];

// Every route is a GET; other methods on a known path are a 405 with an Allow header. OPTIONS is
// the CORS preflight, answered by @fastify/cors.
const OTHER_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Redacts the value of every spelling of `key` (key-param.ts): an API key must never reach a log line. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const pairs = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      return isKeyParamName(name) ? `${name}=[REDACTED]` : pair;
    });
  return `${url.slice(0, q + 1)}${pairs.join('&')}`;
}

/**
 * Fastify's request log lines, at debug for probes (`config: { probe: true }`: /health, /metrics):
 * a load balancer asking every few seconds would otherwise fill the info log with identical lines.
 */
class ProbeAwareLogController extends LogController {
  override incomingRequest(request: FastifyRequest, reply: FastifyReply, metadata?: Record<string, unknown>): void {
    if (request.routeOptions.config?.probe === true) request.log.debug({ req: request }, 'incoming request');
    else super.incomingRequest(request, reply, metadata);
  }

  // Fastify passes `undefined`, not null, when the answer went out without an error: any falsy error is none.
  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
    metadata?: Record<string, unknown>,
  ): void {
    if (!error && request.routeOptions.config?.probe === true)
      reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
    else super.requestCompleted(error, request, reply, metadata);
  }
}

/** Fastify's own options: the request log, request ids, timeouts, proxies, and errors before routing. */
function serverOptions(options: HttpAppOptions): FastifyHttpOptions<Server> {
  return {
    logger:
      options.logger === false
        ? false
        : {
            ...(typeof options.logger === 'object' ? options.logger : {}),
            serializers: {
              req: (req: { method: string; url: string; id: string }) => ({ method: req.method, url: redactUrl(req.url), id: req.id }),
            },
          },
    genReqId: requestIdOf,
    // `format: 'unsafe'` is fast-json-stringify's "write unscanned" hint (json-schema.ts
    // `jsonSafeString`). When a response schema holds an anyOf (meta.unavailableSuppliers' reason),
    // the serialiser compiles the whole schema with Ajv, which does not know that format and says
    // so on the console: a plain-text line in a JSON log. Known to Ajv as a format that accepts
    // any string, it is compiled silently.
    serializerOpts: { ajv: { formats: { unsafe: true } } },
    // A missing Host is answered by our hook below (JSON body, request id), not by Node's bare 400.
    http: {
      requireHostHeader: false,
      ...(options.headersTimeoutMs === undefined
        ? {}
        : {
            headersTimeout: options.headersTimeoutMs,
            requestTimeout: options.headersTimeoutMs * 2,
            connectionsCheckingInterval: Math.max(10, options.headersTimeoutMs / 4),
          }),
    },
    logController: new ProbeAwareLogController(),
    // request.ip: the socket address, or X-Forwarded-For's client only through configured proxies.
    trustProxy: options.trustedProxies !== undefined && options.trustedProxies.length > 0 ? options.trustedProxies : false,
    // Errors Fastify raises before routing (a path with broken percent-encoding) get our body too.
    frameworkErrors: (error, request, reply) => {
      const apiError = new ApiError('VALIDATION_ERROR', `The request URL is malformed: ${error.message}`);
      (reply as FastifyReply).code(400).header('X-Request-Id', request.id).send(errorBody(apiError, request.id));
    },
    // Malformed requests that never reach routing (bad framing, oversized headers or URL) still
    // get the JSON error body; Node would otherwise answer a bare 400.
    clientErrorHandler: (error: Error & { code?: string }, socket: Socket) => {
      if (!socket.writable) return;
      answerOnSocket(socket, clientError(error.code));
    },
  };
}

/** Compression (gzip or brotli when the client asks, for JSON, CSV and the docs' text) and CORS. */
function registerWebConventions(
  app: FastifyInstance,
  settings: Pick<HttpSettings, 'compressThresholdBytes' | 'compressSyncMaxBytes' | 'brotliQuality' | 'corsOrigins' | 'corsMaxAgeSeconds'>,
): void {
  void app.register(compress, {
    encodings: ['br', 'gzip'],
    threshold: settings.compressThresholdBytes,
    syncThreshold: settings.compressSyncMaxBytes,
    brotliOptions: brotliOptions(settings.brotliQuality),
  });
  const origins = settings.corsOrigins;
  void app.register(cors, {
    origin: origins.includes('*') ? '*' : [...origins],
    methods: ['GET', 'HEAD'],
    allowedHeaders: ['X-API-KEY', 'If-None-Match', 'Accept'],
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: settings.corsMaxAgeSeconds,
    // An OPTIONS that is no preflight (no Origin) gets the same 204, not a plain-text 400.
    strictPreflight: false,
  });
}

/** What every request gets before its route: a request id, private caching, the keyless auth, and a Host check. */
function registerRequestFrame(app: FastifyInstance): void {
  app.decorateRequest('auth', null as unknown as RequestAuth);
  // Callback style, not async: a hook on every request should not cost a promise.
  app.addHook('onRequest', (request, reply, done) => {
    // Answers carry links under the request's host and the partner's aid: no shared cache may
    // store one client's answer for another (routes that may be cached say so themselves).
    reply.headers({ 'X-Request-Id': request.id, 'Cache-Control': 'private, no-cache', Vary: 'Host, X-API-KEY' });
    request.auth = KEYLESS;
    if (!isValidHost(request.host)) {
      done(
        new ApiError(
          'VALIDATION_ERROR',
          request.host === '' ? 'The request has no Host header' : 'The Host header is not a valid host[:port]',
        ),
      );
      return;
    }
    done();
  });
}

/** The spec's error body for every failure a route throws, and for a path no route serves. */
function registerErrorAnswers(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const apiError = toApiError(error);
    if (apiError.statusCode >= 500 && apiError.code === 'INTERNAL_ERROR') request.log.error({ err: error }, 'unhandled error');
    reply.code(apiError.statusCode).headers(apiError.headers).send(errorBody(apiError, request.id));
  });

  app.setNotFoundHandler((request, reply) => {
    const error = new ApiError('NOT_FOUND', `No route for ${request.method} ${redactUrl(request.url.split('?')[0])}`);
    reply.code(404).send(errorBody(error, request.id));
  });
}

/** What the route modules share: the services (503 while loading), the clock, links' URLs, settings, encoded bodies. */
function routeContext(options: HttpAppOptions): RouteContext {
  return {
    services() {
      const services = options.services();
      if (services === null)
        throw new ApiError('NOT_READY', 'The inventory is still loading; retry shortly', { headers: { 'Retry-After': '5' } });
      return services;
    },
    now: options.now,
    settings: options.settings,
    encodedBodies: createEncodedBodies(options.settings.encodedBodiesMaxBytes),
    urlOf(request) {
      const q = request.url.indexOf('?');
      // JSON-safe because links built on them are written into bodies unscanned (json-schema.ts).
      return {
        base: jsonSafeUrl(options.publicUrl ?? `${request.protocol}://${request.host}`),
        path: jsonSafeUrl(q < 0 ? request.url : request.url.slice(0, q)),
        rawQuery: q < 0 ? '' : request.url.slice(q + 1),
      };
    },
  };
}

/** What `/health` reports when the app is given no report of its own: ok once services exist (tests of other things). */
function servicesHealth(options: HttpAppOptions): () => HealthReport {
  return () => {
    const services = options.services();
    return services === null
      ? { status: 'starting', inventory: null, suppliers: {} }
      : { status: 'ok', inventory: { ...services.inventory, builtAt: '', storeBytes: null }, suppliers: {} };
  };
}

/** Every route, each surface given what it needs of the options; the optional surfaces only when configured. */
function registerRoutes(api: FastifyInstance, options: HttpAppOptions, context: RouteContext): void {
  const { settings } = options;
  registerHealthRoutes(api, options.health ?? servicesHealth(options));
  registerOpenApiRoute(api, settings);
  if (options.metrics !== undefined) registerMetricsRoute(api, options.metrics);
  registerDocsRoutes(api, settings);
  registerV1Routes(api, context);
  registerV2Routes(api, context);
  registerV3Routes(api, context, { map: options.pages === undefined ? undefined : { access: mapSearchAccess(options) } });
  if (options.tracking !== undefined) registerGoRoutes(api, context, options.tracking);
  if (options.reporting !== undefined) registerReportingRoutes(api, context, options.reporting);
  if (options.pages !== undefined) registerPageRoutes(api, options.pages, settings);
  registerMcpRoutes(api, settings);
  registerAgentSkillRoute(api, settings);
}

/** The GET routes as they are added, for their 405 siblings (registerMethodNotAllowed). */
function collectGetRoutes(app: FastifyInstance): string[] {
  const getRoutes: string[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.includes('GET')) getRoutes.push(route.url);
  });
  return getRoutes;
}

/** Every GET route's other methods: a 405 with an Allow header (a path with a POST, /mcp, answers its other methods itself). */
function registerMethodNotAllowed(api: FastifyInstance, getRoutes: string[]): void {
  for (const url of getRoutes.splice(0)) {
    if (api.hasRoute({ method: 'POST', url })) continue;
    api.route({
      method: [...OTHER_METHODS],
      url,
      schema: { hide: true },
      handler: async (request, reply) => {
        const error = new ApiError('METHOD_NOT_ALLOWED', `${request.method} is not allowed here; use GET`);
        return reply.code(405).header('Allow', 'GET, HEAD').send(errorBody(error, request.id));
      },
    });
  }
}

export function createHttpApp(options: HttpAppOptions): FastifyInstance {
  const app = Fastify(serverOptions(options));
  // CONNECT (a proxy tunnel) never reaches routing: Node would drop the socket without a word.
  app.server.on('connect', (_request: unknown, socket: Socket) => {
    answerOnSocket(socket, new ApiError('METHOD_NOT_ALLOWED', 'CONNECT is not allowed here; use GET', { headers: { Allow: 'GET, HEAD' } }));
  });
  const getRoutes = collectGetRoutes(app);

  // Query strings are parsed by compile-query.ts (every failure in one 400, numbers read as people
  // write them); the route schemas name them for the OpenAPI document, not for Fastify to check.
  app.setValidatorCompiler(() => () => true);
  registerOpenApi(app);
  registerWebConventions(app, options.settings);
  registerRequestFrame(app);
  if (options.access !== undefined) registerAccessControl(app, options.access);
  if (options.metrics !== undefined) registerMetrics(app, options.metrics);
  registerErrorAnswers(app);

  const context = routeContext(options);
  // Routes in a plugin of their own, registered after the plugins above have loaded: the OpenAPI
  // generator sees each route as it is added.
  void app.register(async (api) => {
    registerRoutes(api, options, context);
    registerMethodNotAllowed(api, getRoutes);
  });
  return app;
}
