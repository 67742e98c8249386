import type { SupplierId } from '../types.ts';

/**
 * Why a call to a supplier failed. The layers above map these to the spec's upstream errors
 * (timeout -> 504, http/network/auth/rate_limited -> 502 UPSTREAM_ERROR, malformed -> 502
 * BAD_GATEWAY), so the kind is part of the contract, not decoration. `auth`: the supplier refused
 * our credentials (401/403); `rate_limited`: it answered 429 and its wait did not fit the call's
 * deadline, or it kept answering 429. Neither says the supplier is down: neither opens a breaker.
 */
export const SUPPLIER_ERROR_KINDS = ['timeout', 'http', 'network', 'malformed', 'auth', 'rate_limited'] as const;
export type SupplierErrorKind = (typeof SUPPLIER_ERROR_KINDS)[number];

export class SupplierError extends Error {
  readonly supplier: SupplierId;
  readonly kind: SupplierErrorKind;
  /** HTTP status when the supplier answered with one that is not 2xx. */
  readonly status: number | undefined;
  /**
   * The message without the supplier in front, for places that already name the supplier (its
   * /health entry: `auth: <the supplier's own message>`).
   */
  readonly detail: string;

  constructor(supplier: SupplierId, kind: SupplierErrorKind, message: string, options: { status?: number; cause?: unknown } = {}) {
    // The supplier leads the message: ingestion logs and boot failures must say who broke.
    super(`${supplier}: ${message}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SupplierError';
    this.supplier = supplier;
    this.kind = kind;
    this.status = options.status;
    this.detail = message;
  }
}

/**
 * Whether an abort reason is a deadline running out (what AbortSignal.timeout() aborts with), as
 * opposed to a caller cancelling: the first is the supplier's failure, the second is not.
 */
export function isTimeoutReason(reason: unknown): boolean {
  return reason instanceof DOMException && reason.name === 'TimeoutError';
}
