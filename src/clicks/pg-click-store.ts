import type { PgPool } from '../store/pg-pool.ts';
import { CLICK_COLUMNS, CLICK_TALLY_KEY, clickFromRow, clickToRow, type ClickRow } from './click-row.ts';
import type { ClickStore } from './click-store.ts';

export interface PgClickStoreOptions {
  /** A pool on the migrated database (store/migrations/postgres/0001); the store never ends it. */
  pool: PgPool;
}

const COLUMNS = CLICK_COLUMNS.join(', ');

/**
 * Clicks in PostgreSQL: a click recorded by any gateway is there for every other and for the
 * report sync. A click is committed before its redirect is answered (one INSERT, autocommit).
 */
export function createPgClickStore(options: PgClickStoreOptions): ClickStore {
  const { pool } = options;
  return {
    async record(click) {
      const row = clickToRow(click);
      await pool.query({
        name: 'clicks-record',
        text: `INSERT INTO clicks (${COLUMNS}) VALUES (${CLICK_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`,
        values: CLICK_COLUMNS.map((column) => row[column]),
      });
    },
    async get(ids) {
      if (ids.length === 0) return [];
      const { rows } = await pool.query<ClickRow>(`SELECT ${COLUMNS} FROM clicks WHERE id = ANY($1::text[])`, [ids]);
      const byId = new Map(rows.map((row) => [row.id, clickFromRow(row)]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },
    async recent(limit) {
      // seq: tells apart clicks of the same instant (SQLite's rowid).
      return (await pool.query<ClickRow>(`SELECT ${COLUMNS} FROM clicks ORDER BY at DESC, seq DESC LIMIT $1`, [limit])).rows.map(
        clickFromRow,
      );
    },
    async count({ aids, from, to, by }) {
      if (aids.length === 0) return [];
      const { rows } = await pool.query<{ key: string | null; clicks: number }>(
        `SELECT ${CLICK_TALLY_KEY[by]} AS key, count(*)::int AS clicks FROM clicks WHERE aid = ANY($1::text[]) AND at >= $2 AND at < $3 GROUP BY 1`,
        [aids, from, to],
      );
      return rows;
    },
    async close() {
      // The pool belongs to whoever opened it (open-stores.ts).
    },
  };
}
