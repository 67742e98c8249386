// One small HTTP server per simulated supplier. A supplier is a list of routes; this file owns what
// they share: routing, JSON responses, the error body, query-parameter validation, keep-alive.
// Later endpoints (availability/quotes, commission reports) are more routes; fault injection
// (down, slow, timeout, errors, malformed bodies) wraps `dispatch`, the one place every request passes.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SupplierId } from '../types.ts';

export interface SupplierRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON body of a POST, undefined for GET. */
  body: unknown;
}

export interface SupplierResponse {
  status: number;
  /** Serialised as JSON. */
  body: unknown;
  headers?: Record<string, string>;
}

export interface SupplierRoute {
  method: 'GET' | 'POST';
  path: string;
  handle(request: SupplierRequest): SupplierResponse | Promise<SupplierResponse>;
}

/** Thrown by a route to answer with an error status and the JSON error body. */
export class SupplierHttpError extends Error {
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;

  constructor(status: number, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'SupplierHttpError';
    this.status = status;
    this.details = details;
  }
}

/** The error body of every simulated supplier: `{ error, message, details? }`. */
export function errorBody(status: number, message: string, details?: Record<string, unknown>): Record<string, unknown> {
  return { error: http.STATUS_CODES[status] ?? 'Error', message, ...(details ? { details } : {}) };
}

export function ok(body: unknown): SupplierResponse {
  return { status: 200, body };
}

/** Page-size bounds shared by the four content feeds (README: 1..5000, default 1000). */
export const FEED_MAX_PAGE_SIZE = 5_000;
export const FEED_DEFAULT_PAGE_SIZE = 1_000;

const DIGITS = /^\d{1,15}$/;

/**
 * A non-negative integer query parameter written in plain digits, within [min, max]. Absent (or
 * empty) gives `fallback`; anything else ("abc", "1.5", "-1", "1e3", out of range) is a 400.
 */
export function readIntegerParam(
  query: URLSearchParams,
  name: string,
  { min, max, fallback }: { min: number; max: number; fallback: number },
): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  const value = DIGITS.test(raw) ? Number(raw) : NaN;
  if (!(value >= min && value <= max)) {
    const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`;
    throw new SupplierHttpError(400, `${name} must be an integer ${range}`, { param: name, value: raw });
  }
  return value;
}

const MAX_BODY_BYTES = 1 << 20;

async function readJsonBody(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new SupplierHttpError(413, 'request body too large');
    chunks.push(chunk);
  }
  if (size === 0) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new SupplierHttpError(400, 'request body is not valid JSON');
  }
}

export interface CreateSupplierServerOptions {
  supplier: SupplierId;
  routes: readonly SupplierRoute[];
}

export interface SupplierServer {
  readonly supplier: SupplierId;
  readonly server: http.Server;
  /** Routes a request to its handler; 404 for unknown paths, 405 for a known path with another method. */
  dispatch(request: SupplierRequest): Promise<SupplierResponse>;
}

export function createSupplierServer({ supplier, routes }: CreateSupplierServerOptions): SupplierServer {
  const byPath = new Map<string, Map<string, SupplierRoute>>();
  for (const route of routes) {
    const methods = byPath.get(route.path) ?? new Map<string, SupplierRoute>();
    methods.set(route.method, route);
    byPath.set(route.path, methods);
  }

  async function dispatch(request: SupplierRequest): Promise<SupplierResponse> {
    const methods = byPath.get(request.path);
    if (!methods) return { status: 404, body: errorBody(404, `no route for ${request.path}`) };
    const route = methods.get(request.method);
    if (!route) {
      const allow = [...methods.keys()].join(', ');
      return { status: 405, body: errorBody(405, `${request.method} is not allowed on ${request.path}`), headers: { Allow: allow } };
    }
    try {
      return await route.handle(request);
    } catch (error) {
      if (error instanceof SupplierHttpError) return { status: error.status, body: errorBody(error.status, error.message, error.details) };
      throw error;
    }
  }

  const server = http.createServer(async (req, res) => {
    let response: SupplierResponse;
    try {
      const url = new URL(req.url ?? '/', 'http://sim.invalid');
      const method = req.method ?? 'GET';
      const body = method === 'GET' || method === 'HEAD' ? undefined : await readJsonBody(req);
      response = await dispatch({ method, path: url.pathname, query: url.searchParams, headers: req.headers, body });
    } catch (error) {
      response = error instanceof SupplierHttpError
        ? { status: error.status, body: errorBody(error.status, error.message, error.details) }
        : { status: 500, body: errorBody(500, `${supplier} failed: ${(error as Error).message}`) };
    }
    const payload = JSON.stringify(response.body);
    res.writeHead(response.status, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(payload),
      ...response.headers,
    });
    res.end(payload);
  });
  // Keep-alive: the gateway pages through feeds and quotes over a few long-lived connections.
  // Longer than undici's default idle time, so the client, not the server, closes idle sockets.
  server.keepAliveTimeout = 30_000;
  server.headersTimeout = 35_000;
  return { supplier, server, dispatch };
}

/** Listens and resolves with the base URL ("http://127.0.0.1:41234"). */
export function listen(server: http.Server, port: number, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const address = server.address() as AddressInfo;
      const hostPart = address.family === 'IPv6' || host.includes(':') ? `[${address.address}]` : address.address;
      resolve(`http://${hostPart}:${address.port}`);
    });
  });
}

/** Closes the server, including idle keep-alive connections that would otherwise hold it open. */
export function close(server: http.Server): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!server.listening) return resolve();
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}
