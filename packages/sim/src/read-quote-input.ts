// Reading the inputs of the four quote APIs: ids, dates and the party, from a query string (b, d) or a
// JSON body (a, c). Wire-level problems (not a number, not a list) are a 400 here; the rules of a
// stay (real dates, ranges, one age per child) are checkQuoteRequest's, answered with a 400 that names
// the supplier's own parameter.
import { SupplierHttpError } from './create-supplier-server.ts';
import { checkQuoteRequest, type SimQuoteRequest } from './price-stay.ts';

const DIGITS = /^\d{1,15}$/;

export function badParam(param: string, value: unknown, message: string): SupplierHttpError {
  return new SupplierHttpError(400, message, { param, value: typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined') });
}

function checkIdCount(param: string, count: number, cap: number): void {
  if (count === 0) throw badParam(param, '', `${param} must list at least one id`);
  if (count > cap) throw badParam(param, `${count} ids`, `${param} may list at most ${cap} ids per call, got ${count}`);
}

// --- query strings (supplier_b, supplier_d) -------------------------------------------------------

/** A required comma-separated id list of 1..cap ids. Ids are opaque: one the supplier does not sell is "not available", not an error. */
export function readQueryIds(query: URLSearchParams, name: string, cap: number): string[] {
  const raw = query.get(name);
  if (raw === null || raw === '') throw badParam(name, raw ?? '', `${name} is required: a comma-separated list of ids`);
  const ids = raw.split(',');
  if (ids.some((id) => id === '')) throw badParam(name, raw, `${name} has an empty id`);
  checkIdCount(name, ids.length, cap);
  return ids;
}

export function readQueryString(query: URLSearchParams, name: string): string {
  const raw = query.get(name);
  if (raw === null) throw badParam(name, '', `${name} is required`);
  return raw;
}

/** A whole number written in digits; absent gives `fallback` (null: required). Ranges are checked later. */
export function readQueryCount(query: URLSearchParams, name: string, fallback: number | null): number {
  const raw = query.get(name);
  if (raw === null) {
    if (fallback === null) throw badParam(name, '', `${name} is required`);
    return fallback;
  }
  if (!DIGITS.test(raw)) throw badParam(name, raw, `${name} must be a whole number`);
  return Number(raw);
}

/** Comma-separated ages; absent gives null, empty an empty list. */
export function readQueryAges(query: URLSearchParams, name: string): number[] | null {
  const raw = query.get(name);
  if (raw === null) return null;
  if (raw === '') return [];
  const parts = raw.split(',');
  if (!parts.every((p) => DIGITS.test(p))) throw badParam(name, raw, `${name} must be comma-separated whole ages`);
  return parts.map(Number);
}

// --- JSON bodies (supplier_a, supplier_c) ---------------------------------------------------------

export function readBodyObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new SupplierHttpError(400, 'the request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

export function readJsonObject(value: unknown, param: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badParam(param, value, `${param} must be an object`);
  return value as Record<string, unknown>;
}

/** A required array of 1..cap integer ids. */
export function readJsonIds(value: unknown, param: string, cap: number): number[] {
  if (!Array.isArray(value)) throw badParam(param, value, `${param} must be an array of integer ids`);
  if (!value.every((id) => Number.isSafeInteger(id))) throw badParam(param, value, `${param} must hold integer ids only`);
  checkIdCount(param, value.length, cap);
  return value as number[];
}

export function readJsonString(value: unknown, param: string, fallback: string | null = null): string {
  if (value === undefined && fallback !== null) return fallback;
  if (typeof value !== 'string') throw badParam(param, value, `${param} must be a string`);
  return value;
}

/** An integer; absent gives `fallback` (null: required). Ranges are checked later. */
export function readJsonCount(value: unknown, param: string, fallback: number | null): number {
  if (value === undefined && fallback !== null) return fallback;
  if (!Number.isSafeInteger(value)) throw badParam(param, value, `${param} must be an integer`);
  return value as number;
}

/** An optional array of integer ages (absent: null). */
export function readJsonAges(value: unknown, param: string): number[] | null {
  if (value === undefined) return null;
  if (!Array.isArray(value) || !value.every((age) => Number.isSafeInteger(age))) {
    throw badParam(param, value, `${param} must be an array of whole ages`);
  }
  return value as number[];
}

// --- the stay -------------------------------------------------------------------------------------

/** Throws a 400 naming the supplier's parameter when the stay or party is not valid. */
export function checkStay(request: SimQuoteRequest, params: Readonly<Record<keyof SimQuoteRequest, string>>): void {
  const problem = checkQuoteRequest(request);
  if (problem) throw badParam(params[problem.field], request[problem.field], problem.message);
}
