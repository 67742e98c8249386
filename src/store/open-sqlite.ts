import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { migrateSqlite } from './sqlite-migrate.ts';

/** How long a write waits for another connection's write lock before SQLITE_BUSY. */
export const SQLITE_BUSY_TIMEOUT_MS = 5_000;

/**
 * A connection to the gateway's SQLite file, its schema brought up to date (sqlite-migrate.ts), for
 * every store of the file (content, API keys, clicks, transactions, leases): WAL so readers never
 * wait for the writer; synchronous=FULL so a write that returned survives a power cut; a busy
 * timeout because the CLI and the server (or several servers) write to the same file from
 * different processes (the server's own thread waits without sleeping: write-without-waiting.ts).
 */
export function openSqlite(path: string): Database.Database {
  if (path !== ':memory:' && path !== '') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  // Before anything is written (it only applies to a new file): rows of ~1 KB pack better and a
  // bulk write writes fewer pages than with the 4 KB default.
  db.pragma('page_size = 8192');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  try {
    migrateSqlite(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}
