/**
 * Leases: at most one process at a time does a singleton's work (the scheduled report sync, a
 * content refresh), whatever number of gateways share the database (docs/decisions.md 76). A lease
 * is a row (name, holder, expiry) taken and renewed by one conditional write, so it works on
 * SQLite and PostgreSQL alike and survives connection pooling; a holder that dies stops renewing,
 * and the lease is free once it expires.
 */
export interface LeaseStore {
  /**
   * Takes the lease `name` for `holder` until `ttlMs` from now when it is free, expired, or already
   * `holder`'s (a renewal); true when `holder` holds it after the call.
   */
  acquire(name: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Frees the lease when `holder` holds it (a lease taken over meanwhile stays the new holder's). */
  release(name: string, holder: string): Promise<void>;
  /** Who holds the lease and until when (ms since the epoch, the store's clock); null when free or expired. */
  holder(name: string): Promise<{ holder: string; expiresAt: number } | null>;
  close(): Promise<void>;
}

export interface LeaseStoreOptions {
  /**
   * Milliseconds since the epoch of expiries (tests move it by hand). Default: PostgreSQL's own
   * clock (one clock for every gateway), the machine's for SQLite (its processes share a machine).
   */
  clock?: () => number;
}

/** A `leases` row as both engines read it (PostgreSQL returns the bigint `expires_at` as text). */
export interface LeaseRow {
  holder: string;
  expires_at: number | string;
}

/** One reading of a lease row for both stores. */
export function leaseFromRow(row: LeaseRow): { holder: string; expiresAt: number } {
  return { holder: row.holder, expiresAt: Number(row.expires_at) };
}
