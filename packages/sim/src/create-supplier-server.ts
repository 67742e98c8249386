// One small HTTP server per simulated supplier. A supplier is a list of routes; this file owns what
// they share: routing, JSON responses, the error body, query-parameter validation, keep-alive, the
// latency of the live APIs, and fault injection (down, timeout, error, malformed, slow), which sits in
// front of routing so that a fault hits every endpoint of the supplier alike.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SupplierId } from './types.ts';
import { slowDelayMs, type FaultMode } from './parse-sim-faults.ts';

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
  /** Serialised as JSON, unless `text` is given. */
  body: unknown;
  /** A body sent as is (supplier_c's CSV report), with the Content-Type the route sets in `headers`. */
  text?: string;
  headers?: Record<string, string>;
}

export interface SupplierRoute {
  method: 'GET' | 'POST';
  path: string;
  /** Waits the supplier's latency before answering: the live (quote) APIs do, the content feeds need not. */
  latency?: boolean;
  /** `path` is a prefix: the route answers every path under it that no exact route takes (media). */
  prefix?: boolean;
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
  /** The wait before each call of a `latency` route; called once per call. Absent: no wait. */
  latencyMs?: () => number;
}

export interface SupplierServer {
  readonly supplier: SupplierId;
  readonly server: http.Server;
  /** Routes a request to its handler; 404 for unknown paths, 405 for a known path with another method. */
  dispatch(request: SupplierRequest): Promise<SupplierResponse>;
  /** Listens (port 0: ephemeral) and resolves with the base URL; the port is kept for `down` and back. */
  listen(port: number, host: string): Promise<string>;
  /** The fault in force, null for none. */
  readonly fault: FaultMode | null;
  /**
   * Sets (null: clears) the fault. `down` stops listening and drops every connection; leaving `down`
   * listens again on the same port. Calls are applied in order; resolves once in force (a mode other
   * than `down` and its way back is in force when the call returns). Throws after close().
   */
  setFault(mode: FaultMode | null): Promise<void>;
  /** Stops listening, drops every connection (hung `timeout` ones too) and cancels pending waits. */
  close(): Promise<void>;
}

/** What a `malformed` supplier answers with a 200: JSON cut short, as by a proxy that dropped the upstream. */
export const MALFORMED_BODY = '{"status":"ok","results":[{"id":';

export function createSupplierServer({ supplier, routes, latencyMs }: CreateSupplierServerOptions): SupplierServer {
  const waits = cancellableWaits();
  const dispatch = routeRequests(routes, latencyMs, waits.wait);
  let fault: FaultMode | null = null;
  // The fault in force when a request arrives decides its fate, whatever changes meanwhile.
  const server = http.createServer((req, res) => void answer(req, res, { supplier, fault, dispatch, wait: waits.wait }));
  // Keep-alive: the gateway pages through feeds and quotes over a few long-lived connections.
  // Longer than undici's default idle time, so the client, not the server, closes idle sockets.
  server.keepAliveTimeout = 30_000;
  server.headersTimeout = 35_000;

  let bound: { port: number; host: string } | null = null;
  let closed = false;
  // setFault calls are applied one after another (`down` then `none` must close before listening
  // again). With nothing pending a call takes effect at once, before it returns: callers that do not
  // await it (a test flipping `error` on and off) still get the fault on their next request.
  let pending = 0;
  let queue: Promise<void> = Promise.resolve();

  async function apply(mode: FaultMode | null): Promise<void> {
    if (closed) return; // close() won
    if (mode === 'down') {
      fault = mode;
      await close(server);
    } else {
      if (!server.listening && bound !== null) await listen(server, bound.port, bound.host);
      fault = mode;
    }
  }

  return {
    supplier,
    server,
    dispatch,
    get fault() {
      return fault;
    },
    async listen(port, host) {
      const url = await listen(server, port, host);
      bound = { port: (server.address() as AddressInfo).port, host };
      return url;
    },
    setFault(mode) {
      if (closed) throw new Error(`${supplier} is closed`);
      pending++;
      const run = (): Promise<void> => apply(mode).finally(() => void pending--);
      const applied = pending === 1 ? run() : queue.then(run);
      queue = applied.catch(() => undefined);
      return applied;
    },
    async close() {
      closed = true;
      waits.cancelAll();
      await queue;
      await close(server);
    },
  };
}

/** Waits that close() can cancel all at once: a closed simulator must not keep timers alive. */
function cancellableWaits(): { wait(ms: number): Promise<void>; cancelAll(): void } {
  const timers = new Set<NodeJS.Timeout>();
  return {
    wait: (ms) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, ms);
        timers.add(timer);
      }),
    cancelAll() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

/** A request's route by exact path, else by prefix: 404 for an unknown path, 405 for a known path with another method. */
function routeRequests(
  routes: readonly SupplierRoute[],
  latencyMs: (() => number) | undefined,
  wait: (ms: number) => Promise<void>,
): (request: SupplierRequest) => Promise<SupplierResponse> {
  const byPath = new Map<string, Map<string, SupplierRoute>>();
  const prefixes = new Map<string, Map<string, SupplierRoute>>();
  for (const route of routes) {
    const table = route.prefix ? prefixes : byPath;
    const methods = table.get(route.path) ?? new Map<string, SupplierRoute>();
    table.set(route.path, methods.set(route.method, route));
  }
  return async (request) => {
    const methods = byPath.get(request.path) ?? [...prefixes].find(([prefix]) => request.path.startsWith(prefix))?.[1];
    if (!methods) return { status: 404, body: errorBody(404, `no route for ${request.path}`) };
    const route = methods.get(request.method);
    if (!route) {
      const allow = [...methods.keys()].join(', ');
      return { status: 405, body: errorBody(405, `${request.method} is not allowed on ${request.path}`), headers: { Allow: allow } };
    }
    if (route.latency && latencyMs) {
      const ms = latencyMs();
      if (ms > 0) await wait(ms);
    }
    try {
      return await route.handle(request);
    } catch (error) {
      if (error instanceof SupplierHttpError) return { status: error.status, body: errorBody(error.status, error.message, error.details) };
      throw error;
    }
  };
}

interface Answering {
  supplier: SupplierId;
  /** The fault in force when the request arrived. */
  fault: FaultMode | null;
  dispatch(request: SupplierRequest): Promise<SupplierResponse>;
  wait(ms: number): Promise<void>;
}

/** Answers one HTTP request as the fault it arrived under says: not at all, cut off, late, garbage, a 500, or by its route. */
async function answer(req: http.IncomingMessage, res: http.ServerResponse, { supplier, fault, dispatch, wait }: Answering): Promise<void> {
  if (fault === 'timeout') {
    // Accepted, never answered: the caller's deadline is the only way out (or close()).
    req.resume();
    return;
  }
  if (fault === 'down') {
    // Slipped in while the server was going down.
    req.socket.destroy();
    return;
  }
  const slow = slowDelayMs(fault);
  if (slow > 0) await wait(slow);
  if (fault === 'malformed') {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(MALFORMED_BODY) });
    res.end(MALFORMED_BODY);
    return;
  }
  let response: SupplierResponse;
  try {
    if (fault === 'error') throw new SupplierHttpError(500, `${supplier} failed (simulated fault)`);
    const url = new URL(req.url ?? '/', 'http://sim.invalid');
    const method = req.method ?? 'GET';
    const body = method === 'GET' || method === 'HEAD' ? undefined : await readJsonBody(req);
    response = await dispatch({ method, path: url.pathname, query: url.searchParams, headers: req.headers, body });
  } catch (error) {
    response =
      error instanceof SupplierHttpError
        ? { status: error.status, body: errorBody(error.status, error.message, error.details) }
        : { status: 500, body: errorBody(500, `${supplier} failed: ${(error as Error).message}`) };
  }
  const payload = response.text ?? JSON.stringify(response.body);
  res.writeHead(response.status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(payload),
    ...response.headers,
  });
  res.end(payload);
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
