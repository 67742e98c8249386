// Where the content store is, in a form that crosses a thread or process boundary (the content
// worker opens its own handle), and opening it there.
import { openPgPool, type PgPool } from './pg-pool.ts';
import { createSqliteStore } from './sqlite-store.ts';
import type { Store } from './store.ts';

/** The gateway's database: a SQLite file (the embedded default) or PostgreSQL (DATABASE_URL). */
export type StoreLocation = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

/**
 * The content store on a PostgreSQL pool. The one place that names it: until the PostgreSQL
 * content store (store/pg-store.ts, `createPgStore({ pool })`) is merged, it refuses clearly.
 */
export function createPgContentStore(pool: PgPool): Store {
  void pool;
  throw new Error('PostgreSQL content store not built yet');
}

/** The content store at `where`, on a handle of its own; closing the store closes the handle. */
export function openContentStore(where: StoreLocation): Store {
  if (where.kind === 'sqlite') return createSqliteStore({ path: where.path });
  // A small pool: the content worker writes a version in a few long transactions.
  const pool = openPgPool(where.url, { max: 2 });
  let store: Store;
  try {
    store = createPgContentStore(pool);
  } catch (error) {
    void pool.end();
    throw error;
  }
  const close = store.close.bind(store);
  return Object.assign(store, { close: async () => { await close(); await pool.end(); } });
}
