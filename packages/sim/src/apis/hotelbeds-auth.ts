// The simulated Hotelbeds' authentication: `Api-key` and `X-Signature`, the hex SHA-256 of key +
// secret + Unix seconds (Hotelbeds' "Getting started" guide), checked against the wall clock.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { SupplierResponse } from '../create-supplier-server.ts';

/** How far a signature's second may be from the simulator's clock, either way (a client clock a little off). */
export const HOTELBEDS_SIGNATURE_SKEW_S = 300;

const hex = (key: string, secret: string, seconds: number): string =>
  createHash('sha256').update(`${key}${secret}${seconds}`).digest('hex');

const header = (headers: IncomingHttpHeaders, name: string): string | null => {
  const value = headers[name];
  return typeof value === 'string' && value !== '' ? value : null;
};

/**
 * The 401 Hotelbeds answers when the request is not signed with these credentials within the skew,
 * written as its specs write it (`{ "error": "..." }`), or null when it is.
 */
export function hotelbedsAuthFailure(
  headers: IncomingHttpHeaders,
  credentials: { key: string; secret: string },
  nowMs: number = Date.now(),
): SupplierResponse | null {
  const key = header(headers, 'api-key');
  const signature = header(headers, 'x-signature');
  if (key === null || signature === null) return { status: 401, body: { error: 'Authorization field missing' } };
  const given = Buffer.from(signature.toLowerCase());
  if (key === credentials.key && given.length === 64) {
    const now = Math.floor(nowMs / 1_000);
    // Nearest seconds first: a signature made this second or the last one matches at once.
    for (let offset = 0; offset <= HOTELBEDS_SIGNATURE_SKEW_S; offset++) {
      for (const seconds of offset === 0 ? [now] : [now - offset, now + offset]) {
        if (timingSafeEqual(given, Buffer.from(hex(key, credentials.secret, seconds)))) return null;
      }
    }
  }
  return { status: 401, body: { error: 'Request signature verification failed' } };
}
