import { SUPPLIER_IDS, type SupplierId } from '../types.ts';

/** unknown: no call of the supplier has ended yet (a restart that served stored content); ok: the last verdict was an answer; failed: a refusal of our credentials. */
export const AUTH_STATES = ['unknown', 'ok', 'failed'] as const;
export type AuthState = (typeof AUTH_STATES)[number];

/**
 * Whether each supplier accepts the gateway's credentials, as its calls last told: quotes on this
 * thread, content pulls by their reports from the worker. Its own state beside content and
 * breaker, because a refused key is neither an outage (the breaker stays closed: the supplier is
 * up) nor stale content (that is a consequence): the operator must fix a credential.
 */
export interface SupplierAuth {
  /** A call was answered: the credentials were accepted. */
  answered(supplier: SupplierId): void;
  /** A call was refused (401/403); `error` is the SupplierError's detail, `auth: <the supplier's message>`. */
  refused(supplier: SupplierId, error: string): void;
  /** The state, and the refusal's message while failed. */
  state(supplier: SupplierId): { auth: AuthState; error: string | null };
}

export function createSupplierAuth(options: { onRefused?: (supplier: SupplierId, error: string) => void } = {}): SupplierAuth {
  const states = new Map<SupplierId, { auth: AuthState; error: string | null }>(
    SUPPLIER_IDS.map((id) => [id, { auth: 'unknown', error: null }]),
  );
  return {
    answered(supplier) {
      states.set(supplier, { auth: 'ok', error: null });
    },
    refused(supplier, error) {
      states.set(supplier, { auth: 'failed', error });
      options.onRefused?.(supplier, error);
    },
    state(supplier) {
      return states.get(supplier) ?? { auth: 'unknown', error: null };
    },
  };
}
