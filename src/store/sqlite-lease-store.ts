import { openSqlite } from './open-sqlite.ts';
import { writeWithoutWaiting } from './write-without-waiting.ts';
import { leaseFromRow, type LeaseRow, type LeaseStore, type LeaseStoreOptions } from './lease-store.ts';

/**
 * Leases in the gateway's SQLite file (table `leases`, migrations/sqlite/0001): the processes of
 * one machine sharing it (gateways, the CLI).
 */
export function createSqliteLeaseStore(options: LeaseStoreOptions & { path: string }): LeaseStore {
  const db = openSqlite(options.path);
  const clock = options.clock ?? Date.now;
  // One conditional write: the row is taken when free, expired or already this holder's.
  const take = db.prepare(`INSERT INTO leases (name, holder, expires_at) VALUES (@name, @holder, @expires)
    ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
    WHERE leases.holder = excluded.holder OR leases.expires_at <= @now`);
  const free = db.prepare('DELETE FROM leases WHERE name = ? AND holder = ?');
  const select = db.prepare<[string, number], LeaseRow>('SELECT holder, expires_at FROM leases WHERE name = ? AND expires_at > ?');
  let closed = false;
  return {
    async acquire(name, holder, ttlMs) {
      const now = clock();
      return (await writeWithoutWaiting(db, () => take.run({ name, holder, expires: now + ttlMs, now }))).changes > 0;
    },
    async release(name, holder) {
      await writeWithoutWaiting(db, () => free.run(name, holder));
    },
    async holder(name) {
      const row = select.get(name, clock());
      return row === undefined ? null : leaseFromRow(row);
    },
    async close() {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
}
