// A data folder written before the migrations (the stores made their tables with inline statements,
// docs/decisions.md "one schema home per table") opens with today's stores: every row is still
// there and readable through them, every step is recorded, and the schema is the one a new folder
// gets from migrations/sqlite/.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { defaults } from '../defaults.ts';
import { CSV_FORMAT, csvLine } from '../reporting/transaction-csv.ts';
import { toRecord, versionKey, type TransactionRow } from '../reporting/transaction.ts';
import { contentDigest } from '../store/content-digest.ts';
import { encodeIndexChunk, indexRowsOf } from '../store/index-chunk.ts';
import { MIGRATIONS, migrationFiles } from '../store/migration-files.ts';
import { syntheticStays } from '../test-support/synthetic-stays.ts';
import { openStores, sqliteLocation } from './open-stores.ts';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const dataDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'staygate-upgrade-'));
  dirs.push(dir);
  return dir;
};

// The tables as the stores made them before the migrations, copied from them (store/sqlite-store.ts
// schema 5 with the digest, auth/sqlite-key-store.ts, clicks/sqlite-click-store.ts,
// reporting/sqlite-transaction-store.ts, store/sqlite-lease-store.ts). Never edit: it is the past.
const BEFORE = `
  CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS content_versions (
    no INTEGER PRIMARY KEY, label TEXT NOT NULL, published INTEGER NOT NULL DEFAULT 0, info TEXT NOT NULL DEFAULT '{}', digest TEXT
  );
  CREATE TABLE IF NOT EXISTS stay_ids (
    supplier INTEGER NOT NULL, supplier_stay_id TEXT NOT NULL, stay_id TEXT NOT NULL, PRIMARY KEY (supplier, supplier_stay_id)
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS content_readers (
    reader TEXT NOT NULL, version_no INTEGER NOT NULL, heartbeat_ms INTEGER NOT NULL, PRIMARY KEY (reader, version_no)
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS stays_1 (idx INTEGER PRIMARY KEY, id TEXT NOT NULL, doc TEXT NOT NULL);
  CREATE UNIQUE INDEX IF NOT EXISTS stays_1_id ON stays_1 (id);
  CREATE TABLE IF NOT EXISTS index_chunks_1 (first_idx INTEGER PRIMARY KEY, row_count INTEGER NOT NULL, numbers BLOB NOT NULL, h3 TEXT NOT NULL, names TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS listing_ids_1 (supplier_stay_id TEXT NOT NULL, supplier INTEGER NOT NULL, idx INTEGER NOT NULL);
  CREATE INDEX IF NOT EXISTS listing_ids_1_key ON listing_ids_1 (supplier_stay_id, supplier, idx);

  CREATE TABLE IF NOT EXISTS api_keys (
    id TEXT PRIMARY KEY, hash BLOB NOT NULL, partner_id TEXT NOT NULL, aid TEXT NOT NULL, third_parties TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('active', 'pending', 'revoked')), limit_per_minute INTEGER,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS api_keys_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL);
  INSERT OR IGNORE INTO api_keys_version (id, version) VALUES (1, 0);
  CREATE TRIGGER IF NOT EXISTS api_keys_revoked_is_final BEFORE UPDATE OF status ON api_keys
    WHEN OLD.status = 'revoked' AND NEW.status <> 'revoked'
    BEGIN SELECT RAISE(ABORT, 'a revoked key stays revoked'); END;
  CREATE TABLE IF NOT EXISTS map_tokens (
    token TEXT PRIMARY KEY, partner_id TEXT NOT NULL, aid TEXT NOT NULL, key_id TEXT NOT NULL, origins TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('active', 'revoked')), limit_per_minute INTEGER, created_at TEXT NOT NULL, updated_at TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE TRIGGER IF NOT EXISTS map_tokens_revoked_is_final BEFORE UPDATE OF status ON map_tokens
    WHEN OLD.status = 'revoked' AND NEW.status <> 'revoked'
    BEGIN SELECT RAISE(ABORT, 'a revoked map token stays revoked'); END;
  CREATE TABLE IF NOT EXISTS map_token_searches (
    token TEXT NOT NULL, month TEXT NOT NULL, searches INTEGER NOT NULL, PRIMARY KEY (token, month)
  ) WITHOUT ROWID;

  CREATE TABLE IF NOT EXISTS clicks (
    id TEXT PRIMARY KEY, at TEXT NOT NULL, aid TEXT, campaign TEXT, stay_id TEXT NOT NULL, supplier TEXT NOT NULL,
    supplier_stay_id TEXT NOT NULL, device TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS clicks_at ON clicks (at);
  CREATE INDEX IF NOT EXISTS clicks_aid_at ON clicks (aid, at);

  CREATE TABLE IF NOT EXISTS transactions (
    supplier TEXT NOT NULL, booking_id TEXT NOT NULL, click_id TEXT, aid TEXT, partner_id TEXT, campaign TEXT, device TEXT NOT NULL,
    booked_at TEXT NOT NULL, start_date TEXT NOT NULL, end_date TEXT NOT NULL, status TEXT NOT NULL, commission_cents INTEGER NOT NULL,
    quantity INTEGER NOT NULL, information TEXT NOT NULL, destination TEXT NOT NULL, user_country TEXT NOT NULL,
    last_updated TEXT NOT NULL, version_key TEXT NOT NULL, csv_line TEXT NOT NULL, UNIQUE (supplier, booking_id)
  );
  CREATE INDEX IF NOT EXISTS transactions_last_updated ON transactions (partner_id, last_updated, supplier, booking_id);
  CREATE INDEX IF NOT EXISTS transactions_booked_at ON transactions (partner_id, booked_at, supplier, booking_id);
  CREATE INDEX IF NOT EXISTS transactions_start_date ON transactions (partner_id, start_date, supplier, booking_id);
  CREATE INDEX IF NOT EXISTS transactions_end_date ON transactions (partner_id, end_date, supplier, booking_id);
  CREATE INDEX IF NOT EXISTS transactions_unowned ON transactions (aid) WHERE partner_id IS NULL;
  CREATE TABLE IF NOT EXISTS report_sync (supplier TEXT PRIMARY KEY, synced_through TEXT NOT NULL, synced_at TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS transaction_imports (
    supplier TEXT PRIMARY KEY, file TEXT NOT NULL, imported_at TEXT NOT NULL, rows INTEGER NOT NULL, inserted INTEGER NOT NULL,
    updated INTEGER NOT NULL, unchanged INTEGER NOT NULL, unattributed INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS transactions_meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
  INSERT OR IGNORE INTO transactions_meta (name, value) VALUES ('version', 0);

  CREATE TABLE IF NOT EXISTS leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at INTEGER NOT NULL) WITHOUT ROWID;
`;

const STAY = syntheticStays(1)[0];
const HASH = Buffer.alloc(32, 7);
const TRANSACTION: TransactionRow = {
  supplier: 'supplier_b',
  bookingId: 'B-1',
  clickId: 'click-1',
  aid: 'aid-1',
  partnerId: 'partner-1',
  campaign: 'spring-sale',
  device: 'mobile',
  bookedAt: '2026-05-01T10:00:00.000Z',
  startDate: '2026-06-01',
  endDate: '2026-06-03',
  status: 'Approved',
  commissionCents: 1234,
  quantity: 2,
  information: 'Hotel, 2 nights, 1 room',
  destination: 'Paris, FR',
  userCountry: 'DE',
  lastUpdated: '2026-05-02T10:00:00.000Z',
};

/** A data folder as the stores left it before the migrations: the tables above, one row of every record. */
function folderOfBefore(): string {
  const dir = dataDir();
  const db = new Database(sqliteLocation(dir).path);
  db.pragma('journal_mode = WAL');
  db.exec(BEFORE);
  db.pragma('user_version = 5');
  const { rank: _rank, ...stay } = STAY;
  const chunk = encodeIndexChunk([STAY]);
  db.prepare('INSERT INTO content_versions (no, label, published, info, digest) VALUES (1, ?, 1, ?, ?)').run(
    'v-before',
    '{"feeds":1}',
    contentDigest([STAY]),
  );
  db.prepare("INSERT INTO meta (key, value) VALUES ('inventory_no', '1'), ('inventory_version', 'v-before')").run();
  db.prepare('INSERT INTO stays_1 (idx, id, doc) VALUES (0, ?, ?)').run(STAY.id, JSON.stringify(stay));
  db.prepare('INSERT INTO index_chunks_1 VALUES (?, ?, ?, ?, ?)').run(chunk.firstIdx, chunk.rowCount, chunk.numbers, chunk.h3, chunk.names);
  const listing = STAY.listings[0];
  db.prepare('INSERT INTO listing_ids_1 VALUES (?, ?, 0)').run(listing.supplierStayId, 0);
  db.prepare('INSERT INTO stay_ids VALUES (0, ?, ?)').run(listing.supplierStayId, STAY.id);
  db.prepare(
    `INSERT INTO api_keys VALUES ('key-1', ?, 'partner-1', 'aid-1', '["blog"]', 'active', 30, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
  ).run(HASH);
  db.prepare('UPDATE api_keys_version SET version = 3').run();
  db.prepare(
    `INSERT INTO map_tokens VALUES ('tok-1', 'partner-1', 'aid-1', 'key-1', '["https://blog.example"]', 'active', NULL, '2026-01-02T00:00:00.000Z', '2026-01-02T00:00:00.000Z')`,
  ).run();
  db.prepare(`INSERT INTO map_token_searches VALUES ('tok-1', '2026-04', 17)`).run();
  db.prepare(
    `INSERT INTO clicks VALUES ('click-1', '2026-04-30T09:00:00.000Z', 'aid-1', 'spring-sale', ?, 'supplier_b', 'H-9', 'mobile')`,
  ).run(STAY.id);
  const t = TRANSACTION;
  db.prepare('INSERT INTO transactions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').run(
    t.supplier,
    t.bookingId,
    t.clickId,
    t.aid,
    t.partnerId,
    t.campaign,
    t.device,
    t.bookedAt,
    t.startDate,
    t.endDate,
    t.status,
    t.commissionCents,
    t.quantity,
    t.information,
    t.destination,
    t.userCountry,
    t.lastUpdated,
    versionKey(t),
    csvLine(toRecord(t)),
  );
  db.prepare("INSERT INTO transactions_meta VALUES ('csv_format', ?)").run(CSV_FORMAT);
  db.prepare("UPDATE transactions_meta SET value = 9 WHERE name = 'version'").run();
  db.prepare(`INSERT INTO report_sync VALUES ('supplier_b', '2026-05-03T00:00:00.000Z', '2026-05-03T00:01:00.000Z')`).run();
  db.prepare(`INSERT INTO transaction_imports VALUES ('supplier_c', 'c.csv', '2026-05-04T00:00:00.000Z', 10, 8, 1, 1, 2)`).run();
  db.prepare(`INSERT INTO leases VALUES ('report-sync', 'host:1:abcd', 32503680000000)`).run();
  db.close();
  return dir;
}

/** Every table, index and trigger of a file with its columns (name, type, not null, default, key), in name order. */
function schemaOf(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare<[], { type: string; name: string; tbl_name: string }>(
        "SELECT type, name, tbl_name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .all()
      .map((entry) => ({
        ...entry,
        columns:
          entry.type === 'table'
            ? db.prepare(`SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?)`).all(entry.name)
            : [],
        indexed: entry.type === 'index' ? db.prepare('SELECT name FROM pragma_index_info(?)').all(entry.name) : [],
      }));
  } finally {
    db.close();
  }
}

const migrationsOf = (file: string): string[] => {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare<[], { name: string }>('SELECT name FROM schema_migrations ORDER BY name')
      .all()
      .map((row) => row.name);
  } finally {
    db.close();
  }
};

describe('a data folder of before the migrations', () => {
  it('upgrades in place: every row is still there and readable through the stores, every step recorded', async () => {
    const dir = folderOfBefore();
    const stores = await openStores({ dataDir: dir, databaseUrl: null, settings: defaults });
    try {
      assert.deepEqual(await stores.store.currentContent(), { no: 1, label: 'v-before', info: { feeds: 1 } });
      const { rank: _rank, ...stay } = STAY;
      assert.deepEqual(await stores.store.getStays([0]), [stay]);
      assert.deepEqual(await stores.store.resolveHotelIds([{ raw: STAY.id, supplier: null, id: STAY.id }]), [[0]]);
      const rows = await indexRowsOf(stores.store.indexChunks());
      assert.deepEqual(
        rows.map((row) => [row.idx, row.rank]),
        [[0, STAY.rank]],
      );
      const ids = await stores.store.stayIds();
      assert.equal(ids.get(`supplier_a:${STAY.listings[0].supplierStayId}`), STAY.id);
      assert.equal(ids.size, 1);
      assert.equal(
        await stores.store.publishContent([STAY], 'v-again', {}),
        1,
        'the digest of before is kept: the same stays publish nothing',
      );

      const key = await stores.keys.get('key-1');
      assert.deepEqual(key, {
        id: 'key-1',
        hash: HASH,
        partnerId: 'partner-1',
        aid: 'aid-1',
        thirdParties: ['blog'],
        status: 'active',
        limitPerMinute: 30,
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
      });
      assert.equal(await stores.keys.version(), 3);
      assert.deepEqual(
        (await stores.keys.mapTokens()).map((t) => [t.token, t.origins]),
        [['tok-1', ['https://blog.example']]],
      );
      assert.deepEqual(await stores.keys.mapSearches('partner-1'), [{ token: 'tok-1', month: '2026-04', searches: 17 }]);
      assert.equal((await stores.keys.setStatus('key-1', 'revoked', '2026-02-01T00:00:00.000Z'))?.status, 'revoked', 'it takes writes');

      assert.deepEqual(await stores.clicks.get(['click-1']), [
        {
          id: 'click-1',
          at: '2026-04-30T09:00:00.000Z',
          aid: 'aid-1',
          campaign: 'spring-sale',
          stayId: STAY.id,
          supplier: 'supplier_b',
          supplierStayId: 'H-9',
          device: 'mobile',
        },
      ]);

      assert.deepEqual(await stores.transactions.get('supplier_b', 'B-1'), TRANSACTION);
      const page = await stores.transactions.query({
        partnerId: 'partner-1',
        dateFilter: 'bookedDate',
        startDate: '2026-05-01',
        endDate: '2026-05-01',
        limit: 10,
        page: 0,
      });
      assert.deepEqual(page, { records: [toRecord(TRANSACTION)], hasMore: false });
      const stats = await stores.transactions.stats();
      assert.equal(stats.total, 1);
      assert.deepEqual(
        [stats.bySupplier.supplier_b.syncedThrough, stats.bySupplier.supplier_b.syncedAt],
        ['2026-05-03T00:00:00.000Z', '2026-05-03T00:01:00.000Z'],
      );
      assert.deepEqual(stats.bySupplier.supplier_c.lastImport, {
        file: 'c.csv',
        importedAt: '2026-05-04T00:00:00.000Z',
        rows: 10,
        inserted: 8,
        updated: 1,
        unchanged: 1,
        unattributed: 2,
      });

      assert.deepEqual(await stores.leases.holder('report-sync'), { holder: 'host:1:abcd', expiresAt: 32503680000000 });
    } finally {
      await stores.close();
    }
    assert.deepEqual(migrationsOf(sqliteLocation(dir).path), migrationFiles(MIGRATIONS.sqlite));
  });

  it('ends with the schema a new data folder gets from the migrations', async () => {
    const upgraded = folderOfBefore();
    const fresh = dataDir();
    for (const dir of [upgraded, fresh]) await (await openStores({ dataDir: dir, databaseUrl: null, settings: defaults })).close();
    // The version's own tables are the upgraded folder's content; the fresh one has none yet.
    const shared = (dir: string) => schemaOf(sqliteLocation(dir).path).filter((entry) => !/_1(_|$)/.test(entry.tbl_name));
    assert.deepEqual(shared(upgraded), shared(fresh));
    assert.ok(shared(fresh).length > 20, 'every table, index and trigger is compared');
  });
});
