// The map page's search, `/map/v3/accommodations` (docs/decisions.md 39 as amended by 91): the v3
// search, answering only what the map draws, to a page that carries its partner's publishable map
// token from an origin the token lists. Without a valid token it gets the keyless (demo) allowance.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MapSearchCounter } from '../../auth/map-search-counter.ts';
import { originAllowed, SELF_ORIGIN } from '../../auth/map-token.ts';
import type { KeyVerifier, VerifiedMapToken } from '../../auth/key-verifier.ts';
import type { RateLimiter } from '../../auth/rate-limiter.ts';
import { ApiError, type Violations } from '../../errors/api-error.ts';
import { setRateHeaders } from '../access/access-control.ts';
import type { RawQuery } from '../query/compile-query.ts';

/** The parameters web/map/map.ts sends: its viewport box, cluster=auto, the page's own search parameters, its token. */
export const MAP_SEARCH_PARAMS: ReadonlySet<string> = new Set([
  'nelat',
  'nelng',
  'swlat',
  'swlng',
  'cluster',
  'pageSize',
  'aid',
  'campaign',
  'checkin',
  'checkout',
  'adults',
  'currency',
  'type',
  'provider',
  'token',
]);

/**
 * What the map's search answers: the parameters the map sends, `cluster` only `auto`, `pageSize`
 * at most what the map draws (`mapMaxPageSize`). Anything else is one 400 naming each parameter (a scraper learns the
 * endpoint is no copy of the API; a developer learns at once what the map endpoint is for).
 * Returns the query without `token`, which is the map's credential, not a search parameter.
 */
export function checkMapQuery(raw: RawQuery, mapMaxPageSize: number, violations: Violations): RawQuery {
  const query: RawQuery = {};
  for (const [name, value] of Object.entries(raw)) {
    if (!MAP_SEARCH_PARAMS.has(name)) {
      violations.add(
        name,
        `the map's search takes only what the map draws (${[...MAP_SEARCH_PARAMS].join(', ')}); use /v3/accommodations with an API key for other searches`,
      );
      continue;
    }
    if (name === 'token') continue;
    query[name] = value;
  }
  if (query.cluster !== undefined && query.cluster !== 'auto')
    violations.add('cluster', "the map's search clusters with cluster=auto only");
  // Read as the search reads numbers (`1e2`, `100.0` and `+100` are 100 there too); what is not a
  // number is the search's own 400.
  const pageSize = Number(typeof query.pageSize === 'string' ? query.pageSize.trim() : NaN);
  if (Number.isFinite(pageSize) && pageSize > mapMaxPageSize)
    violations.add('pageSize', `the map draws at most ${mapMaxPageSize} stays: pageSize 1 to ${mapMaxPageSize}`);
  return query;
}

export interface MapSearchAccess {
  keys: KeyVerifier;
  limiter: RateLimiter;
  /** Searches per minute per address without a valid token (the keyless allowance). */
  keylessPerMinute: number;
  /** Searches per minute per address with a token (one traveller panning). */
  travellerPerMinute: number;
  /** Searches per minute of a whole token unless it carries its own limit. */
  tokenPerMinute: number;
  windowSeconds: number;
  counter?: MapSearchCounter;
  now: () => Date;
  onRefused?: (endpoint: string) => void;
}

const header = (request: FastifyRequest, name: string): string | null => {
  const value = request.headers[name];
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined || text.trim() === '' ? null : text.trim();
};

const originOf = (url: string): string | null => {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
};

/**
 * The origin a map search comes from: `Origin`, else `Referer`'s origin. A search from the
 * gateway's own `/map` page (the iframe embed, or the page opened directly) says where that page
 * is embedded in `X-Map-Embedder` (`self` when it is not framed): the page's script reads it from
 * the browser (web/map/map.ts `embedder`). Null when nothing says.
 */
export function mapRequestOrigin(request: FastifyRequest, ownOrigin: string): string | null {
  const stated = header(request, 'origin');
  const origin = stated !== null && stated !== 'null' ? stated : originOf(header(request, 'referer') ?? '');
  if (origin === null) return null;
  if (origin !== ownOrigin) return origin;
  const embedder = header(request, 'x-map-embedder');
  if (embedder === SELF_ORIGIN) return SELF_ORIGIN;
  return embedder === null ? null : originOf(embedder);
}

function refuse(reply: FastifyReply, access: MapSearchAccess, endpoint: string, limit: number, resetMs: number): never {
  access.onRefused?.(endpoint);
  const seconds = String(Math.max(1, Math.ceil(resetMs / 1_000)));
  throw new ApiError('RATE_LIMIT_EXCEEDED', `Rate limit of ${limit} map searches per minute exceeded; retry in ${seconds} s`, {
    details: { limit, retryAfter: seconds },
    headers: { 'Retry-After': seconds },
  });
}

/**
 * The map search's access check (an onRequest hook of that route; the app-wide hook leaves the
 * route to it). With a working token used from one of its origins: the token's aid in the links,
 * `travellerPerMinute` per address and the token's own limit in all (both in the headers: the tighter), counted for the partner's hub.
 * Without a token: the keyless allowance per address. A token that does not work (unknown, revoked,
 * its partner without an active key, or used from an origin it does not list) is a 403 saying which,
 * after it spent the keyless allowance (so trying tokens goes no faster than keyless searching).
 */
export async function checkMapAccess(
  request: FastifyRequest,
  reply: FastifyReply,
  access: MapSearchAccess,
  ownOrigin: string,
): Promise<void> {
  const endpoint = request.routeOptions.url ?? '(map search)';
  const query = request.query as RawQuery;
  const given = typeof query.token === 'string' ? query.token.trim() : Array.isArray(query.token) ? query.token.join(',') : '';
  let token: VerifiedMapToken | null = null;
  let refusal: string | null = null;
  if (given !== '') {
    token = await access.keys.mapToken(given);
    const origin = mapRequestOrigin(request, ownOrigin);
    if (token === null) refusal = 'This map token is unknown or revoked: the partner gets a new one (staygate keys map-token)';
    else if (origin === null) {
      refusal =
        'This map token needs to know which site the map is on, and the request does not say (no Origin or Referer): ' +
        "keep the browser's default Referrer-Policy on the page that embeds the map";
      token = null;
    } else if (!originAllowed(token.origins, origin)) {
      refusal = `This map token is not for ${origin === SELF_ORIGIN ? 'the map opened on the gateway itself' : origin}: the partner lists its sites when the token is made (staygate keys map-token --origin)`;
      token = null;
    }
  }

  if (token === null) {
    const decision = await access.limiter.hit(`${endpoint}|ip:${request.ip}`, access.keylessPerMinute);
    setRateHeaders(reply, 'keyless', decision.limit, decision.remaining, decision.resetMs, access.windowSeconds);
    if (!decision.allowed) refuse(reply, access, endpoint, decision.limit, decision.resetMs);
    if (refusal !== null) throw new ApiError('FORBIDDEN', refusal);
    return;
  }

  // This address's share first: an address refused there spends nothing of the whole token, so a
  // scraper that borrowed a token cannot use up what the partner's travellers share.
  const mine = await access.limiter.hit(`${endpoint}|map-token:${token.token}|ip:${request.ip}`, access.travellerPerMinute);
  if (!mine.allowed) {
    setRateHeaders(reply, 'map-token', mine.limit, mine.remaining, mine.resetMs, access.windowSeconds);
    refuse(reply, access, endpoint, mine.limit, mine.resetMs);
  }
  const tokenLimit = token.limitPerMinute ?? access.tokenPerMinute;
  const whole = await access.limiter.hit(`${endpoint}|map-token:${token.token}`, tokenLimit);
  // The headers tell of the tighter of the two allowances.
  const tighter = !whole.allowed || whole.remaining < mine.remaining ? whole : mine;
  setRateHeaders(reply, 'map-token', tighter.limit, tighter.remaining, tighter.resetMs, access.windowSeconds);
  if (!whole.allowed) refuse(reply, access, endpoint, whole.limit, whole.resetMs);
  request.auth = { keyId: null, partnerId: token.partnerId, aid: token.aid, thirdParties: [] };
  searchedWith.set(request, token.token);
}

/** The token each map search was let through with, counted once it is answered (countMapSearch). */
const searchedWith = new WeakMap<FastifyRequest, string>();

/**
 * Counts a map search on its token's month once answered: a search refused afterwards (a 400 for
 * a parameter the map never sends) is no search on the partner's hub.
 */
export function countMapSearch(request: FastifyRequest, reply: FastifyReply, access: MapSearchAccess): void {
  const token = searchedWith.get(request);
  if (token !== undefined && reply.statusCode < 400) access.counter?.count(token, access.now());
}
