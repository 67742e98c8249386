// Publishable map tokens (docs/decisions.md 91): what the embeddable map sends on its searches in
// place of a key, as browser map services do (Mapbox's and Google's publishable keys). A token is
// public by design (it sits in a partner's page), so it is stored as it is and shown on the hub;
// what makes it the partner's is the list of origins it is bound to, its own limits, and that the
// searches it makes are counted on the partner's hub.
import { randomBytes } from 'node:crypto';

/** `sgmap_` and 24 random bytes (base64url): told apart from a key (`sg_<id>_<secret>`) at a glance. */
const TOKEN_PATTERN = /^sgmap_[A-Za-z0-9_-]{32}$/;

export function generateMapToken(): string {
  return `sgmap_${randomBytes(24).toString('base64url')}`;
}

export function isMapToken(text: string): boolean {
  return TOKEN_PATTERN.test(text);
}

/**
 * The origin a token may be used from: `self` (the gateway's own pages: `/map` opened directly),
 * or `scheme://host[:port]`, where the host may start with `*.` (any subdomain, not the domain
 * itself) and the port may be `*` (any port: a developer's local servers).
 */
export const SELF_ORIGIN = 'self';

/** The origin pattern as stored (lower case, default ports dropped), or an error message. */
export function normalizeOriginPattern(text: string): { pattern: string } | { error: string } {
  const trimmed = text.trim();
  if (trimmed === SELF_ORIGIN) return { pattern: SELF_ORIGIN };
  const match = /^(https?):\/\/(\*\.)?([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}|\*))?\/?$/.exec(trimmed);
  if (match === null)
    return { error: `"${text}" is not an origin: expected scheme://host[:port] (https://blog.example), *.host, :* for any port, or self` };
  const [, scheme, wildcard = '', host, port] = match;
  if (port === '*') return { pattern: `${scheme}://${wildcard}${host.toLowerCase()}:*` };
  // URL drops the scheme's default port and lower-cases the host: as a browser's Origin says it.
  const origin = new URL(`${scheme}://${host}${port === undefined ? '' : `:${port}`}`).origin;
  return { pattern: wildcard === '' ? origin : origin.replace('://', `://${wildcard}`) };
}

/** Whether `origin` (a browser's `Origin`, or `self`) is one a pattern allows. */
export function originAllowed(patterns: readonly string[], origin: string): boolean {
  for (const pattern of patterns) {
    if (pattern === origin) return true;
    if (pattern === SELF_ORIGIN || origin === SELF_ORIGIN) continue;
    const p = /^(https?):\/\/(\*\.)?([^:]+|\[[^\]]+\])(?::(\d+|\*))?$/.exec(pattern);
    const o = /^(https?):\/\/([^:]+|\[[^\]]+\])(?::(\d+))?$/.exec(origin);
    if (p === null || o === null || p[1] !== o[1]) continue;
    const hostOk = p[2] === undefined ? p[3] === o[2] : o[2].endsWith(`.${p[3]}`);
    const portOk = p[4] === '*' || p[4] === o[3];
    if (hostOk && portOk) return true;
  }
  return false;
}
