// What every error of the simulated Expedia Rapid shares: its Error body as the spec writes it
// (`{ type, message, fields?, errors? }`), and the way a route throws one.
import type { SupplierResponse } from '../create-supplier-server.ts';

/** One Field of an error: where the problem is (`querystring`, `header`, `server`) and the value sent. */
export interface RapidErrorField {
  name: string;
  type: string;
  value?: string;
}

/** An individual error of a 400 (`errors[]`): its type (`<field>.<problem>`), message and fields. */
export interface RapidErrorDetail {
  type: string;
  message: string;
  fields: RapidErrorField[];
}

export function rapidError(
  status: number,
  type: string,
  message: string,
  more: { fields?: RapidErrorField[]; errors?: RapidErrorDetail[] } = {},
): SupplierResponse {
  return { status, body: { type, message, ...more } };
}

/** Thrown by a route to answer with Rapid's error body (the common sim error body is not Rapid's). */
export class RapidHttpError extends Error {
  readonly response: SupplierResponse;

  constructor(status: number, type: string, message: string, more: { fields?: RapidErrorField[]; errors?: RapidErrorDetail[] } = {}) {
    super(message);
    this.name = 'RapidHttpError';
    this.response = rapidError(status, type, message, more);
  }
}

/** The spec's 400: `invalid_input` with the nested errors that say what was wrong. */
export function invalidInput(errors: RapidErrorDetail[]): RapidHttpError {
  return new RapidHttpError(400, 'invalid_input', 'An invalid request was sent in, please check the nested errors for details.', {
    errors,
  });
}

/** One nested error about a query parameter. */
export function queryError(name: string, problem: string, message: string, value?: string): RapidErrorDetail {
  return { type: `${name}.${problem}`, message, fields: [{ name, type: 'querystring', ...(value === undefined ? {} : { value }) }] };
}

/** Runs a route's work, answering a RapidHttpError with its Rapid body. */
export async function answerRapidErrors(work: () => SupplierResponse | Promise<SupplierResponse>): Promise<SupplierResponse> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof RapidHttpError) return error.response;
    throw error;
  }
}
