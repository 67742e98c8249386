import type Database from 'better-sqlite3';
import { openSqlite } from '../store/open-sqlite.ts';
import { writeWithoutWaiting } from '../store/write-without-waiting.ts';
import { CLICK_COLUMNS, CLICK_TALLY_KEY, clickFromRow, clickToRow, type ClickRow } from './click-row.ts';
import type { Click, ClickStore, TallyDimension } from './click-store.ts';

export interface SqliteClickStoreOptions {
  /** The gateway's database file (`<data dir>/staygate.sqlite`), or ':memory:'. */
  path: string;
}

type Count = { key: string | null; clicks: number };

/** Clicks in the gateway's SQLite file (migrations/sqlite/0001); every click is on disk before its redirect is answered. */
export function createSqliteClickStore(options: SqliteClickStoreOptions): ClickStore {
  const db = openSqlite(options.path);
  const insert = db.prepare(`INSERT INTO clicks (${CLICK_COLUMNS.join(', ')}) VALUES (${CLICK_COLUMNS.map((c) => `@${c}`).join(', ')})`);
  const selectOne = db.prepare<[string], ClickRow>(`SELECT ${CLICK_COLUMNS.join(', ')} FROM clicks WHERE id = ?`);
  // rowid: tells apart clicks of the same instant.
  const selectRecent = db.prepare<[number], ClickRow>(
    `SELECT ${CLICK_COLUMNS.join(', ')} FROM clicks ORDER BY at DESC, rowid DESC LIMIT ?`,
  );
  const counts = Object.fromEntries(
    Object.entries(CLICK_TALLY_KEY).map(([by, key]) => [
      by,
      db.prepare<[string, string, string], Count>(
        `SELECT ${key} AS key, count(*) AS clicks FROM clicks
      WHERE aid IN (SELECT value FROM json_each(?)) AND at >= ? AND at < ? GROUP BY 1`,
      ),
    ]),
  ) as Record<TallyDimension, Database.Statement<[string, string, string], Count>>;
  let closed = false;
  return {
    async record(click) {
      await writeWithoutWaiting(db, () => insert.run(clickToRow(click)));
    },
    async get(ids) {
      const clicks: Click[] = [];
      for (const id of ids) {
        const row = selectOne.get(id);
        if (row !== undefined) clicks.push(clickFromRow(row));
      }
      return clicks;
    },
    async recent(limit) {
      return selectRecent.all(limit).map(clickFromRow);
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
