// Test support: a tiny local HTTP server that answers like a supplier, so adapters are tested
// over real HTTP (status codes, bodies, timeouts) rather than against a mocked fetch.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Listing } from '../types.ts';
import type { Supplier } from '../suppliers/supplier.ts';

export interface FixtureResponse {
  status?: number;
  /** Sent as JSON unless it is already a string (raw bodies test the malformed paths). */
  body: unknown;
  /** Milliseconds to wait before answering. */
  delayMs?: number;
  /** Accept the request and never answer (a hung supplier). */
  hang?: boolean;
  /** Response headers besides content-type (Retry-After, Link). */
  headers?: Record<string, string>;
}

/** What the server received, for assertions on methods and request bodies. */
export interface FixtureRequest {
  method: string;
  /** Path and query. */
  url: string;
  /** Raw request body ('' for a GET). */
  body: string;
  /** Request headers, names in lower case (credentials, signatures). */
  headers: Record<string, string | string[] | undefined>;
}

export interface FixtureServer {
  baseUrl: string;
  /** Path and query of every request received, in order. */
  requests: string[];
  /** Every request received, in order, with its method and body. */
  received: FixtureRequest[];
  close(): Promise<void>;
}

export async function startFixtureServer(
  respond: (url: URL, request: FixtureRequest) => FixtureResponse | Promise<FixtureResponse>,
): Promise<FixtureServer> {
  const requests: string[] = [];
  const received: FixtureRequest[] = [];
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture');
    requests.push(url.pathname + url.search);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request = {
      method: req.method ?? 'GET',
      url: url.pathname + url.search,
      body: Buffer.concat(chunks).toString('utf8'),
      headers: req.headers,
    };
    received.push(request);
    const answer = await respond(url, request);
    if (answer.hang) return;
    const send = (): void => {
      if (res.destroyed) return;
      const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
      res.end(text);
    };
    if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    received,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/**
 * The answer of the server at `baseUrl` to the same request (method, path, query, headers, body),
 * for a fixture that stands in front of a real or simulated supplier and changes only some answers.
 */
export async function forwardTo(baseUrl: string, url: URL, request: FixtureRequest): Promise<FixtureResponse> {
  const headers = Object.fromEntries(
    Object.entries(request.headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[0] !== 'host'),
  );
  const answer = await fetch(new URL(url.pathname + url.search, baseUrl), {
    method: request.method,
    headers,
    ...(request.method === 'GET' || request.method === 'HEAD' ? {} : { body: request.body }),
  });
  const kept = ['content-type', 'link', 'retry-after'].flatMap((name) => {
    const value = answer.headers.get(name);
    return value === null ? [] : [[name, value] as const];
  });
  return { status: answer.status, body: await answer.text(), headers: Object.fromEntries(kept) };
}

/** Every page of a feed, for assertions. */
export async function collectPages<T>(pages: AsyncIterable<T[]>): Promise<T[][]> {
  const out: T[][] = [];
  for await (const page of pages) out.push(page);
  return out;
}

/** Every listing of a driver's content, page after page to the end, asking pages of `pageSize`. */
export async function allListings(supplier: Supplier, pageSize?: number): Promise<Listing[]> {
  return (await collectPages(supplier.contentPages({ pageSize }))).flat();
}
