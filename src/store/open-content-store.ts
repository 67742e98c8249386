import { migratePg } from './pg-migrate.ts';
import { openPgPool } from './pg-pool.ts';
import { createPgStore } from './pg-store.ts';
import { createSqliteStore } from './sqlite-store.ts';
import type { ContentStoreSettings, Store } from './store.ts';

/**
 * Where the content store lives, as plain data: it crosses into the content worker's thread
 * (workerData), which opens a handle of its own on the same database.
 */
export type StoreLocation = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

/**
 * A content store handle on `where`. On PostgreSQL it has a small pool of its own (ended by
 * close()) and brings the schema up to date first (migratePg: a no-op under a lock when the
 * gateway already did), so a worker thread or a CLI command needs nothing else.
 */
export async function openContentStore(where: StoreLocation, options: { settings: ContentStoreSettings }): Promise<Store> {
  if (where.kind === 'sqlite') return createSqliteStore({ path: where.path, ...options });
  const pool = openPgPool(where.url, { max: 4 });
  try {
    await migratePg(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const store = createPgStore({ pool, ...options });
  return {
    ...store,
    async close() {
      await store.close();
      await pool.end();
    },
  };
}
