import { readFileSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { MIGRATIONS, migrationFiles, type MigrationResult } from './migration-files.ts';

/**
 * A step's guard, its first line: `-- unless: <query>`. When the query returns a row the step is
 * recorded without running: a file of before the migrations may hold what a step adds (a column
 * an ALTER adds, which SQLite cannot add "if not exists").
 */
const GUARD = /^-- unless: (.+)$/m;

/**
 * Brings the SQLite file's schema up to date (docs/decisions.md 65, as migratePg does PostgreSQL's):
 * the steps of `migrations/sqlite/` it lacks, in name order, each once, in a transaction of its
 * own that holds the file's write lock (BEGIN IMMEDIATE) and is recorded in `schema_migrations`
 * with it, so that processes opening the file together (gateways, the CLI) never apply one twice:
 * a later one waits (the busy timeout) and finds the step recorded. A failing step is rolled back
 * whole. Every connection runs it (openSqlite); on a migrated file it is one read.
 */
export function migrateSqlite(db: Database.Database, dir: URL = MIGRATIONS.sqlite): MigrationResult {
  const files = migrationFiles(dir);
  const done = recorded(db);
  const applied: string[] = [];
  for (const name of files.filter((file) => !done.has(file))) {
    const sql = readFileSync(new URL(name, dir), 'utf8');
    const guard = GUARD.exec(sql)?.[1];
    const apply = db.transaction((): boolean => {
      db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL) WITHOUT ROWID');
      if (recorded(db).has(name)) return false; // another process applied it while this one waited
      if (guard === undefined || db.prepare(guard).get() === undefined) db.exec(sql);
      db.prepare("INSERT INTO schema_migrations (name, applied_at) VALUES (?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))").run(name);
      return true;
    });
    try {
      if (apply.immediate()) applied.push(name);
    } catch (error) {
      throw new Error(`migration ${name} failed: ${(error as Error).message}`, { cause: error });
    }
  }
  return { applied, total: recorded(db).size };
}

/** The steps the file has; none when it has no `schema_migrations` (a new file, or one of before the migrations). */
function recorded(db: Database.Database): Set<string> {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
  if (table === undefined) return new Set();
  return new Set(
    db
      .prepare<[], { name: string }>('SELECT name FROM schema_migrations')
      .all()
      .map((row) => row.name),
  );
}
