// One schema home per table on each engine (docs/decisions.md: "one migrations folder per engine"):
// the two folders have the same numbered steps, the released PostgreSQL steps keep their names (a
// database migrated before records them), a fresh SQLite file and a fresh PostgreSQL schema have
// the same tables and columns but for the differences each engine's design makes, and the SQLite
// runner applies each step once, whole or not at all.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { defaults } from '../defaults.ts';
import { createTestSchema, skipWithoutPostgres } from '../test-support/pg.ts';
import { syntheticStays } from '../test-support/synthetic-stays.ts';
import { MIGRATIONS, migrationFiles } from './migration-files.ts';
import { openSqlite } from './open-sqlite.ts';
import { migratePg } from './pg-migrate.ts';
import { openPgPool } from './pg-pool.ts';
import { migrateSqlite } from './sqlite-migrate.ts';
import { createSqliteStore } from './sqlite-store.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'staygate-migrations-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const noPostgres = await skipWithoutPostgres();
const freshFile = () => path.join(dir, `db-${files++}.sqlite`);

describe('the migrations of both engines', () => {
  it('are the same numbered steps, by the same names', () => {
    assert.deepEqual(migrationFiles(MIGRATIONS.sqlite), migrationFiles(MIGRATIONS.postgres));
  });

  it('keep the names of the released PostgreSQL steps, which migrated databases record', () => {
    assert.deepEqual(migrationFiles(MIGRATIONS.postgres).slice(0, 5), [
      '0001-keys-clicks-transactions-leases.sql',
      '0002-content.sql',
      '0003-content-digest.sql',
      '0004-map-tokens.sql',
      '0005-transaction-imports.sql',
    ]);
  });

  it('give a fresh SQLite file and a fresh PostgreSQL schema the same tables and columns', { skip: noPostgres }, async () => {
    const db = openSqlite(':memory:');
    const sqlite = new Map(
      db
        .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .all()
        .map(({ name }) => [
          name,
          db
            .prepare<[string], { name: string }>('SELECT name FROM pragma_table_info(?)')
            .all(name)
            .map((c) => c.name),
        ]),
    );
    db.close();
    const schema = await createTestSchema();
    const pool = openPgPool(schema.url, { max: 1 });
    try {
      await migratePg(pool);
      const { rows } = await pool.query<{ table_name: string; column_name: string }>(
        `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
      );
      const postgres = new Map<string, string[]>();
      for (const row of rows) postgres.set(row.table_name, [...(postgres.get(row.table_name) ?? []), row.column_name]);
      // Each engine's own design, on purpose: SQLite's served version is a meta row, PostgreSQL's a
      // row of content_current; a click's insertion order is SQLite's rowid, PostgreSQL's seq; the
      // times of content are SQLite's ms and flag, PostgreSQL's timestamps.
      const own = {
        sqlite: { tables: ['meta'], columns: { content_versions: ['published'], content_readers: ['heartbeat_ms'] } },
        postgres: {
          tables: ['content_current'],
          columns: { clicks: ['seq'], content_versions: ['published_at'], content_readers: ['heartbeat_at'] },
        },
      };
      const common = (tables: Map<string, string[]>, engine: { tables: string[]; columns: Record<string, string[]> }) =>
        Object.fromEntries(
          [...tables]
            .filter(([table]) => !engine.tables.includes(table))
            .map(([table, columns]) => [table, columns.filter((c) => !(engine.columns[table] ?? []).includes(c)).sort()]),
        );
      assert.deepEqual(common(sqlite, own.sqlite), common(postgres, own.postgres));
      assert.ok(sqlite.size >= 15, `every table is compared (${[...sqlite.keys()].join(', ')})`);
    } finally {
      await pool.end();
      await schema.drop();
    }
  });
});

describe('migrateSqlite', () => {
  const steps = mkdtempSync(path.join(dir, 'steps-'));
  const url = pathToFileURL(steps + path.sep);
  writeFileSync(path.join(steps, '0001-first.sql'), 'CREATE TABLE a (n INTEGER); INSERT INTO a VALUES (1);');
  writeFileSync(path.join(steps, '0002-second.sql'), 'INSERT INTO a VALUES (2);');
  writeFileSync(path.join(steps, 'notes.md'), 'not a migration');

  it('applies the steps in name order, each once, also from two connections on one file', () => {
    const file = freshFile();
    const first = new Database(file);
    const second = new Database(file);
    try {
      assert.deepEqual(migrateSqlite(first, url), { applied: ['0001-first.sql', '0002-second.sql'], total: 2 });
      assert.deepEqual(migrateSqlite(second, url), { applied: [], total: 2 });
      assert.deepEqual(second.prepare('SELECT n FROM a ORDER BY n').all(), [{ n: 1 }, { n: 2 }]);
    } finally {
      first.close();
      second.close();
    }
  });

  it('rolls a failing step back whole, and applies it once it is fixed', () => {
    const db = new Database(freshFile());
    try {
      migrateSqlite(db, url);
      writeFileSync(path.join(steps, '0003-broken.sql'), 'INSERT INTO a VALUES (3); SELECT no_such_column FROM a;');
      assert.throws(() => migrateSqlite(db, url), /migration 0003-broken\.sql failed/);
      assert.deepEqual(db.prepare('SELECT n FROM a ORDER BY n').all(), [{ n: 1 }, { n: 2 }], 'half of it stayed');
      writeFileSync(path.join(steps, '0003-broken.sql'), 'INSERT INTO a VALUES (3);');
      assert.deepEqual(migrateSqlite(db, url).applied, ['0003-broken.sql']);
    } finally {
      db.close();
      rmSync(path.join(steps, '0003-broken.sql'));
    }
  });

  it('records without running a step whose guard finds it in place', () => {
    const db = new Database(freshFile());
    try {
      migrateSqlite(db, url);
      writeFileSync(
        path.join(steps, '0003-guarded.sql'),
        "-- unless: SELECT 1 FROM pragma_table_info('a') WHERE name = 'n'\nALTER TABLE a ADD COLUMN n INTEGER;",
      );
      assert.deepEqual(migrateSqlite(db, url).applied, ['0003-guarded.sql']);
    } finally {
      db.close();
      rmSync(path.join(steps, '0003-guarded.sql'));
    }
  });
});

describe('a SQLite file of an older content layout', () => {
  it('of before content versions (schema 4): its inventory is dropped, to be ingested again', async () => {
    const file = freshFile();
    const old = new Database(file);
    old.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
      CREATE TABLE stays (idx INTEGER PRIMARY KEY, doc TEXT); CREATE TABLE index_chunks (first_idx INTEGER PRIMARY KEY);
      CREATE TABLE listing_ids (supplier_stay_id TEXT); INSERT INTO meta VALUES ('inventory_version', 'v-old'), ('other', 'kept');`);
    old.pragma('user_version = 4');
    old.close();
    const store = createSqliteStore({ path: file, settings: defaults });
    try {
      assert.equal(await store.currentContent(), null);
      await store.publishContent(syntheticStays(3), 'v-new', {});
      assert.equal((await store.currentContent())?.label, 'v-new');
    } finally {
      await store.close();
    }
    const db = new Database(file, { readonly: true });
    try {
      assert.deepEqual(db.prepare("SELECT name FROM sqlite_master WHERE name IN ('stays', 'index_chunks', 'listing_ids')").all(), []);
      assert.deepEqual(db.prepare("SELECT value FROM meta WHERE key = 'other'").all(), [{ value: 'kept' }]);
    } finally {
      db.close();
    }
  });

  it('of before the digest: its versions are kept and gain the column', async () => {
    const file = freshFile();
    const old = new Database(file);
    old.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
      CREATE TABLE content_versions (no INTEGER PRIMARY KEY, label TEXT NOT NULL, published INTEGER NOT NULL DEFAULT 0, info TEXT NOT NULL DEFAULT '{}');
      INSERT INTO content_versions (no, label, published) VALUES (1, 'v-old', 1);
      INSERT INTO meta VALUES ('inventory_no', '1'), ('inventory_version', 'v-old');`);
    old.pragma('user_version = 5');
    old.close();
    const store = createSqliteStore({ path: file, settings: defaults });
    try {
      assert.deepEqual(await store.currentContent(), { no: 1, label: 'v-old', info: {} });
      assert.equal(await store.publishContent(syntheticStays(2), 'v-next', {}), 2, 'a version without digest is never the same');
      assert.equal(await store.publishContent(syntheticStays(2), 'v-same', {}), 2, 'the new one has its digest');
    } finally {
      await store.close();
    }
  });
});
