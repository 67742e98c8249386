// Test support for PostgreSQL: the real server on the machine (TEST_DATABASE_URL, default the
// trust-auth database `test` on 127.0.0.1:5432), never a mock, and a schema of its own per test
// run, dropped afterwards, so runs in parallel never see each other's rows.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migratePg } from '../store/pg-migrate.ts';
import { openPgPool, type PgPool } from '../store/pg-pool.ts';
import type { TwoHandles } from './two-handles.ts';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

export interface TestSchema {
  /** A connection string whose connections use only this schema (search_path). */
  url: string;
  schema: string;
  /** Drops the schema and everything in it. */
  drop(): Promise<void>;
}

/** Creates an empty schema `t_<random>` in the test database. */
export async function createTestSchema(base = TEST_DATABASE_URL): Promise<TestSchema> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await withClient(base, (client) => client.query(`CREATE SCHEMA ${schema}`));
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    schema,
    drop: () => withClient(base, (client) => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)).then(() => undefined),
  };
}

/** Whether the PostgreSQL server answers. */
export async function postgresAvailable(base = TEST_DATABASE_URL): Promise<boolean> {
  try {
    await withClient(base, (client) => client.query('SELECT 1'));
    return true;
  } catch {
    return false;
  }
}

/**
 * The `skip` option of a suite that needs PostgreSQL: false when it answers; otherwise a reason on
 * a developer's machine, but never under CI (CI=true), where a missing server must fail, not hide.
 */
export async function skipWithoutPostgres(base = TEST_DATABASE_URL): Promise<false | string> {
  if (await postgresAvailable(base)) return false;
  return process.env.CI ? false : `no PostgreSQL answering at ${base} (set TEST_DATABASE_URL, or start PostgreSQL)`;
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh schema with every migration applied; pools opened by `openPool` end when it is dropped. */
export interface MigratedSchema {
  url: string;
  openPool(max?: number): PgPool;
  /** Ends the pools and drops the schema. */
  drop(): Promise<void>;
}

export async function createMigratedSchema(): Promise<MigratedSchema> {
  const schema = await createTestSchema();
  const pools: PgPool[] = [];
  const openPool = (max = 4) => {
    const pool = openPgPool(schema.url, { max });
    pools.push(pool);
    return pool;
  };
  await migratePg(openPool(1));
  return {
    url: schema.url,
    openPool,
    async drop() {
      await Promise.all(pools.splice(0).map((pool) => pool.end()));
      await schema.drop();
    },
  };
}

interface Closable {
  close(): Promise<void>;
}

/** A store on a fresh migrated schema of its own; its close() also ends its pool and drops the schema. */
export async function freshPgStore<T extends Closable>(open: (pool: PgPool) => T | Promise<T>): Promise<T> {
  const schema = await createMigratedSchema();
  const store = await open(schema.openPool());
  return {
    ...store,
    close: async () => {
      await store.close();
      await schema.drop();
    },
  };
}

/** Two stores on one fresh migrated schema, each on a pool of its own (as two gateways). */
export async function twoPgStores<T extends Closable>(open: (pool: PgPool) => T | Promise<T>): Promise<TwoHandles<T>> {
  const schema = await createMigratedSchema();
  const first = await open(schema.openPool());
  const second = await open(schema.openPool());
  return {
    first,
    second,
    async close() {
      await Promise.all([first.close(), second.close()]);
      await schema.drop();
    },
  };
}
