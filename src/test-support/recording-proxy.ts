// Test support for the drivers' contract tests: a loopback proxy in front of a simulated slot that
// records every exchange (what the driver sent, what the simulator answered) so that both sides can
// be held to the API's published schema, and that can play the API's rate limit (429) itself.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Exchange {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The request's JSON body, undefined without one. */
  requestBody: any;
  status: number;
  responseHeaders: Headers | null;
  /** The answer: JSON when it says so, else its text; null when it has none (a 204). */
  responseBody: any;
  /** performance.now() when the request arrived. */
  at: number;
}

/** How the proxy answers a rate-limited request: `Retry-After` when given, a JSON body when given (Rapid's). */
export interface RateLimitAnswer {
  retryAfterS?: number;
  body?: unknown;
}

export interface RecordingProxy {
  url: string;
  exchanges: Exchange[];
  /** The next `count` requests answer 429 as `answer` says, and reach no simulator. */
  rateLimit(count: number, answer?: RateLimitAnswer): void;
  /** Called with each exchange before it is forwarded (a test moves the world on). */
  onRequest: ((exchange: Exchange) => void) | null;
  /** Runs `work` and returns the exchanges it caused. */
  recorded(work: () => Promise<unknown>): Promise<Exchange[]>;
  close(): Promise<void>;
}

/**
 * Starts a proxy to `target` that forwards the request headers named in `forwarded` (lower case:
 * the API's credentials and content headers) and the answer's `content-type` and `link` (a `Link`
 * naming the target is rewritten to name the proxy, so the next page passes through it too).
 */
export async function startRecordingProxy(target: string, forwarded: readonly string[]): Promise<RecordingProxy> {
  let limited: { count: number; answer: RateLimitAnswer } = { count: 0, answer: {} };
  const proxy: RecordingProxy = {
    url: '',
    exchanges: [],
    rateLimit(count, answer = {}) {
      limited = { count, answer };
    },
    onRequest: null,
    async recorded(work) {
      const start = proxy.exchanges.length;
      await work();
      return proxy.exchanges.slice(start);
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://proxy');
    const exchange: Exchange = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      requestBody: text === '' ? undefined : JSON.parse(text),
      status: 0,
      responseHeaders: null,
      responseBody: undefined,
      at: performance.now(),
    };
    proxy.exchanges.push(exchange);
    if (limited.count > 0) {
      limited.count--;
      const { retryAfterS, body } = limited.answer;
      exchange.status = 429;
      exchange.responseBody = body;
      res.writeHead(429, {
        ...(retryAfterS === undefined ? {} : { 'retry-after': String(retryAfterS) }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      });
      res.end(body === undefined ? undefined : JSON.stringify(body));
      return;
    }
    proxy.onRequest?.(exchange);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => forwarded.includes(name))) as Record<string, string>;
    const answer = await fetch(`${target}${url.pathname}${url.search}`, {
      method: exchange.method,
      headers,
      body: text === '' ? undefined : text,
    });
    const body = await answer.text();
    const type = answer.headers.get('content-type');
    exchange.status = answer.status;
    exchange.responseHeaders = answer.headers;
    exchange.responseBody = body === '' ? null : type?.includes('json') ? JSON.parse(body) : body;
    const out: Record<string, string> = { 'content-type': type ?? 'application/json' };
    const link = answer.headers.get('link');
    if (link !== null) out.link = link.replaceAll(target, proxy.url);
    res.writeHead(answer.status, out);
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
