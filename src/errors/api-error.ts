// One error class and one table of codes. The HTTP layer turns an ApiError into the spec's
// error body; nothing else decides status codes.

export const ERROR_CODES = {
  LOCATION_REQUIRED: 400,
  INVALID_DATE_FORMAT: 400,
  INVALID_PROVIDER: 400,
  INVALID_COORDINATES: 400,
  VALIDATION_ERROR: 400,
  INVALID_API_KEY: 401,
  MISSING_API_KEY: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  HEADERS_TOO_LARGE: 431,
  RATE_LIMIT_EXCEEDED: 429,
  /** An address's failed key checks spent their allowance: new keys from it are not checked for a while. */
  TOO_MANY_INVALID_KEYS: 429,
  INTERNAL_ERROR: 500,
  UPSTREAM_ERROR: 502,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
  NOT_READY: 503,
  UPSTREAM_TIMEOUT: 504,
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

/** One failed rule of a request, named by the parameter it concerns. */
export interface Violation {
  param: string;
  code: ErrorCode;
  message: string;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly details: Record<string, unknown> | undefined;
  readonly provider: string | undefined;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: Record<string, unknown>; provider?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.statusCode = ERROR_CODES[code];
    this.details = options.details;
    this.provider = options.provider;
    this.headers = options.headers ?? {};
  }

  /**
   * All failures of one request as a single 400. The code is the failures' shared code when
   * they agree (a lone bad date stays INVALID_DATE_FORMAT), VALIDATION_ERROR when they differ;
   * `details` names every offending parameter and lists each failure with its own code.
   */
  static fromViolations(violations: Violation[]): ApiError {
    const codes = new Set(violations.map((v) => v.code));
    const code: ErrorCode = codes.size === 1 ? violations[0].code : 'VALIDATION_ERROR';
    // A parameter that broke two rules is named once.
    const names = [...new Set(violations.map((v) => v.param))];
    const message =
      violations.length === 1
        ? violations[0].message
        : names.length === 1
          ? violations.map((v) => v.message).join('; ')
          : `${names.length} invalid parameters: ${names.join(', ')}`;
    const params: Record<string, string> = {};
    for (const v of violations) params[v.param] ??= v.message;
    return new ApiError(code, message, { details: { params, errors: violations } });
  }
}

/** A parameter a request gave that the answer does not use, and why (a response reports them). */
export interface IgnoredParam {
  param: string;
  reason: string;
}

/**
 * Collects violations while a request is checked, so that all of them are reported at once, and
 * the parameters that were valid to send but did not apply (`ignored`), so that the answer can
 * say so instead of silently dropping them.
 */
export class Violations {
  readonly list: Violation[] = [];
  readonly ignored: IgnoredParam[] = [];
  add(param: string, message: string, code: ErrorCode = 'VALIDATION_ERROR'): void {
    this.list.push({ param, code, message });
  }
  has(param: string): boolean {
    return this.list.some((v) => v.param === param);
  }
  /** The parameter does not apply: its violations no longer count, and the answer reports it. */
  ignore(param: string, reason: string): void {
    for (let i = this.list.length - 1; i >= 0; i--) if (this.list[i].param === param) this.list.splice(i, 1);
    this.ignored.push({ param, reason });
  }
  throwIfAny(): void {
    if (this.list.length > 0) throw ApiError.fromViolations(this.list);
  }
}
