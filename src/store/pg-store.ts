import { randomUUID } from 'node:crypto';
import { stayIdKey, type StayIdRow } from './content-rows.ts';
import { lockContent, pgPublisher } from './pg-publish.ts';
import { inPgTransaction, type PgPool } from './pg-pool.ts';
import { pgVersionReader } from './pg-version-reader.ts';
import { readerHolds } from './reader-holds.ts';
import { StayIdMap } from './stay-id-map.ts';
import type { ContentStoreSettings, Store, VersionReader } from './store.ts';

/** Rows of `stay_ids` per read of stayIds(). */
const STAY_IDS_PAGE = 50_000;

export interface PgStoreOptions {
  /** A pool on a database (or schema) that migratePg has brought up to date; the store never ends it. */
  pool: PgPool;
  /** `config.settings` (tests shorten contentReaderTtlMs). */
  settings: ContentStoreSettings;
  /** Rows of `stay_ids` per read of stayIds() (tests make pages small). */
  stayIdsPage?: number;
}

/**
 * The Store on PostgreSQL, for several gateways on one database (docs/decisions.md 70): the tables
 * of migrations/postgres/0002 and each version's (pg-content-tables.ts), written by pg-publish.ts.
 * The index is read back as the same packed chunks as on SQLite (index-chunk.ts), so a gateway
 * builds its in-memory index in tens of reads and searches never touch the database.
 */
export function createPgStore(options: PgStoreOptions): Store {
  const { pool, settings } = options;
  const readers = new Map<number, VersionReader>();
  const reader = (no: number): VersionReader => {
    let found = readers.get(no);
    if (found === undefined) {
      found = pgVersionReader(pool, no);
      readers.set(no, found);
    }
    return found;
  };
  const publish = pgPublisher(pool, settings, (no) => readers.delete(no));
  const readerId = randomUUID();
  const holds = readerHolds((nos) => recordPgHolds(pool, readerId, nos), settings.contentReaderHeartbeatMs);
  let closed = false;

  async function current(): Promise<{ no: number; label: string; info: unknown } | null> {
    const { rows } = await pool.query<{ no: number; label: string; info: unknown }>(
      'SELECT c.no, v.label, v.info FROM content_current c JOIN content_versions v ON v.no = c.no',
    );
    return rows[0] ?? null;
  }
  const servedReader = async (): Promise<VersionReader | null> => {
    const served = await current();
    return served === null ? null : reader(served.no);
  };

  return {
    currentContent: current,
    publishContent: publish,
    version: reader,
    holdVersions: holds.hold,
    async stayIds() {
      // A page at a time by the primary key (10M rows at once were gigabytes of row objects), in
      // one snapshot: a publish between two pages is seen whole or not at all.
      const page = options.stayIdsPage ?? STAY_IDS_PAGE;
      return inPgTransaction(pool, async (client) => {
        await client.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY');
        const map = new StayIdMap();
        let after: StayIdRow | null = null;
        for (;;) {
          const { rows }: { rows: StayIdRow[] } = await client.query<StayIdRow>(
            after === null
              ? `SELECT supplier, supplier_stay_id, stay_id FROM stay_ids ORDER BY supplier, supplier_stay_id LIMIT ${page}`
              : `SELECT supplier, supplier_stay_id, stay_id FROM stay_ids WHERE (supplier, supplier_stay_id) > ($1, $2)
                 ORDER BY supplier, supplier_stay_id LIMIT ${page}`,
            after === null ? [] : [after.supplier, after.supplier_stay_id],
          );
          for (const row of rows) map.set(stayIdKey(row), row.stay_id);
          if (rows.length < page) return map;
          after = rows[rows.length - 1];
        }
      });
    },
    async *indexChunks() {
      const served = await servedReader();
      if (served !== null) yield* served.indexChunks();
    },
    async getStays(idxs) {
      return (await servedReader())?.getStays(idxs) ?? [];
    },
    async resolveHotelIds(refs) {
      return (await servedReader())?.resolveHotelIds(refs) ?? refs.map(() => []);
    },
    async diskBytes() {
      // Every table of the schema with its indexes and TOAST. A dropped version's files go at its
      // DROP's commit; dead rows of the small tables are autovacuum's (docs/decisions.md 81).
      const { rows } = await pool.query<{ bytes: string }>(
        `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint AS bytes
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'm')`,
      );
      return Number(rows[0].bytes);
    },
    async close() {
      if (closed) return;
      closed = true;
      holds.stop();
      // The holds go now rather than after the TTL: a publisher may drop these versions at once.
      await pool.query('DELETE FROM content_readers WHERE reader = $1', [readerId]).catch(() => undefined);
    },
  };
}

/**
 * This handle's holds in `content_readers` (reader-holds.ts), under the content lock (serialised
 * with pruning), stamped with the database's clock; returns those of `nos` still published.
 */
function recordPgHolds(pool: PgPool, readerId: string, nos: readonly number[]): Promise<number[]> {
  return inPgTransaction(pool, async (client) => {
    await lockContent(client);
    await client.query('DELETE FROM content_readers WHERE reader = $1', [readerId]);
    if (nos.length === 0) return [];
    await client.query(
      'INSERT INTO content_readers (reader, version_no) SELECT $1, no FROM unnest($2::int[]) AS no ON CONFLICT DO NOTHING',
      [readerId, nos],
    );
    const { rows } = await client.query<{ no: number }>('SELECT no FROM content_versions WHERE no = ANY($1::int[])', [nos]);
    const readable = new Set(rows.map((row) => row.no));
    return nos.filter((no) => readable.has(no));
  });
}
