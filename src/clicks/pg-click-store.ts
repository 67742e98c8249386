import type { PgPool } from '../store/pg-pool.ts';
import type { SupplierId } from '../types.ts';
import type { Click, ClickStore, DeviceClass, TallyDimension } from './click-store.ts';

export interface PgClickStoreOptions {
  /** A pool on the migrated database (store/migrations/0001-...sql); the store never ends it. */
  pool: PgPool;
}

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

const COLUMNS = 'id, at, aid, campaign, stay_id, supplier, supplier_stay_id, device';

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

/**
 * Clicks in PostgreSQL: a click recorded by any gateway is there for every other and for the
 * report sync. A click is committed before its redirect is answered (one INSERT, autocommit).
 */
export function createPgClickStore(options: PgClickStoreOptions): ClickStore {
  const { pool } = options;
  return {
    async record(click) {
      await pool.query({
        name: 'clicks-record',
        text: `INSERT INTO clicks (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        values: [click.id, click.at, click.aid, click.campaign, click.stayId, click.supplier, click.supplierStayId, click.device],
      });
    },
    async get(ids) {
      if (ids.length === 0) return [];
      const { rows } = await pool.query<Row>(`SELECT ${COLUMNS} FROM clicks WHERE id = ANY($1::text[])`, [ids]);
      const byId = new Map(rows.map((row) => [row.id, toClick(row)]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },
    async recent(limit) {
      return (await pool.query<Row>(`SELECT ${COLUMNS} FROM clicks ORDER BY at DESC, seq DESC LIMIT $1`, [limit])).rows.map(toClick);
    },
    async count({ aids, from, to, by }) {
      if (aids.length === 0) return [];
      const { rows } = await pool.query<{ key: string | null; clicks: number }>(
        `SELECT ${KEY[by]} AS key, count(*)::int AS clicks FROM clicks WHERE aid = ANY($1::text[]) AND at >= $2 AND at < $3 GROUP BY 1`,
        [aids, from, to],
      );
      return rows;
    },
    async close() {
      // The pool belongs to whoever opened it (open-stores.ts).
    },
  };
}
