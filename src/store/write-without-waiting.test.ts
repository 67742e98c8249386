import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { openSqlite, SQLITE_BUSY_TIMEOUT_MS } from './open-sqlite.ts';
import { writeWithoutWaiting } from './write-without-waiting.ts';

describe('writeWithoutWaiting', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'staygate-write-'));
  const file = path.join(dir, 'staygate.sqlite');
  const db = openSqlite(file);
  db.exec('CREATE TABLE t (n INTEGER)');
  const other = new Database(file);
  after(() => {
    other.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const insert = db.prepare('INSERT INTO t (n) VALUES (?)');
  const count = () => (db.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n;

  it('writes at once when the lock is free, and leaves the busy timeout as it was', async () => {
    await writeWithoutWaiting(db, () => insert.run(1));
    assert.equal(count(), 1);
    assert.equal(db.pragma('busy_timeout', { simple: true }), SQLITE_BUSY_TIMEOUT_MS);
  });

  it('gives the SQLITE_BUSY error back once its budget has passed, having written nothing', async () => {
    other.exec('BEGIN IMMEDIATE');
    try {
      await assert.rejects(
        writeWithoutWaiting(db, () => insert.run(2), 30),
        (error: { code?: string }) => error.code === 'SQLITE_BUSY',
      );
    } finally {
      other.exec('COMMIT');
    }
    assert.equal(count(), 1);
    assert.equal(db.pragma('busy_timeout', { simple: true }), SQLITE_BUSY_TIMEOUT_MS);
  });

  it('gives any other error back at once, untried again', async () => {
    let tries = 0;
    await assert.rejects(
      writeWithoutWaiting(db, () => {
        tries++;
        return db.prepare('INSERT INTO nowhere (n) VALUES (1)').run();
      }),
      /no such table/,
    );
    assert.equal(tries, 1);
  });
});
