// Opens every store of the gateway on one database, chosen by DATABASE_URL: unset, the SQLite file
// `<data dir>/staygate.sqlite` (the embedded default, exactly as before); `postgres://...`, one
// PostgreSQL database shared by every gateway and the CLI, migrated at open under a lock. The only
// module (with the composition root's tests) that names the stores' engines.
import path from 'node:path';
import type { KeyStore } from '../auth/key-store.ts';
import { createPgKeyStore } from '../auth/pg-key-store.ts';
import { createSqliteKeyStore } from '../auth/sqlite-key-store.ts';
import type { ClickStore } from '../clicks/click-store.ts';
import { createPgClickStore } from '../clicks/pg-click-store.ts';
import { createSqliteClickStore } from '../clicks/sqlite-click-store.ts';
import type { PgPagesSettings } from '../reporting/pg-transaction-pages.ts';
import { createPgTransactionStore } from '../reporting/pg-transaction-store.ts';
import type { SqlitePagesSettings } from '../reporting/sqlite-transaction-pages.ts';
import { createSqliteTransactionStore } from '../reporting/sqlite-transaction-store.ts';
import type { TransactionStore } from '../reporting/transaction-store.ts';
import type { LeaseStore } from '../store/lease-store.ts';
import type { StoreLocation } from '../store/open-content-store.ts';
import { createPgLeaseStore } from '../store/pg-lease-store.ts';
import { createPgStore } from '../store/pg-store.ts';
import { migratePg } from '../store/pg-migrate.ts';
import { openPgPool, type PgPool } from '../store/pg-pool.ts';
import { createSqliteLeaseStore } from '../store/sqlite-lease-store.ts';
import { createSqliteStore } from '../store/sqlite-store.ts';
import type { ContentStoreSettings, Store } from '../store/store.ts';
import type { Settings } from '../types.ts';

export type { StoreLocation } from '../store/open-content-store.ts';

/** The figures the stores run by. */
export type StoresSettings = ContentStoreSettings & SqlitePagesSettings & PgPagesSettings & Pick<Settings, 'pgPoolSize'>;

export interface StoresConfig {
  /** The data folder: the SQLite file lives there when `databaseUrl` is null. */
  dataDir: string;
  /** DATABASE_URL (postgres://...); null = SQLite. */
  databaseUrl: string | null;
  /** `config.settings` (or in tests `defaults`). */
  settings: StoresSettings;
}

/** Everything but the content: what the CLI's keys and transactions commands need. */
export interface RecordStores {
  /** Where the database is, for a thread or process opening its own handle (the content worker). */
  location: StoreLocation;
  keys: KeyStore;
  clicks: ClickStore;
  transactions: TransactionStore;
  leases: LeaseStore;
  /** Migrations this open applied (PostgreSQL; none for SQLite, whose file every store migrates as it opens it). */
  migrated: string[];
  /** Closes every store, then the connections. */
  close(): Promise<void>;
}

export interface Stores extends RecordStores {
  /** The content: stays, index chunks, the id map, content versions. */
  store: Store;
}

export interface OpenStoresOptions {
  /** Open the content store too (default true); the CLI's keys and transactions commands do not. */
  content?: boolean;
  /** An idle PostgreSQL connection failed (a server restart): the pool replaces it; default a line on stderr. */
  onError?(error: Error): void;
}

/** The SQLite file of a data folder. */
export function sqliteLocation(dataDir: string): { kind: 'sqlite'; path: string } {
  return { kind: 'sqlite', path: path.join(dataDir, 'staygate.sqlite') };
}

export function openStores(config: StoresConfig, options: OpenStoresOptions & { content: false }): Promise<RecordStores>;
export function openStores(config: StoresConfig, options?: OpenStoresOptions): Promise<Stores>;
export async function openStores(config: StoresConfig, options: OpenStoresOptions = {}): Promise<Stores | RecordStores> {
  if (config.databaseUrl === null) return openSqliteStores(config.dataDir, config.settings, options);
  return openPostgresStores(config.databaseUrl, config.settings, options);
}

/**
 * The embedded default, synchronously: every store on `<data dir>/staygate.sqlite`, each on its
 * own connection (WAL: readers never wait for the writer).
 */
export function openSqliteStores(dataDir: string, settings: StoresSettings, options: OpenStoresOptions & { content: false }): RecordStores;
export function openSqliteStores(dataDir: string, settings: StoresSettings, options?: OpenStoresOptions): Stores;
export function openSqliteStores(dataDir: string, settings: StoresSettings, options: OpenStoresOptions = {}): Stores | RecordStores {
  const location = sqliteLocation(dataDir);
  const store = options.content === false ? null : createSqliteStore({ path: location.path, settings });
  const keys = createSqliteKeyStore({ path: location.path });
  const clicks = createSqliteClickStore({ path: location.path });
  const transactions = createSqliteTransactionStore({ path: location.path, settings });
  const leases = createSqliteLeaseStore({ path: location.path });
  const records: RecordStores = {
    location,
    keys,
    clicks,
    transactions,
    leases,
    migrated: [],
    async close() {
      await Promise.all([store?.close(), keys.close(), clicks.close(), transactions.close(), leases.close()]);
    },
  };
  return store === null ? records : { ...records, store };
}

async function openPostgresStores(url: string, settings: StoresSettings, options: OpenStoresOptions): Promise<Stores | RecordStores> {
  const onError =
    options.onError ??
    ((error: Error) => process.stderr.write(`staygate: a PostgreSQL connection failed (it is replaced): ${error.message}\n`));
  const pool: PgPool = openPgPool(url, { max: settings.pgPoolSize, onError });
  try {
    // Gateways starting together and `staygate db migrate` apply each migration once (docs/decisions.md 65).
    const { applied } = await migratePg(pool);
    const store = options.content === false ? null : createPgStore({ pool, settings });
    const keys = createPgKeyStore({ pool });
    const clicks = createPgClickStore({ pool });
    const transactions = await createPgTransactionStore({ pool, settings });
    const leases = createPgLeaseStore({ pool });
    const records: RecordStores = {
      location: { kind: 'postgres', url },
      keys,
      clicks,
      transactions,
      leases,
      migrated: applied,
      async close() {
        await Promise.all([store?.close(), keys.close(), clicks.close(), transactions.close(), leases.close()]);
        await pool.end();
      },
    };
    return store === null ? records : { ...records, store };
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
}
