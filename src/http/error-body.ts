import { STATUS_CODES } from 'node:http';
import { ApiError } from '../errors/api-error.ts';

/** The spec's error body. `error` is the HTTP reason phrase (docs/decisions.md 2). */
export interface ErrorBody {
  statusCode: number;
  error: string;
  code: string;
  message: string;
  requestId: string;
  details?: Record<string, unknown>;
  provider?: string;
}

export function errorBody(error: ApiError, requestId: string): ErrorBody {
  const body: ErrorBody = {
    statusCode: error.statusCode,
    error: STATUS_CODES[error.statusCode] ?? 'Error',
    code: error.code,
    message: error.message,
    requestId,
  };
  if (error.details !== undefined) body.details = error.details;
  if (error.provider !== undefined) body.provider = error.provider;
  return body;
}

/**
 * Any thrown value as an ApiError. Fastify's own 4xx errors (bad URL encoding, unsupported
 * media type, body too large) keep their status; anything else is a 500 whose message says
 * nothing about the internals: the details go to the log, not to the client.
 */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const status = (error as { statusCode?: unknown })?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const message = error instanceof Error ? error.message : 'Bad request';
    if (status === 404) return new ApiError('NOT_FOUND', message);
    if (status === 405) return new ApiError('METHOD_NOT_ALLOWED', message);
    if (status === 413) return new ApiError('PAYLOAD_TOO_LARGE', message);
    if (status === 414) return new ApiError('URI_TOO_LONG', message);
    if (status === 431) return new ApiError('HEADERS_TOO_LARGE', message);
    return new ApiError('VALIDATION_ERROR', message);
  }
  return new ApiError('INTERNAL_ERROR', 'The service failed to handle this request; it has been logged.');
}
