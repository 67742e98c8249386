// The simulated Expedia Rapid's authentication: `Authorization: EAN APIKey=<key>,Signature=<hex
// SHA-512 of key + secret + Unix seconds>,timestamp=<Unix seconds>` (Rapid's "Signature
// authentication" guide), checked against the wall clock.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { SupplierResponse } from '../create-supplier-server.ts';
import { rapidError } from './expedia-rapid-wire.ts';

/** How far a signature's timestamp may be from the simulator's clock, either way (Rapid allows five minutes). */
export const RAPID_SIGNATURE_SKEW_S = 300;

/** The 401 message of the spec's example. */
export const RAPID_UNAUTHENTICATED =
  'Data required to authenticate your request is missing or inaccurate. Ensure that your request follows the guidelines in our documentation.';

/** The parts of an `EAN` Authorization header, or null when it is not one. */
export function parseRapidAuthorization(value: string | undefined): { apikey: string; signature: string; timestamp: string } | null {
  const match = /^EAN\s+(.*)$/i.exec(value?.trim() ?? '');
  if (match === null) return null;
  const parts = new Map<string, string>();
  for (const piece of match[1].split(',')) {
    const eq = piece.indexOf('=');
    if (eq > 0) parts.set(piece.slice(0, eq).trim().toLowerCase(), piece.slice(eq + 1).trim());
  }
  const apikey = parts.get('apikey');
  const signature = parts.get('signature');
  const timestamp = parts.get('timestamp');
  return apikey && signature && timestamp ? { apikey, signature, timestamp } : null;
}

/**
 * The 401 Rapid answers when the request is not signed with these credentials within the skew,
 * written as the spec's example writes it (the fields it was given and the server's time), or
 * null when it is.
 */
export function rapidAuthFailure(
  headers: IncomingHttpHeaders,
  credentials: { key: string; secret: string },
  nowMs: number = Date.now(),
): SupplierResponse | null {
  const now = Math.floor(nowMs / 1_000);
  const auth = parseRapidAuthorization(typeof headers.authorization === 'string' ? headers.authorization : undefined);
  const refuse = (): SupplierResponse => {
    const sent = auth ?? { apikey: '', signature: '', timestamp: '' };
    return {
      ...rapidError(401, 'request_unauthenticated', RAPID_UNAUTHENTICATED, {
        fields: [
          { name: 'apikey', type: 'header', value: sent.apikey },
          { name: 'signature', type: 'header', value: sent.signature },
          { name: 'timestamp', type: 'header', value: sent.timestamp },
          { name: 'servertimestamp', type: 'server', value: String(now) },
        ],
      }),
      headers: { 'www-authenticate': 'EAN APIKey=<key>,Signature=<sha512 of key+secret+timestamp>,timestamp=<unix seconds>' },
    };
  };
  if (auth === null || auth.apikey !== credentials.key || !/^\d{1,12}$/.test(auth.timestamp)) return refuse();
  const seconds = Number(auth.timestamp);
  if (Math.abs(seconds - now) > RAPID_SIGNATURE_SKEW_S) return refuse();
  const given = Buffer.from(auth.signature.toLowerCase());
  const expected = Buffer.from(createHash('sha512').update(`${credentials.key}${credentials.secret}${seconds}`).digest('hex'));
  return given.length === expected.length && timingSafeEqual(given, expected) ? null : refuse();
}
