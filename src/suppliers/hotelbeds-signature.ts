import { createHash } from 'node:crypto';

/**
 * Hotelbeds APItude's request signature (its "Getting started" guide; the OpenAPI files only name the
 * `X-Signature` header): the hex SHA-256 of the API key, the shared secret and the current Unix time
 * in whole seconds, concatenated. The API refuses a signature more than a few minutes off its clock.
 */
export function hotelbedsSignature(key: string, secret: string, unixSeconds: number): string {
  return createHash('sha256').update(`${key}${secret}${unixSeconds}`).digest('hex');
}

/** The authentication headers of one request signed at `nowMs`: credentials travel in headers only. */
export function hotelbedsAuthHeaders(key: string, secret: string, nowMs: number): Record<string, string> {
  return { 'Api-key': key, 'X-Signature': hotelbedsSignature(key, secret, Math.floor(nowMs / 1_000)) };
}
