// @staygate/client: a typed client of the staygate REST API. Its types are generated from the
// gateway's published OpenAPI document (openapi.json -> openapi.d.ts, `npm run generate`), never
// written by hand; at run time it needs nothing but fetch.
import type { paths } from './openapi.js';
import { StaygateError } from './staygate-error.js';

export { StaygateError } from './staygate-error.js';
export type { paths } from './openapi.js';

type SearchOperation = paths['/v3/accommodations']['get'];
type TransactionsOperation = paths['/v1/reporting/transactions']['get'];

/** The v3 search parameters (GET /v3/accommodations), without `key`: the client sends its own. */
export type SearchParams = Omit<NonNullable<SearchOperation['parameters']['query']>, 'key'>;
/** One v3 page. */
export type SearchPage = SearchOperation['responses'][200]['content']['application/json'];
/** One stay of a page. */
export type Accommodation = SearchPage['results'][number];
/** The reporting parameters, without `key`, `format` (always JSON) and `page` (the iterator pages). */
export type TransactionParams = Omit<NonNullable<TransactionsOperation['parameters']['query']>, 'key' | 'format' | 'page'>;
/** One JSON page of transactions. */
export type TransactionPage = TransactionsOperation['responses'][200]['content']['application/json'];
/** One commission transaction. */
export type Transaction = TransactionPage['data'][number];

/** A 429 the client is about to wait out before it asks again (`onRateLimitWait`). */
export interface RateLimitWait {
  /** How long the client waits before the next attempt: the answer's `Retry-After`. */
  retryAfterMs: number;
  /** The allowance that was spent, requests per minute (the error's `details.limit`), when the gateway said. */
  limit: number | null;
  /** Which retry comes after the wait: 1 for the first, up to `retry.max`. */
  attempt: number;
  /** The URL refused (the key travels in a header, never in it). */
  url: string;
  /** The refusal's request id, for support. */
  requestId: string | null;
}

/** Options of one iteration (`searchAll`, `transactions`). */
export interface IterationOptions {
  /** Called before each wait for the rate limit, besides the client's own `onRateLimitWait`. */
  onRateLimitWait?: (wait: RateLimitWait) => void;
}

export interface SearchAllOptions extends IterationOptions {
  /** Stop after this many stays: no page beyond them is asked for (each page spends one request of the allowance). */
  maxResults?: number;
}

export interface ClientOptions {
  /** The gateway, e.g. `https://api.example.com`. */
  baseUrl: string;
  /** The partner's API key, sent as X-API-KEY; none = the keyless demo allowance. */
  key?: string;
  /** How often a 429 is retried after its Retry-After (default 2); `wait` replaces the timer (tests). */
  retry?: { max?: number; wait?: (ms: number) => Promise<void> };
  /** A fetch of your own (proxies, instrumentation); default the global fetch. */
  fetch?: typeof fetch;
  /**
   * Called whenever a request was refused by the rate limit (429) and the client is about to wait
   * `retryAfterMs` before trying again: without it, a spent allowance looks like a stalled call.
   */
  onRateLimitWait?: (wait: RateLimitWait) => void;
}

export interface StaygateClient {
  /** One page of a search. */
  search(params: SearchParams): Promise<SearchPage>;
  /**
   * Every stay of every page, following `_links.next` while there is one, or the first
   * `maxResults`. Each page is a request against the allowance (5 a minute without a key): a large
   * `pageSize` means fewer of them; a spent allowance is waited out (`onRateLimitWait` says so).
   */
  searchAll(params: SearchParams, options?: SearchAllOptions): AsyncIterableIterator<Accommodation>;
  /** Every transaction of every page of the key's partner (needs a key and `thirdParty`). */
  transactions(params: TransactionParams, options?: IterationOptions): AsyncIterableIterator<Transaction>;
}

const DEFAULT_RETRIES = 2;

type Query = Record<string, string | number | boolean | readonly (string | number)[] | undefined | null>;

function queryString(params: Query): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) query.append(name, String(item));
    else query.append(name, String(value));
  }
  return query.toString();
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Retry-After in seconds (the gateway's form) or an HTTP date, as milliseconds. */
function retryAfterMs(header: string | null): number {
  if (header === null) return 1_000;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1_000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? 1_000 : Math.max(0, date - Date.now());
}

type ErrorBody = { code?: unknown; message?: unknown; requestId?: unknown; details?: unknown };

async function bodyOf(response: Response): Promise<ErrorBody> {
  try {
    return (await response.json()) as ErrorBody;
  } catch {
    // Not the gateway's JSON body (a proxy's page): the status says what we know.
    return {};
  }
}

async function errorOf(response: Response): Promise<StaygateError> {
  const requestId = response.headers.get('x-request-id');
  const body = await bodyOf(response);
  return new StaygateError({
    status: response.status,
    code: typeof body.code === 'string' ? body.code : `HTTP_${response.status}`,
    message: typeof body.message === 'string' ? body.message : `HTTP ${response.status}`,
    requestId: typeof body.requestId === 'string' ? body.requestId : requestId,
    details: typeof body.details === 'object' && body.details !== null ? (body.details as Record<string, unknown>) : undefined,
  });
}

export function createClient(options: ClientOptions): StaygateClient {
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  const maxRetries = options.retry?.max ?? DEFAULT_RETRIES;
  const wait = options.retry?.wait ?? sleep;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.key !== undefined) headers['x-api-key'] = options.key;

  /** GET a URL as JSON; a 429 waits its Retry-After and tries again, up to maxRetries times, saying so first. */
  async function getJson<T>(url: string, onRateLimitWait?: (wait: RateLimitWait) => void): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await doFetch(url, { headers });
      } catch (error) {
        throw new StaygateError({
          status: 0,
          code: 'NETWORK_ERROR',
          message: `${url} could not be reached: ${(error as Error).message}`,
          requestId: null,
        });
      }
      if (response.ok) return (await response.json()) as T;
      if (response.status === 429 && attempt < maxRetries) {
        const body = await bodyOf(response);
        const limit = (body.details as { limit?: unknown } | undefined)?.limit;
        const refusal: RateLimitWait = {
          retryAfterMs: retryAfterMs(response.headers.get('retry-after')),
          limit: typeof limit === 'number' ? limit : null,
          attempt: attempt + 1,
          url,
          requestId: typeof body.requestId === 'string' ? body.requestId : response.headers.get('x-request-id'),
        };
        options.onRateLimitWait?.(refusal);
        onRateLimitWait?.(refusal);
        await wait(refusal.retryAfterMs);
        continue;
      }
      throw await errorOf(response);
    }
  }

  const searchUrl = (params: SearchParams) => `${base}/v3/accommodations?${queryString(params as Query)}`;

  return {
    search: (params) => getJson<SearchPage>(searchUrl(params)),
    async *searchAll(params, iteration = {}) {
      let left = iteration.maxResults ?? Infinity;
      if (left <= 0) return;
      let page = await getJson<SearchPage>(searchUrl(params), iteration.onRateLimitWait);
      for (;;) {
        for (const stay of page.results) {
          yield stay;
          if (--left <= 0) return;
        }
        const next = page._links.next?.href;
        if (next === undefined || page.results.length === 0) return;
        page = await getJson<SearchPage>(next, iteration.onRateLimitWait);
      }
    },
    async *transactions(params, iteration = {}) {
      for (let page = 0; ; page++) {
        const body = await getJson<TransactionPage>(
          `${base}/v1/reporting/transactions?${queryString({ ...(params as Query), format: 'json', page })}`,
          iteration.onRateLimitWait,
        );
        yield* body.data;
        if (!body.meta.hasMore || body.data.length === 0) return;
      }
    },
  };
}
