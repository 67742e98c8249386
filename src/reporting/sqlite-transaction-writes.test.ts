// The writes that read before they write take the file's write lock first (BEGIN IMMEDIATE). A
// deferred transaction reads a snapshot, and when another connection (a gateway's heartbeat, the
// CLI's sync) commits before its first write, SQLite refuses the upgrade at once with
// SQLITE_BUSY_SNAPSHOT, whatever the busy timeout: a sync then fails for nothing (a CI run met it).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { openSqlite } from '../store/open-sqlite.ts';
import { row } from '../test-support/contracts/transaction-store-contract.ts';
import { createSqliteTransactionStore } from './sqlite-transaction-store.ts';
import { sqliteTransactionWrites } from './sqlite-transaction-writes.ts';
import { defaults } from '../defaults.ts';

const dir = mkdtempSync(join(tmpdir(), 'staygate-transaction-writes-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The writes on a connection whose every read is followed, before the statement after it, by a
 * commit of another connection when that connection can write (its busy timeout is 0): what a busy
 * file does to a transaction between its first read and its first write.
 */
function writesMetByAnotherWriter(file: string): { writes: ReturnType<typeof sqliteTransactionWrites>; otherCommits: () => number } {
  const db = openSqlite(file);
  const other = new Database(file);
  other.pragma('busy_timeout = 0');
  // A change each time: a write that leaves every page as it was does not move the file's snapshot.
  const touch = other.prepare(
    "INSERT INTO transactions_meta (name, value) VALUES ('touched', 1) ON CONFLICT (name) DO UPDATE SET value = value + 1",
  );
  let commits = 0;
  const interleave = (): void => {
    try {
      touch.run();
      commits++;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error; // this connection holds the write lock
    }
  };
  const wrapped = new Proxy(db, {
    get(target, name) {
      if (name !== 'prepare') {
        const value = Reflect.get(target, name, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return (sql: string) => {
        const statement = target.prepare(sql);
        if (!/^\s*SELECT/i.test(sql)) return statement;
        return new Proxy(statement, {
          get(s, method) {
            const value = Reflect.get(s, method, s) as unknown;
            if (typeof value !== 'function') return value;
            if (method !== 'get' && method !== 'all') return value.bind(s);
            return (...args: unknown[]) => {
              const result = (value as (...a: unknown[]) => unknown).apply(s, args);
              interleave();
              return result;
            };
          },
        });
      };
    },
  });
  return { writes: sqliteTransactionWrites(wrapped), otherCommits: () => commits };
}

test('a report applies though another connection writes between its first read and first write', async () => {
  const file = join(dir, 'apply.sqlite');
  await createSqliteTransactionStore({ path: file, settings: defaults }).close();
  const { writes, otherCommits } = writesMetByAnotherWriter(file);
  const before = otherCommits();
  const result = writes.apply('supplier_a', [row('W1', { partnerId: null }), row('W2', { partnerId: null })], () => undefined);
  assert.equal(result.inserted, 2);
  assert.equal(otherCommits(), before, 'nobody commits inside the transaction: it holds the write lock from its start');
  // Transactions of an aid given to its partner: a read of the unowned aids, then the updates.
  assert.equal(writes.assignPartners(new Map([['aff-1', 'p-1']])), 2);
  assert.equal(otherCommits(), before);
});
