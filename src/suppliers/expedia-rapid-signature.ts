import { createHash } from 'node:crypto';

/**
 * Expedia Rapid's request signature (its "Signature authentication" guide; the spec only names the
 * `Authorization` header): the hex SHA-512 of the API key, the shared secret and the Unix time in
 * whole seconds, concatenated. Rapid refuses a timestamp more than a few minutes off its clock.
 */
export function expediaRapidSignature(key: string, secret: string, unixSeconds: number): string {
  return createHash('sha512').update(`${key}${secret}${unixSeconds}`).digest('hex');
}

/** The `Authorization` header of one request signed at `nowMs`: credentials travel in headers only. */
export function expediaRapidAuthHeaders(key: string, secret: string, nowMs: number): Record<string, string> {
  const seconds = Math.floor(nowMs / 1_000);
  return { Authorization: `EAN APIKey=${key},Signature=${expediaRapidSignature(key, secret, seconds)},timestamp=${seconds}` };
}
