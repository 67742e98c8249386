import { setTimeout as sleep } from 'node:timers/promises';
import type Database from 'better-sqlite3';
import { SQLITE_BUSY_TIMEOUT_MS } from './open-sqlite.ts';

/**
 * Runs a write of the server's own thread without holding its event loop while another connection
 * has the file's write lock (the content worker writing a version, the CLI, another gateway).
 * SQLite's busy handler sleeps in the calling thread until the lock frees (1, 2, 5 ... 100 ms
 * naps): on the event loop that was every request stalled behind a lease renewal or a click, up
 * to a third of a second during a first start (docs/decisions.md 201). Here the write is tried
 * with no busy wait and, refused as busy, tried again after a timer, the loop serving meanwhile,
 * until the connection's busy timeout has passed; then the SQLITE_BUSY error is the caller's, as
 * it was. `write` is one statement or one transaction: a refused one has changed nothing.
 */
export async function writeWithoutWaiting<T>(db: Database.Database, write: () => T, budgetMs = SQLITE_BUSY_TIMEOUT_MS): Promise<T> {
  const deadline = performance.now() + budgetMs;
  for (let pauseMs = 1; ; pauseMs = Math.min(pauseMs * 2, 25)) {
    db.pragma('busy_timeout = 0');
    try {
      return write();
    } catch (error) {
      if (!isBusy(error) || performance.now() >= deadline) throw error;
    } finally {
      db.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    }
    await sleep(pauseMs);
  }
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}
