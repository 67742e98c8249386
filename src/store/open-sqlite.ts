import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

/**
 * A connection to the gateway's SQLite file for the stores that share it with the inventory
 * (API keys, clicks): WAL so readers never wait for the writer; synchronous=FULL so a write that
 * returned survives a power cut; a busy timeout because the CLI and the server (or several
 * servers) write to the same file from different processes.
 */
export function openSqlite(path: string): Database.Database {
  if (path !== ':memory:' && path !== '') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  // Only applies to a new file; the same page size as the inventory store (store/sqlite-store.ts).
  db.pragma('page_size = 8192');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  return db;
}
