import { readFile } from 'node:fs/promises';
import type pg from 'pg';
import { MIGRATIONS, migrationFiles, type MigrationResult } from './migration-files.ts';

// Any fixed 32-bit number: every process migrating the same schema takes the same lock.
const MIGRATION_LOCK = 734_920_155;

/**
 * Applies the steps of `migrations/postgres/` the schema lacks, each in its own transaction, under
 * an advisory lock (docs/decisions.md 65): gateways starting together and `staygate db migrate` never apply one
 * twice; a later one waits for the first and finds nothing to do. The lock is scoped to the
 * connection's current schema, so test runs in separate schemas do not wait on each other.
 */
export async function migratePg(pool: pg.Pool, dir: URL = MIGRATIONS.postgres): Promise<MigrationResult> {
  const files = migrationFiles(dir);
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1, hashtext(current_schema()))', [MIGRATION_LOCK]);
    try {
      await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
        name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
      const done = new Set((await client.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((row) => row.name));
      const applied: string[] = [];
      for (const name of files) {
        if (done.has(name)) continue;
        const sql = await readFile(new URL(name, dir), 'utf8');
        await client.query('BEGIN');
        try {
          await client.query(sql);
          await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw new Error(`migration ${name} failed: ${(error as Error).message}`, { cause: error });
        }
        applied.push(name);
      }
      return { applied, total: done.size + applied.length };
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, hashtext(current_schema()))', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}
