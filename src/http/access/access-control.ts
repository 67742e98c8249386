// Authentication and rate limiting of every request, in one onRequest hook (README, "API keys"
// and "Rate limits"; docs/decisions.md 5 and 6). Routes say what they need in their config:
//   app.get('/v1/reporting/transactions', { config: { apiKey: 'required' } }, handler)
//   app.get('/health', { config: { rateLimit: false } }, handler)
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { KeyVerifier, VerifiedKey } from '../../auth/key-verifier.ts';
import type { RateLimiter } from '../../auth/rate-limiter.ts';
import { ApiError } from '../../errors/api-error.ts';
import type { RequestAuth } from './request-auth.ts';

/** Requests allowed per endpoint per window (60 s) when neither the key nor the route says otherwise. */
export interface RateLimits {
  /** Per client IP, without a key (demo access). */
  keyless: number;
  /** Per key. */
  keyed: number;
}

export interface AccessControl {
  keys: KeyVerifier;
  limiter: RateLimiter;
  limits: RateLimits;
  /** Milliseconds clock of the limiter's windows (default monotonic): when a guessing IP's keys are checked again. */
  clock?: () => number;
  /** The limiter's window (the one it was made with), for the RateLimit-Policy header's `w` (seconds). */
  windowMs: number;
  /** Told of every 429, by endpoint (the metrics' rate-limit refusals). */
  onRefused?: (endpoint: string) => void;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `required`: a request without a key is a 401 MISSING_API_KEY. Default `optional` (keyless demo access). */
    apiKey?: 'optional' | 'required';
    /**
     * `false`: not limited and no X-RateLimit-* headers (health checks); or this route's own keyless
     * limit; or `'key-only'`: the key is checked as anywhere, but the request spends no allowance
     * because what it does is counted elsewhere (`/mcp`: each tool call is a REST request of its own).
     */
    rateLimit?: false | 'key-only' | { keyless?: number };
  }
}

/** An authenticated request's auth context: what `request.auth` holds after a valid key. */
export type KeyedAuth = RequestAuth & { keyId: string; partnerId: string; aid: string };

/**
 * For handlers that need the caller's identity: the key's auth context, or a 401
 * MISSING_API_KEY. (Routes with `config: { apiKey: 'required' }` never get this far without one.)
 */
export function requireKey(request: FastifyRequest): KeyedAuth {
  if (request.auth.keyId === null) throw missingKey();
  return request.auth as KeyedAuth;
}

function missingKey(): ApiError {
  return new ApiError('MISSING_API_KEY', 'This endpoint needs an API key, sent in the X-API-KEY header');
}

/**
 * The key a request presents: the `X-API-KEY` header (recommended), else the `key` query
 * parameter. An empty value counts as no key. A repeated `key` parameter is kept joined, so it
 * fails as an invalid key rather than silently picking one.
 */
export function presentedKey(request: FastifyRequest): string | null {
  const header = request.headers['x-api-key'];
  const fromHeader = Array.isArray(header) ? header.join(',') : header;
  if (fromHeader !== undefined && fromHeader.trim() !== '') return fromHeader.trim();
  const query = request.query as Record<string, string | string[] | undefined> | undefined;
  const param = query?.key;
  const fromQuery = Array.isArray(param) ? param.join(',') : param;
  return fromQuery !== undefined && fromQuery.trim() !== '' ? fromQuery.trim() : null;
}

/**
 * The spec's X-RateLimit-* (reset in milliseconds), and the same figures as the IETF httpapi
 * draft's structured fields (draft-ietf-httpapi-ratelimit-headers-08 and later, times in seconds):
 * `RateLimit-Policy: "keyless";q=5;w=60` and `RateLimit: "keyless";r=4;t=0`. The policy is named
 * for whose allowance it is (the client IP's, or the key's), so a client can tell which it spends.
 */
export function setRateHeaders(
  reply: FastifyReply,
  policy: 'keyless' | 'key' | 'map-token',
  limit: number,
  remaining: number,
  resetMs: number,
  windowSeconds: number,
): void {
  reply.header('X-RateLimit-Limit', String(limit));
  reply.header('X-RateLimit-Remaining', String(remaining));
  reply.header('X-RateLimit-Reset', String(Math.ceil(resetMs)));
  reply.header('RateLimit-Policy', `"${policy}";q=${limit};w=${windowSeconds}`);
  reply.header('RateLimit', `"${policy}";r=${remaining};t=${Math.ceil(resetMs / 1_000)}`);
}

/**
 * How to leave the keyless (demo) allowance, as its 429 says (README, "API keys"): the demo
 * partner's key that the first start writes, or a key the operator creates.
 */
export const KEY_HINT =
  '. This is the keyless demo allowance of an address: send an API key in the X-API-KEY header for more. ' +
  "Trying the gateway? The first start wrote the demo partner's key to data/demo-key.txt (in the data folder). " +
  'Operators create keys with `npx staygate keys create --aid <affiliate id>`.';

/** The bucket of an IP's failed key checks, on every endpoint at once. */
const FAILED_KEYS = '(failed key checks)';

export function registerAccessControl(app: FastifyInstance, access: AccessControl): void {
  /**
   * IPs whose failed key checks have used up the keyless allowance, until when (ms, this
   * process's clock): their keys are not checked until then, so guessing keys anywhere (searches,
   * `/go`, docs) goes no faster than the keyless allowance, whatever an endpoint's own allowance.
   */
  const guessing = new Map<string, number>();
  const clock = access.clock ?? (() => performance.now());

  const windowSeconds = Math.round(access.windowMs / 1_000);
  app.addHook('onRequest', async (request, reply) => {
    const config = request.routeOptions.config ?? {};
    // Unlimited routes (health checks) take no key at all: checking one there would be an
    // unlimited oracle for guessing keys.
    if (config.rateLimit === false) return;
    const key = presentedKey(request);
    let verified: VerifiedKey | null = null;
    if (key !== null) {
      const lockedUntil = guessing.get(request.ip);
      if (lockedUntil !== undefined && lockedUntil > clock()) {
        // A key already seen valid still works (a partner behind the same address as a guesser).
        verified = await access.keys.verifyKnown(key);
        if (verified === null) {
          // Not a 401: this key was not checked, and may well be valid (a partner's new key after
          // its server tried an old one a few times). Told to fix a key that is fine, a partner
          // would; told to wait, it waits (docs/decisions.md 84).
          const seconds = String(Math.max(1, Math.ceil((lockedUntil - clock()) / 1_000)));
          throw new ApiError(
            'TOO_MANY_INVALID_KEYS',
            `Too many unknown API keys came from this address (${access.limits.keyless} within a minute): ` +
              `new keys from it are not checked for ${seconds} s, so even a valid one is refused until then. ` +
              `A valid key will be served again in ${seconds} s (Retry-After); a key this gateway has already served keeps working meanwhile.`,
            { details: { limit: access.limits.keyless, retryAfter: seconds }, headers: { 'Retry-After': seconds } },
          );
        }
      } else {
        guessing.delete(request.ip);
        verified = await access.keys.verify(key);
      }
    }
    if (verified !== null) {
      request.auth = { keyId: verified.id, partnerId: verified.partnerId, aid: verified.aid, thirdParties: verified.thirdParties };
    } else if (key !== null) {
      const failed = await access.limiter.hit(`${FAILED_KEYS}|ip:${request.ip}`, access.limits.keyless);
      if (failed.remaining === 0) guessing.set(request.ip, clock() + failed.resetMs);
    }

    // Counted before the key is judged: an invalid key is counted against the client's IP, so
    // guessing keys is as limited as any other keyless request. Unknown paths (a browser's
    // /favicon.ico, a scanner) and CORS preflights (OPTIONS, sent by the browser before the real
    // request, which is counted) spend no allowance (docs/decisions.md 16).
    if (!request.is404 && request.method !== 'OPTIONS' && config.rateLimit !== 'key-only') {
      // One bucket per endpoint (the route's URL pattern; every unknown path shares one).
      const endpoint = request.routeOptions.url ?? '(no route)';
      const subject = verified !== null ? `key:${verified.id}` : `ip:${request.ip}`;
      const ownKeyless = typeof config.rateLimit === 'object' ? config.rateLimit.keyless : undefined;
      const limit = verified !== null ? (verified.limitPerMinute ?? access.limits.keyed) : (ownKeyless ?? access.limits.keyless);
      const decision = await access.limiter.hit(`${endpoint}|${subject}`, limit);
      setRateHeaders(reply, verified !== null ? 'key' : 'keyless', decision.limit, decision.remaining, decision.resetMs, windowSeconds);
      // An invalid key is told so even when the IP's allowance is spent: a 429 would hide that
      // the key is wrong (the IP's headers above still say when it may try again).
      if (!decision.allowed && !(key !== null && verified === null)) {
        access.onRefused?.(endpoint);
        const seconds = String(Math.max(1, Math.ceil(decision.resetMs / 1_000)));
        // The demo allowance says how to get more: a key (routes with their own keyless allowance,
        // clicks and the map, serve travellers, who have no use for one).
        const demo = verified === null && key === null && ownKeyless === undefined;
        throw new ApiError(
          'RATE_LIMIT_EXCEEDED',
          `Rate limit of ${limit} requests per minute exceeded; retry in ${seconds} s${demo ? KEY_HINT : ''}`,
          {
            details: { limit, retryAfter: seconds },
            headers: { 'Retry-After': seconds },
          },
        );
      }
    }

    // Unknown, revoked and not-yet-granted keys are told apart nowhere (docs/decisions.md 6).
    if (key !== null && verified === null) throw new ApiError('INVALID_API_KEY', 'The API key is invalid or has been revoked');
    if (verified === null && config.apiKey === 'required') throw missingKey();
  });
}
