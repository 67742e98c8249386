// What every answer of the simulated LiteAPI shares: its authentication (`X-API-Key`) and its error
// bodies as its specs write them (`{ "error": { "code", "description"?, "message" } }`).
import type { IncomingHttpHeaders } from 'node:http';
import type { SupplierResponse } from '../create-supplier-server.ts';

/** A LiteAPI error answer: `code` is LiteAPI's own number (4000 a bad request, 401 a refused key). */
export function liteapiError(status: number, code: number, message: string, description?: string): SupplierResponse {
  return { status, body: { error: { code, ...(description === undefined ? {} : { description }), message } } };
}

/** A bad request as the spec's examples write it: `{ code: 4000, description: <what>, message: "bad request" }`. */
export class LiteapiHttpError extends Error {
  readonly response: SupplierResponse;

  constructor(description: string, status = 400, code = 4000) {
    super(description);
    this.name = 'LiteapiHttpError';
    this.response = liteapiError(status, code, 'bad request', description);
  }
}

/** Runs a route's work, answering a LiteapiHttpError with its LiteAPI body (the common sim error body is not LiteAPI's). */
export async function answerLiteapiErrors(work: () => SupplierResponse | Promise<SupplierResponse>): Promise<SupplierResponse> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof LiteapiHttpError) return error.response;
    throw error;
  }
}

/** The 401 LiteAPI answers for a missing or wrong `X-API-Key` (the spec's example body), or null when the key is the slot's. */
export function liteapiAuthFailure(headers: IncomingHttpHeaders, credentials: { key: string }): SupplierResponse | null {
  const key = headers['x-api-key'];
  return typeof key === 'string' && key === credentials.key ? null : liteapiError(401, 401, 'Unauthorized');
}
