import { setTimeout as sleep } from 'node:timers/promises';
import type { Settings, SupplierId } from '../types.ts';
import { callObserver } from './call-observer.ts';
import { deadlineOf, deadlineSignal } from './deadline-signal.ts';
import { isTimeoutReason, SupplierError } from './supplier-error.ts';

/**
 * Request headers: the credentials live here, and only here (never in a URL, never in a message).
 * A function is called for every request sent, retries included: a signature over the time
 * (Hotelbeds' X-Signature, Rapid's Authorization) must be signed again for each.
 */
export type RequestHeaders = Record<string, string> | (() => Record<string, string>);

/** The figures of a supplier call: its default deadline and the 429 rule's. */
export type FetchSettings = Pick<Settings, 'feedPageTimeoutMs' | 'rateLimitBackoffMs' | 'rateLimitMaxWaits' | 'rateLimitMaxWaitMs'>;

export interface FetchJsonOptions {
  supplier: SupplierId;
  settings: FetchSettings;
  /**
   * The caller's signal (shutdown, request deadline); combined with the per-call timeout. When it
   * aborts with a TimeoutError (as AbortSignal.timeout does), the call failed for lack of an answer
   * in time: a `timeout` SupplierError. Any other reason is the caller giving up, re-thrown as is.
   */
  signal?: AbortSignal;
  /**
   * This call's own deadline, 429 waits included; default `settings.feedPageTimeoutMs`. `null`:
   * none, the caller's signal carries the deadline (quote calls: the quote service gives every call one).
   */
  timeoutMs?: number | null;
  /** Default GET; POST sends `body` as JSON. */
  method?: 'GET' | 'POST';
  /** Serialised as the JSON request body. */
  body?: unknown;
  /** Sent on every request of this call, over the defaults (accept, content-type). */
  headers?: RequestHeaders;
  /**
   * The first wait after a 429 that carries no Retry-After (Rapid sends none), doubling at each
   * further 429 of the call, capped at `settings.rateLimitMaxWaitMs`; default `settings.rateLimitBackoffMs`.
   */
  backoffMs?: number;
  /** 429s waited out before the call fails as `rate_limited`; default `settings.rateLimitMaxWaits`. */
  maxRateLimitWaits?: number;
  /**
   * Statuses besides 2xx that are an answer, returned rather than thrown: what the API says with
   * its status (Rapid's 410 for an expired page token).
   */
  acceptStatus?: readonly number[];
}

/** An answer: its status (2xx, or one of `acceptStatus`), body and headers. */
export interface SupplierResponse<Body> {
  status: number;
  body: Body;
  headers: Headers;
}

/** How much of an error body goes into a message: enough to diagnose, not a whole page. */
const ERROR_BODY_PREVIEW = 200;
/** Header values (and their words) this long or longer are kept out of every message (shorter: words like "Bearer"). */
const SECRET_MIN_LENGTH = 8;

/**
 * GET (or POST) a URL and parse its JSON body, with a deadline. Every failure becomes a
 * SupplierError naming the supplier, except the caller's own abort, which is re-thrown as the
 * caller's reason so that cancelling is never mistaken for a broken supplier. A 204 is null.
 */
export async function fetchJson(url: string, options: FetchJsonOptions): Promise<unknown> {
  return (await fetchJsonResponse(url, options)).body;
}

/**
 * `fetchJson` with the answer's status and headers (a `Link` to the next page). The body of a 204,
 * or of an accepted non-2xx status that is empty or not JSON, is null: there the status is the answer.
 */
export async function fetchJsonResponse(url: string, options: FetchJsonOptions): Promise<SupplierResponse<unknown>> {
  const { status, text, headers } = await fetchText(url, options);
  const success = status >= 200 && status < 300;
  if (status === 204 || (!success && text === '')) return { status, body: null, headers };
  try {
    return { status, body: JSON.parse(text) as unknown, headers };
  } catch (error) {
    if (!success) return { status, body: null, headers };
    throw new SupplierError(options.supplier, 'malformed', `body of ${url} is not JSON: ${text.slice(0, ERROR_BODY_PREVIEW)}`, {
      cause: error,
    });
  }
}

/**
 * `fetchJson` for bodies that are not JSON (supplier_c's CSV report): the body as text, the status
 * and the response headers, with the same deadline and failures. Statuses:
 * - 2xx and `acceptStatus`: the answer.
 * - 429: waits what `Retry-After` asks (seconds or an HTTP date), else the backoff, and sends again,
 *   up to `maxRateLimitWaits` times; a wait that would end past the deadline (the call's own, or
 *   the caller's when it is a deadline signal) is not begun: `rate_limited` at once.
 * - 401 and 403: `auth`, with the supplier's own message (`auth: <message>`).
 * - any other: `http`.
 * No message carries a header value: they are scrubbed out of the supplier's body too.
 */
export async function fetchText(
  url: string,
  options: FetchJsonOptions & { accept?: string },
): Promise<{ status: number; text: string; headers: Headers }> {
  const { supplier, signal, settings } = options;
  const timeoutMs = options.timeoutMs === undefined ? settings.feedPageTimeoutMs : options.timeoutMs;
  const deadline = timeoutMs === null ? null : deadlineSignal(timeoutMs, signal);
  const combined = deadline?.signal ?? signal;
  const endsAt = deadlineOf(combined);
  const backoffMs = options.backoffMs ?? settings.rateLimitBackoffMs;
  const maxWaits = options.maxRateLimitWaits ?? settings.rateLimitMaxWaits;
  let secrets: string[] = [];
  const failure = (kind: 'http' | 'auth' | 'rate_limited', message: string, status: number): SupplierError =>
    new SupplierError(supplier, kind, redact(message, secrets), { status });

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

  const send = (): Promise<Response> => {
    const own = typeof options.headers === 'function' ? options.headers() : (options.headers ?? {});
    secrets = secretsOf(own);
    const headers = new Headers({ accept: options.accept ?? 'application/json' });
    if (options.method === 'POST') headers.set('content-type', 'application/json');
    for (const [name, value] of Object.entries(own)) headers.set(name, value);
    return options.method === 'POST'
      ? fetch(url, { method: 'POST', signal: combined, headers, body: JSON.stringify(options.body) })
      : fetch(url, { signal: combined, headers });
  };
  const sendOnce = async (): Promise<Response> => {
    try {
      return await send();
    } catch (error) {
      // A keep-alive connection the supplier closed while it sat idle in our pool fails the request
      // sent on it before any answer (docs/decisions.md 72): every supplier call is a read, so it is
      // sent once more, on a new connection, within the same deadline.
      if (combined?.aborted || !connectionDropped(error)) throw error;
      return await send();
    }
  };

  let response: Response;
  let text: string;
  try {
    for (let waits = 0; ; waits++) {
      response = await sendOnce();
      text = await response.text();
      if (response.status !== 429) break;
      const asked = retryAfterMs(response.headers.get('retry-after'), Date.now());
      const waitMs = asked ?? Math.min(backoffMs * 2 ** waits, settings.rateLimitMaxWaitMs);
      const said = asked === undefined ? `backoff ${waitMs} ms` : `Retry-After ${waitMs} ms`;
      if (waits >= maxWaits) throw failure('rate_limited', `rate limited: HTTP 429 from ${url} after ${waits} waits`, 429);
      if (waitMs > settings.rateLimitMaxWaitMs)
        throw failure('rate_limited', `rate limited: HTTP 429 from ${url} (${said}, longer than a call waits)`, 429);
      if (endsAt !== undefined && performance.now() + waitMs >= endsAt)
        throw failure('rate_limited', `rate limited: HTTP 429 from ${url} (${said}, past the call's deadline)`, 429);
      callObserver()?.rateLimitWait?.(supplier, waitMs);
      await sleep(waitMs, undefined, { signal: combined });
    }
  } catch (error) {
    return fail(error);
  } finally {
    deadline?.clear();
  }

  const { status } = response;
  if ((status >= 200 && status < 300) || options.acceptStatus?.includes(status)) return { status, text, headers: response.headers };
  if (status === 401 || status === 403) throw failure('auth', `auth: ${supplierMessage(text) || `HTTP ${status}`}`, status);
  throw failure('http', `HTTP ${status} from ${url}: ${text.slice(0, ERROR_BODY_PREVIEW)}`, status);
}

/**
 * How long a `Retry-After` asks to wait, in ms: delta seconds, or an HTTP date (`now` is the wall
 * clock it is measured from; a date past is 0). Undefined when absent or unreadable: the caller
 * backs off on its own.
 */
export function retryAfterMs(value: string | null, now: number): number | undefined {
  const text = value?.trim() ?? '';
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1_000);
  // An HTTP date names its day ("Sun, 06 Nov 1994 08:49:37 GMT"); a bare "-1" or "soon" is no date.
  const at = /[a-z]/i.test(text) ? Date.parse(text) : NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * The supplier's own words in an error body: the first of `message`, `error` (a string),
 * `error.message` and `errors[0].message` in a JSON body (the shapes of Rapid, Hotelbeds, LiteAPI
 * and Booking.com), else the body's first characters; on one line, at most ERROR_BODY_PREVIEW long.
 */
export function supplierMessage(text: string): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const field = (value: unknown, key: string): unknown =>
    typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
  const errors = field(body, 'errors');
  const found = [
    field(body, 'message'),
    field(body, 'error'),
    field(field(body, 'error'), 'message'),
    Array.isArray(errors) ? field(errors[0], 'message') : undefined,
  ].find((value): value is string => typeof value === 'string' && value.trim() !== '');
  return (found ?? text).replace(/\s+/g, ' ').trim().slice(0, ERROR_BODY_PREVIEW);
}

/** The values of request headers and their words, longest first, as they could be echoed back. */
function secretsOf(headers: Record<string, string>): string[] {
  const found = new Set<string>();
  for (const value of Object.values(headers)) {
    for (const piece of [value, ...value.split(/[\s,;=]+/)]) if (piece.length >= SECRET_MIN_LENGTH) found.add(piece);
  }
  return [...found].sort((a, b) => b.length - a.length);
}

/** `text` with every secret replaced: a supplier may echo the key it refused (Rapid's 401 lists the apikey it got). */
function redact(text: string, secrets: readonly string[]): string {
  return secrets.reduce((out, secret) => out.replaceAll(secret, '[redacted]'), text);
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
