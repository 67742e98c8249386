// Test support for PostgreSQL: the real server on the machine (TEST_DATABASE_URL, default the
// trust-auth database `test` on 127.0.0.1:5432), never a mock, and a schema of its own per test
// run, dropped afterwards, so runs in parallel never see each other's rows.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

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
