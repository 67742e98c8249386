// What every answer of the simulated Booking.com Demand API shares: its error body, its auth check
// (`Authorization: Bearer <token>` + `X-Affiliate-Id`), the `rows` bound and its page tokens.
// Booking.com's spec declares only 200s; the errors are written as its documentation's
// `{ request_id, errors: [{ id, message }] }` (decision 151 of the gateway's docs/decisions.md).
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { SupplierResponse, SupplierRoute } from '../create-supplier-server.ts';
import type { ApiCredentials } from './api-slot.ts';

/** A request id as Booking.com writes them (26 lower-case characters). */
export const requestId = (): string => randomUUID().replaceAll('-', '').slice(0, 26);

/** A Booking.com error answer. */
export function bookingError(status: number, id: string, message: string): SupplierResponse {
  return { status, body: { request_id: requestId(), errors: [{ id, message }] } };
}

/** Thrown by a route to answer with a Booking.com error body. */
export class BookingHttpError extends Error {
  readonly response: SupplierResponse;

  constructor(status: number, id: string, message: string) {
    super(message);
    this.name = 'BookingHttpError';
    this.response = bookingError(status, id, message);
  }
}

/** A 400 for a parameter the API does not take as sent. */
export const invalidParameter = (message: string): BookingHttpError => new BookingHttpError(400, 'invalid_parameter', message);

const header = (headers: IncomingHttpHeaders, name: string): string | null => {
  const value = headers[name];
  return typeof value === 'string' && value !== '' ? value : null;
};

const same = (a: string, b: string): boolean => {
  const [x, y] = [createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest()];
  return timingSafeEqual(x, y);
};

/**
 * The refusal of a request not carrying the slot's credentials, or null: no or a wrong bearer token
 * is a 401; a token with another affiliate's id (or none) is a 403, the token is not that affiliate's.
 */
export function bookingAuthFailure(headers: IncomingHttpHeaders, credentials: ApiCredentials): SupplierResponse | null {
  const authorization = header(headers, 'authorization');
  const token = authorization?.startsWith('Bearer ') ? authorization.slice('Bearer '.length) : null;
  if (token === null) return bookingError(401, 'unauthorized', 'Missing bearer token in the Authorization header');
  if (!same(token, credentials.key)) return bookingError(401, 'unauthorized', 'The bearer token is not valid');
  const affiliate = header(headers, 'x-affiliate-id');
  if (affiliate === null || !same(affiliate, credentials.affiliateId))
    return bookingError(403, 'forbidden', 'The X-Affiliate-Id is not an affiliate of this token');
  return null;
}

/** A route that answers only the slot's credentials, and Booking.com's error bodies for its own errors. */
export function authorised(route: SupplierRoute, credentials: ApiCredentials): SupplierRoute {
  return {
    ...route,
    async handle(request) {
      const refused = bookingAuthFailure(request.headers, credentials);
      if (refused !== null) return refused;
      try {
        return await route.handle(request);
      } catch (error) {
        if (error instanceof BookingHttpError) return error.response;
        throw error;
      }
    },
  };
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The request body as an object; any other JSON is a 400. */
export function bodyObject(body: unknown): Record<string, unknown> {
  if (!isObject(body)) throw invalidParameter('The request body must be a JSON object');
  return body;
}

/** `rows` within the endpoint's bounds (absent: its default). */
export function readRows(body: Record<string, unknown>, min: number, max: number, fallback: number): number {
  const rows = body.rows;
  if (rows === undefined) return fallback;
  if (!Number.isSafeInteger(rows) || (rows as number) < min || (rows as number) > max)
    throw invalidParameter(`rows must be an integer from ${min} to ${max}`);
  return rows as number;
}

/** What a page token carries: which list (and its filter), where the next page starts, and the world's day it was made on. */
export interface PageState {
  list: string;
  offset: number;
  day: number;
}

/** A page token (`next_page`): opaque to clients, base64url JSON here. */
export function pageToken(state: PageState): string {
  return Buffer.from(JSON.stringify(state)).toString('base64url');
}

/** A page token's state; anything that is not one of ours is a 400 `invalid_page`. */
export function decodePageToken(page: unknown): PageState {
  let state: Partial<PageState> | null;
  try {
    state = typeof page === 'string' ? (JSON.parse(Buffer.from(page, 'base64url').toString('utf8')) as Partial<PageState>) : null;
  } catch {
    state = null;
  }
  if (state === null || typeof state.list !== 'string' || !Number.isSafeInteger(state.offset) || !Number.isSafeInteger(state.day))
    throw new BookingHttpError(400, 'invalid_page', 'The page token is not valid');
  return state as PageState;
}

/**
 * Where a request's page starts: 0 without `page`; the token's offset when it is this list's and
 * was made on this `day`. A token from an earlier day (the world changed under it: its offsets no
 * longer say the same stays) is a 400 `invalid_page`, as is one of another list (decision 152).
 */
export function readPage(body: Record<string, unknown>, list: string, day: number): number {
  if (body.page === undefined) return 0;
  const state = decodePageToken(body.page);
  if (state.list !== list) throw new BookingHttpError(400, 'invalid_page', 'The page token is not valid for this request');
  if (state.day !== day) throw new BookingHttpError(400, 'invalid_page', 'The page token has expired: start again from the first page');
  return state.offset;
}

/** One page of `items` from `offset`, and the token of the next when there is one. */
export function pageOf<T>(
  items: readonly T[],
  offset: number,
  rows: number,
  list: string,
  day: number,
): { page: T[]; next: string | null } {
  const end = offset + rows;
  return { page: items.slice(offset, end), next: end < items.length ? pageToken({ list, offset: end, day }) : null };
}
