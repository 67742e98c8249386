import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { createTestSchema, skipWithoutPostgres, type TestSchema } from '../test-support/pg.ts';
import { migratePg } from './pg-migrate.ts';
import { openPgPool, type PgPool } from './pg-pool.ts';

describe('migratePg', { skip: await skipWithoutPostgres() }, () => {
  let schema: TestSchema;
  let pool: PgPool;
  let dir: string;
  before(async () => {
    schema = await createTestSchema();
    pool = openPgPool(schema.url, { max: 4 });
    dir = await mkdtemp(path.join(tmpdir(), 'staygate-migrations-'));
    await writeFile(path.join(dir, '0001-first.sql'), 'CREATE TABLE a (n int); INSERT INTO a VALUES (1);');
    await writeFile(path.join(dir, '0002-second.sql'), 'INSERT INTO a VALUES (2);');
    await writeFile(path.join(dir, 'notes.md'), 'not a migration');
  });
  after(async () => {
    await pool.end();
    await schema.drop();
    await rm(dir, { recursive: true, force: true });
  });
  const url = () => pathToFileURL(dir + path.sep);

  it('applies the migrations in name order, once, even when several processes migrate at once', async () => {
    const results = await Promise.all([migratePg(pool, url()), migratePg(pool, url()), migratePg(pool, url())]);
    assert.deepEqual(
      results.flatMap((result) => result.applied),
      ['0001-first.sql', '0002-second.sql'],
    );
    assert.deepEqual(
      results.map((result) => result.total),
      [2, 2, 2],
    );
    assert.deepEqual((await pool.query('SELECT n FROM a ORDER BY n')).rows, [{ n: 1 }, { n: 2 }]);
  });

  it('rolls a failing migration back whole and applies it when it is fixed', async () => {
    await writeFile(path.join(dir, '0003-broken.sql'), 'INSERT INTO a VALUES (3); SELECT no_such_column FROM a;');
    await assert.rejects(migratePg(pool, url()), /0003-broken\.sql/);
    assert.deepEqual((await pool.query('SELECT n FROM a ORDER BY n')).rows, [{ n: 1 }, { n: 2 }], 'half of it stayed');
    await writeFile(path.join(dir, '0003-broken.sql'), 'INSERT INTO a VALUES (3);');
    assert.deepEqual((await migratePg(pool, url())).applied, ['0003-broken.sql']);
  });

  it('keeps schemas apart: the table exists only in the schema that migrated', async () => {
    const other = await createTestSchema();
    const otherPool = openPgPool(other.url, { max: 1 });
    try {
      await assert.rejects(otherPool.query('SELECT n FROM a'), /does not exist/);
    } finally {
      await otherPool.end();
      await other.drop();
    }
  });
});
