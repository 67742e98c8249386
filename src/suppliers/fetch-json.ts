import { defaults } from '../defaults.ts';
import type { SupplierId } from '../types.ts';
import { deadlineSignal } from './deadline-signal.ts';
import { isTimeoutReason, SupplierError } from './supplier-error.ts';

export interface FetchJsonOptions {
  supplier: SupplierId;
  /**
   * The caller's signal (shutdown, request deadline); combined with the per-call timeout. When it
   * aborts with a TimeoutError (as AbortSignal.timeout does), the call failed for lack of an answer
   * in time: a `timeout` SupplierError. Any other reason is the caller giving up, re-thrown as is.
   */
  signal?: AbortSignal;
  /**
   * This call's own deadline; default `defaults.feedPageTimeoutMs`. `null`: none, the caller's
   * signal carries the deadline (quote calls: the quote service gives every call one).
   */
  timeoutMs?: number | null;
  /** Default GET; POST sends `body` as JSON. */
  method?: 'GET' | 'POST';
  /** Serialised as the JSON request body. */
  body?: unknown;
}

/** How much of an error body goes into the message: enough to diagnose, not a whole page. */
const ERROR_BODY_PREVIEW = 200;

/**
 * GET (or POST) a URL and parse its JSON body, with a deadline. Every failure becomes a
 * SupplierError naming the supplier, except the caller's own abort, which is re-thrown as the
 * caller's reason so that cancelling is never mistaken for a broken supplier.
 */
export async function fetchJson(url: string, options: FetchJsonOptions): Promise<unknown> {
  const { text } = await fetchText(url, options);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new SupplierError(options.supplier, 'malformed', `body of ${url} is not JSON: ${text.slice(0, ERROR_BODY_PREVIEW)}`, {
      cause: error,
    });
  }
}

/**
 * `fetchJson` for bodies that are not JSON (supplier_c's CSV report): the body as text and the
 * response headers, with the same deadline and failures (a non-2xx status is an `http` error).
 */
export async function fetchText(url: string, options: FetchJsonOptions & { accept?: string }): Promise<{ text: string; headers: Headers }> {
  const { supplier, signal } = options;
  const timeoutMs = options.timeoutMs === undefined ? defaults.feedPageTimeoutMs : options.timeoutMs;
  const deadline = timeoutMs === null ? null : deadlineSignal(timeoutMs, signal);
  const combined = deadline?.signal ?? signal;

  const fail = (error: unknown): never => {
    if (signal?.aborted) {
      // The caller's deadline ran out: the supplier did not answer in time, a supplier failure.
      if (isTimeoutReason(signal.reason)) {
        throw new SupplierError(supplier, 'timeout', `no answer in time from ${url}`, { cause: error });
      }
      throw signal.reason;
    }
    if (deadline?.timedOut) {
      throw new SupplierError(supplier, 'timeout', `no answer within ${timeoutMs} ms from ${url}`, { cause: error });
    }
    if (error instanceof SupplierError) throw error;
    throw new SupplierError(supplier, 'network', `request to ${url} failed: ${networkCause(error)}`, { cause: error });
  };

  const send = (): Promise<Response> =>
    options.method === 'POST'
      ? fetch(url, {
          method: 'POST',
          signal: combined,
          headers: { accept: 'application/json', 'content-type': 'application/json' },
          body: JSON.stringify(options.body),
        })
      : fetch(url, { signal: combined, headers: { accept: options.accept ?? 'application/json' } });
  let response: Response;
  let text: string;
  try {
    try {
      response = await send();
    } catch (error) {
      // A keep-alive connection the supplier closed while it sat idle in our pool fails the request
      // sent on it before any answer (docs/decisions.md 72): every supplier call is a read, so it is
      // sent once more, on a new connection, within the same deadline.
      if (combined?.aborted || !connectionDropped(error)) throw error;
      response = await send();
    }
    text = await response.text();
  } catch (error) {
    return fail(error);
  } finally {
    deadline?.clear();
  }

  if (!response.ok) {
    throw new SupplierError(supplier, 'http', `HTTP ${response.status} from ${url}: ${text.slice(0, ERROR_BODY_PREVIEW)}`, {
      status: response.status,
    });
  }
  return { text, headers: response.headers };
}

/**
 * Why a request got no answer, for an operator: fetch rejects with a bare "fetch failed" and keeps
 * the reason in its cause ("connect ECONNREFUSED 127.0.0.1:1", "getaddrinfo ENOTFOUND host"; an
 * AggregateError without a message when every address of a name refused), with its code.
 */
export function networkCause(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = (error as { cause?: unknown } | null)?.cause;
  if (!(cause instanceof Error)) return message;
  const code = (cause as NodeJS.ErrnoException).code;
  const detail =
    cause.message !== ''
      ? cause.message
      : cause instanceof AggregateError
        ? [...new Set(cause.errors.map((e: unknown) => (e instanceof Error ? e.message : String(e))))].join('; ')
        : '';
  if (detail === '') return code === undefined ? message : code;
  return code === undefined || detail.includes(code) ? detail : `${detail} (${code})`;
}

/** Whether fetch failed because the connection was closed or reset under the request (no answer came). */
function connectionDropped(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } } | null)?.cause;
  return cause?.code === 'ECONNRESET' || cause?.code === 'UND_ERR_SOCKET' || cause?.code === 'EPIPE';
}

/**
 * `path` resolved under `baseUrl`, keeping any path the base already has (a real supplier may
 * live at https://host/partner-api/), with the query parameters set.
 */
export function supplierUrl(baseUrl: string, path: string, params: Record<string, string | number>): string {
  const url = new URL(path.replace(/^\/+/, ''), baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, String(value));
  return url.href;
}
