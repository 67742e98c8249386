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

export interface ClientOptions {
  /** The gateway, e.g. `https://api.example.com`. */
  baseUrl: string;
  /** The partner's API key, sent as X-API-KEY; none = the keyless demo allowance. */
  key?: string;
  /** How often a 429 is retried after its Retry-After (default 2); `wait` replaces the timer (tests). */
  retry?: { max?: number; wait?: (ms: number) => Promise<void> };
  /** A fetch of your own (proxies, instrumentation); default the global fetch. */
  fetch?: typeof fetch;
}

export interface StaygateClient {
  /** One page of a search. */
  search(params: SearchParams): Promise<SearchPage>;
  /** Every stay of every page, following `_links.next` while there is one. */
  searchAll(params: SearchParams): AsyncIterableIterator<Accommodation>;
  /** Every transaction of every page of the key's partner (needs a key and `thirdParty`). */
  transactions(params: TransactionParams): AsyncIterableIterator<Transaction>;
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

async function errorOf(response: Response): Promise<StaygateError> {
  const requestId = response.headers.get('x-request-id');
  let body: { code?: unknown; message?: unknown; requestId?: unknown; details?: unknown } = {};
  try {
    body = (await response.json()) as typeof body;
  } catch {
    // Not the gateway's JSON body (a proxy's page): the status says what we know.
  }
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

  /** GET a URL as JSON; a 429 waits its Retry-After and tries again, up to maxRetries times. */
  async function getJson<T>(url: string): Promise<T> {
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
        await response.body?.cancel();
        await wait(retryAfterMs(response.headers.get('retry-after')));
        continue;
      }
      throw await errorOf(response);
    }
  }

  const search = (params: SearchParams) => getJson<SearchPage>(`${base}/v3/accommodations?${queryString(params as Query)}`);

  return {
    search,
    async *searchAll(params) {
      let page = await search(params);
      for (;;) {
        yield* page.results;
        const next = page._links.next?.href;
        if (next === undefined || page.results.length === 0) return;
        page = await getJson<SearchPage>(next);
      }
    },
    async *transactions(params) {
      for (let page = 0; ; page++) {
        const body = await getJson<TransactionPage>(
          `${base}/v1/reporting/transactions?${queryString({ ...(params as Query), format: 'json', page })}`,
        );
        yield* body.data;
        if (!body.meta.hasMore || body.data.length === 0) return;
      }
    },
  };
}
