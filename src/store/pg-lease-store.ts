import { leaseFromRow, type LeaseRow, type LeaseStore, type LeaseStoreOptions } from './lease-store.ts';
import type { PgPool } from './pg-pool.ts';

/** The time of an expiry: the test's clock when given ($n), else the server's. */
const NOW = (param: string) => `coalesce(${param}::bigint, (extract(epoch from clock_timestamp()) * 1000)::bigint)`;

/**
 * Leases in PostgreSQL (table `leases`, migrations/postgres/0001): every gateway on the
 * database competes for the same rows, timed by the server's clock so that the machines' clocks
 * never disagree about an expiry. A lease row rather than an advisory lock: it does not depend on
 * one connection staying open, so it works through any pool or proxy.
 */
export function createPgLeaseStore(options: LeaseStoreOptions & { pool: PgPool }): LeaseStore {
  const { pool } = options;
  const now = () => (options.clock === undefined ? null : options.clock());
  return {
    async acquire(name, holder, ttlMs) {
      const { rows } = await pool.query(
        `INSERT INTO leases (name, holder, expires_at) VALUES ($1, $2, ${NOW('$4')} + $3)
        ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
        WHERE leases.holder = excluded.holder OR leases.expires_at <= ${NOW('$4')}
        RETURNING holder`,
        [name, holder, ttlMs, now()],
      );
      return rows.length > 0;
    },
    async release(name, holder) {
      await pool.query('DELETE FROM leases WHERE name = $1 AND holder = $2', [name, holder]);
    },
    async holder(name) {
      const { rows } = await pool.query<LeaseRow>(`SELECT holder, expires_at FROM leases WHERE name = $1 AND expires_at > ${NOW('$2')}`, [
        name,
        now(),
      ]);
      return rows.length === 0 ? null : leaseFromRow(rows[0]);
    },
    async close() {
      // The pool belongs to whoever opened it (open-stores.ts).
    },
  };
}
