import type Database from 'better-sqlite3';
import { openSqlite } from '../store/open-sqlite.ts';
import type { SupplierId } from '../types.ts';
import type { Click, ClickStore, DeviceClass, TallyDimension } from './click-store.ts';

export interface SqliteClickStoreOptions {
  /** The gateway's database file (`<data dir>/staygate.sqlite`), or ':memory:'. */
  path: string;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS clicks (
    id TEXT PRIMARY KEY,
    at TEXT NOT NULL,
    aid TEXT,
    campaign TEXT,
    stay_id TEXT NOT NULL,
    supplier TEXT NOT NULL,
    supplier_stay_id TEXT NOT NULL,
    device TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS clicks_at ON clicks (at);
  -- A partner's clicks of a period (count): its aids' ranges of time.
  CREATE INDEX IF NOT EXISTS clicks_aid_at ON clicks (aid, at);
`;

/** The SQL of each tally dimension; `at` is fixed-width ISO 8601, so its first 7 characters are the month. */
const KEY: Record<TallyDimension, string> = { month: 'substr(at, 1, 7)', campaign: 'campaign', device: 'device', supplier: 'supplier' };

interface Row {
  id: string;
  at: string;
  aid: string | null;
  campaign: string | null;
  stay_id: string;
  supplier: SupplierId;
  supplier_stay_id: string;
  device: DeviceClass;
}

function toClick(row: Row): Click {
  return {
    id: row.id,
    at: row.at,
    aid: row.aid,
    campaign: row.campaign,
    stayId: row.stay_id,
    supplier: row.supplier,
    supplierStayId: row.supplier_stay_id,
    device: row.device,
  };
}

/** Clicks in the gateway's SQLite file; every click is on disk before its redirect is answered. */
export function createSqliteClickStore(options: SqliteClickStoreOptions): ClickStore {
  const db = openSqlite(options.path);
  db.exec(SCHEMA);
  const insert = db.prepare(`INSERT INTO clicks (id, at, aid, campaign, stay_id, supplier, supplier_stay_id, device)
    VALUES (@id, @at, @aid, @campaign, @stayId, @supplier, @supplierStayId, @device)`);
  const selectOne = db.prepare<[string], Row>('SELECT * FROM clicks WHERE id = ?');
  const selectRecent = db.prepare<[number], Row>('SELECT * FROM clicks ORDER BY at DESC, rowid DESC LIMIT ?');
  const counts = Object.fromEntries(
    Object.entries(KEY).map(([by, key]) => [
      by,
      db.prepare<[string, string, string], { key: string | null; clicks: number }>(
        `SELECT ${key} AS key, count(*) AS clicks FROM clicks
      WHERE aid IN (SELECT value FROM json_each(?)) AND at >= ? AND at < ? GROUP BY 1`,
      ),
    ]),
  ) as Record<TallyDimension, Database.Statement<[string, string, string], { key: string | null; clicks: number }>>;
  let closed = false;
  return {
    async record(click) {
      insert.run(click);
    },
    async get(ids) {
      const clicks: Click[] = [];
      for (const id of ids) {
        const row = selectOne.get(id);
        if (row !== undefined) clicks.push(toClick(row));
      }
      return clicks;
    },
    async recent(limit) {
      return selectRecent.all(limit).map(toClick);
    },
    async count({ aids, from, to, by }) {
      if (aids.length === 0) return [];
      return counts[by].all(JSON.stringify(aids), from, to);
    },
    async close() {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
}
