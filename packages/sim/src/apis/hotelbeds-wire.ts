// What every answer of the simulated Hotelbeds APItude shares: the `auditData` block and the error
// bodies as its specs write them (ApiHotelbedsError / apiError: `{ code: "<TYPE>-<token>", message }`).
import { createHash } from 'node:crypto';
import type { SupplierResponse } from '../create-supplier-server.ts';

/** ApiAuditData: where and when the request was processed (Hotelbeds writes Spanish time; UTC here). */
export function auditData(now: number = Date.now()): Record<string, string> {
  return {
    processTime: '1',
    timestamp: new Date(now).toISOString().replace('T', ' ').slice(0, 23),
    requestHost: '127.0.0.1',
    serverId: 'staygate-sim',
    environment: '[sim]',
    release: 'sim',
  };
}

/**
 * A Hotelbeds error answer: `auditData` and `error`, the code its type (INVALID_REQUEST: not
 * what the API version accepts; INVALID_DATA: well formed, wrong values) and a token.
 */
export function hotelbedsError(status: number, type: 'INVALID_REQUEST' | 'INVALID_DATA', message: string): SupplierResponse {
  const token = createHash('sha1').update(`${type}|${message}`).digest('hex').slice(0, 32).toUpperCase();
  return { status, body: { auditData: auditData(), error: { code: `${type}-${token}`, message } } };
}

/** Thrown by a route to answer with a Hotelbeds error body (the common sim error body is not Hotelbeds'). */
export class HotelbedsHttpError extends Error {
  readonly response: SupplierResponse;

  constructor(status: number, type: 'INVALID_REQUEST' | 'INVALID_DATA', message: string) {
    super(message);
    this.name = 'HotelbedsHttpError';
    this.response = hotelbedsError(status, type, message);
  }
}

/** Runs a route's work, answering a HotelbedsHttpError with its Hotelbeds body. */
export async function answerHotelbedsErrors(work: () => SupplierResponse | Promise<SupplierResponse>): Promise<SupplierResponse> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof HotelbedsHttpError) return error.response;
    throw error;
  }
}
