import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import { defaults } from '../defaults.ts';
import { SUPPLIER_IDS, type HotelIdRef, type Stay } from '../types.ts';
import { checkDense } from './check-dense.ts';
import { contentDigest } from './content-digest.ts';
import { encodeIndexChunk, INDEX_CHUNK_ROWS, indexRowsFromChunks, type StoredIndexChunk } from './index-chunk.ts';
import { inPgTransaction, type PgClient, type PgPool } from './pg-pool.ts';
import type { RankedStay, StayIdEntry, Store, VersionReader } from './store.ts';
import { versionsToPrune } from './versions-to-prune.ts';

export interface PgStoreOptions {
  /** A pool on a database (or schema) that migratePg has brought up to date; the store never ends it. */
  pool: PgPool;
  /** A reader silent this long no longer keeps its versions (defaults.contentReaderTtlMs; tests shorten it). */
  readerTtlMs?: number;
}

/**
 * Serialises holdVersions against pruning (docs/decisions.md 69): a hold is recorded either before
 * a publisher looks at the readers (and its versions are kept) or after the prune committed (and
 * the hold sees which versions are gone). Any fixed number; the second key is the schema, so test
 * runs in schemas of their own never wait on each other.
 */
const CONTENT_LOCK = 734_920_156;

/** Stays per COPY write: ~3 MB of text, so a million stays never sit in memory as one string. */
const COPY_BATCH = 2_000;
/** Stays per read of allStays. */
const READ_BATCH = 2_000;

const SUPPLIER_INDEX = new Map<string, number>(SUPPLIER_IDS.map((id, i) => [id, i]));

const tables = (no: number) => ({ stays: `stays_v${no}`, chunks: `index_chunks_v${no}`, listingIds: `listing_ids_v${no}` });
const dropVersionSql = (no: number): string => {
  const t = tables(no);
  return `DROP TABLE IF EXISTS ${t.stays}, ${t.chunks}, ${t.listingIds}`;
};

/** A value in COPY's text format: backslash, tab, newline and carriage return escaped. */
const copyText = (value: string): string =>
  value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));

/** Streams rows (already COPY text lines) into `sql` (a COPY ... FROM STDIN) on this client. */
async function copyIn(client: PgClient, sql: string, lines: Iterable<string>): Promise<void> {
  const batched = function* () {
    let buffer: string[] = [];
    for (const line of lines) {
      buffer.push(line);
      if (buffer.length === COPY_BATCH) {
        yield buffer.join('');
        buffer = [];
      }
    }
    if (buffer.length > 0) yield buffer.join('');
  };
  await pipeline(Readable.from(batched()), client.query(copyFrom(sql)));
}

/**
 * The Store on PostgreSQL, for several gateways on one database (docs/decisions.md 70). Each content version is written
 * and published in one transaction (tables of its own, bulk-loaded with COPY, indexed after the
 * load), so it is complete and immutable once anyone can see it; the index is read back as the
 * same packed chunks as on SQLite (index-chunk.ts), so a gateway builds its in-memory index in
 * tens of reads and searches never touch the database.
 */
export function createPgStore(options: PgStoreOptions): Store {
  const { pool } = options;
  const readerTtlMs = options.readerTtlMs ?? defaults.contentReaderTtlMs;
  const readers = new Map<number, VersionReader>();
  const reader = (no: number): VersionReader => {
    let found = readers.get(no);
    if (found === undefined) {
      found = versionReader(pool, no);
      readers.set(no, found);
    }
    return found;
  };

  // This handle's reads (holdVersions): one id per handle, its rows renewed by a heartbeat.
  const readerId = randomUUID();
  let held: number[] = [];
  let heartbeat: NodeJS.Timeout | null = null;
  let closed = false;

  const recordHolds = (nos: readonly number[]): Promise<number[]> =>
    inPgTransaction(pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))', [CONTENT_LOCK]);
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

  async function current(): Promise<{ no: number; label: string; info: unknown } | null> {
    const { rows } = await pool.query<{ no: number; label: string; info: unknown }>(
      'SELECT c.no, v.label, v.info FROM content_current c JOIN content_versions v ON v.no = c.no',
    );
    return rows[0] ?? null;
  }

  async function publish(stays: readonly RankedStay[], label: string, info: unknown, ids?: readonly StayIdEntry[]): Promise<number> {
    checkDense(stays);
    const byIdx: RankedStay[] = new Array(stays.length);
    for (const stay of stays) byIdx[stay.idx] = stay;
    const digest = contentDigest(byIdx);
    // The served version's stays again: nothing is written but its info and the ids (docs/decisions.md
    // 80). Under the content lock, so no other handle publishes between the comparison and the update.
    const unchanged = await inPgTransaction(pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))', [CONTENT_LOCK]);
      const { rows } = await client.query<{ no: number }>(
        'SELECT c.no FROM content_current c JOIN content_versions v ON v.no = c.no WHERE v.digest = $1',
        [digest],
      );
      if (rows.length === 0) return null;
      await client.query('UPDATE content_versions SET info = $1 WHERE no = $2', [JSON.stringify(info ?? {}), rows[0].no]);
      await upsertIds(client, ids);
      return rows[0].no;
    });
    if (unchanged !== null) return unchanged;
    // One transaction from the first row to the pointer: a publisher that dies leaves nothing, and
    // readers (MVCC) never wait for it; the tables it creates are its own until it commits.
    return inPgTransaction(pool, async (client) => {
      const no = (await client.query<{ no: number }>("SELECT nextval('content_version_no')::int AS no")).rows[0].no;
      const t = tables(no);
      await client.query(`CREATE TABLE ${t.stays} (idx integer NOT NULL, id text NOT NULL, doc text NOT NULL);
        CREATE TABLE ${t.chunks} (first_idx integer PRIMARY KEY, row_count integer NOT NULL, numbers bytea NOT NULL, h3 text NOT NULL, names text NOT NULL);
        CREATE TABLE ${t.listingIds} (supplier_stay_id text NOT NULL, supplier smallint NOT NULL, idx integer NOT NULL)`);
      await copyIn(
        client,
        `COPY ${t.stays} (idx, id, doc) FROM STDIN`,
        (function* () {
          for (const ranked of byIdx) {
            const { rank: _rank, ...stay } = ranked;
            yield `${stay.idx}\t${copyText(stay.id)}\t${copyText(JSON.stringify(stay))}\n`;
          }
        })(),
      );
      await copyIn(
        client,
        `COPY ${t.listingIds} (supplier_stay_id, supplier, idx) FROM STDIN`,
        (function* () {
          for (const stay of byIdx) {
            for (const listing of stay.listings)
              yield `${copyText(listing.supplierStayId)}\t${SUPPLIER_INDEX.get(listing.supplier)}\t${stay.idx}\n`;
          }
        })(),
      );
      // Indexes after the rows: one sort each instead of a million index insertions.
      await client.query(`ALTER TABLE ${t.stays} ADD PRIMARY KEY (idx);
        CREATE UNIQUE INDEX ${t.stays}_id ON ${t.stays} (id);
        CREATE INDEX ${t.listingIds}_key ON ${t.listingIds} (supplier_stay_id, supplier, idx)`);
      for (let from = 0; from < byIdx.length; from += INDEX_CHUNK_ROWS) {
        const chunk = encodeIndexChunk(byIdx.slice(from, from + INDEX_CHUNK_ROWS));
        await client.query(`INSERT INTO ${t.chunks} (first_idx, row_count, numbers, h3, names) VALUES ($1, $2, $3, $4, $5)`, [
          chunk.firstIdx,
          chunk.rowCount,
          Buffer.from(chunk.numbers.buffer, chunk.numbers.byteOffset, chunk.numbers.byteLength),
          chunk.h3,
          chunk.names,
        ]);
      }
      await upsertIds(client, ids);
      await client.query('INSERT INTO content_versions (no, label, info, digest) VALUES ($1, $2, $3, $4)', [
        no,
        label,
        JSON.stringify(info ?? {}),
        digest,
      ]);
      // Published in one step: the pointer moves with the commit. Pruning under the content lock
      // (docs/decisions.md 69): older versions go unless among the newest two or held by a reader
      // whose heartbeat is within the TTL (the database's clock, the same for every machine).
      await client.query('SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))', [CONTENT_LOCK]);
      await client.query(
        'INSERT INTO content_current (singleton, no) VALUES (true, $1) ON CONFLICT (singleton) DO UPDATE SET no = excluded.no',
        [no],
      );
      await client.query('DELETE FROM content_readers WHERE heartbeat_at <= clock_timestamp() - make_interval(secs => $1::float8 / 1000)', [
        readerTtlMs,
      ]);
      const live = new Set(
        (await client.query<{ version_no: number }>('SELECT DISTINCT version_no FROM content_readers')).rows.map((row) => row.version_no),
      );
      const versions = (await client.query<{ no: number }>('SELECT no FROM content_versions')).rows.map((row) => ({
        no: row.no,
        published: true,
      }));
      const victims = versionsToPrune(versions, no, live, defaults.contentVersionsKept);
      if (victims.length > 0) {
        await client.query('DELETE FROM content_versions WHERE no = ANY($1::int[])', [victims]);
        for (const old of victims) {
          await client.query(dropVersionSql(old));
          readers.delete(old);
        }
      }
      return no;
    });
  }

  const servedReader = async (): Promise<VersionReader | null> => {
    const served = await current();
    return served === null ? null : reader(served.no);
  };

  return {
    async inventoryVersion() {
      return (await current())?.label ?? null;
    },

    currentContent: current,

    async replaceInventory(stays, version) {
      await publish(stays, version, {});
    },

    publishContent: publish,

    version(no) {
      return reader(no);
    },

    async holdVersions(nos) {
      if (closed) throw new Error('holdVersions: the store is closed');
      held = [...new Set(nos)];
      const readable = await recordHolds(held);
      if (held.length === 0 && heartbeat !== null) {
        clearInterval(heartbeat);
        heartbeat = null;
      } else if (held.length > 0 && heartbeat === null) {
        // Renewed from this handle's own timer, so a reader's record lives exactly as long as the
        // handle (a killed process stops renewing it). Never keeps the process alive.
        heartbeat = setInterval(() => {
          // A failed beat (the database away) is tried again at the next; a lost minute only lets a
          // publisher drop these versions, and the gateway then swaps to the one served.
          void recordHolds(held).catch(() => undefined);
        }, defaults.contentReaderHeartbeatMs);
        heartbeat.unref();
      }
      return readable;
    },

    async stayIds() {
      const map = new Map<string, string>();
      const { rows } = await pool.query<{ supplier: number; supplier_stay_id: string; stay_id: string }>(
        'SELECT supplier, supplier_stay_id, stay_id FROM stay_ids',
      );
      for (const row of rows) map.set(`${SUPPLIER_IDS[row.supplier]}:${row.supplier_stay_id}`, row.stay_id);
      return map;
    },

    async *indexRows(batchSize) {
      const served = await servedReader();
      if (served !== null) yield* served.indexRows(batchSize);
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
      if (heartbeat !== null) clearInterval(heartbeat);
      // The holds go now rather than after the TTL: a publisher may drop these versions at once.
      await pool.query('DELETE FROM content_readers WHERE reader = $1', [readerId]).catch(() => undefined);
    },
  };
}

/** Records the listings' stay ids; the last entry of a listing wins, as in a loop of upserts. */
async function upsertIds(client: PgClient, ids: readonly StayIdEntry[] | undefined): Promise<void> {
  if (ids === undefined || ids.length === 0) return;
  // One statement may not touch a row twice: the last entry of each listing only.
  const latest = new Map<string, StayIdEntry>();
  for (const entry of ids) latest.set(`${entry.supplier}:${entry.supplierStayId}`, entry);
  await client.query('CREATE TEMP TABLE stay_ids_in (supplier smallint, supplier_stay_id text, stay_id text) ON COMMIT DROP');
  await copyIn(
    client,
    'COPY stay_ids_in FROM STDIN',
    (function* () {
      for (const e of latest.values()) yield `${SUPPLIER_INDEX.get(e.supplier)}\t${copyText(e.supplierStayId)}\t${copyText(e.stayId)}\n`;
    })(),
  );
  await client.query(`INSERT INTO stay_ids (supplier, supplier_stay_id, stay_id) SELECT supplier, supplier_stay_id, stay_id FROM stay_ids_in
    ON CONFLICT (supplier, supplier_stay_id) DO UPDATE SET stay_id = excluded.stay_id`);
}

/** The reads of one content version: its tables never change once published. */
function versionReader(pool: PgPool, no: number): VersionReader {
  const t = tables(no);
  // Named statements: each pooled connection parses and plans them once (a search's reads are hot).
  const getStaysSql = { name: `stays_v${no}_get`, text: `SELECT idx, doc FROM ${t.stays} WHERE idx = ANY($1::int[])` };
  const resolveSql = {
    name: `stays_v${no}_resolve`,
    // ord: the ref's position; supplier -1 = a bare id (any supplier, or the service id).
    text: `WITH r AS (SELECT * FROM unnest($1::text[], $2::int[]) WITH ORDINALITY AS r(id, supplier, ord))
      SELECT r.ord::int AS ord, s.idx FROM r JOIN ${t.stays} s ON r.supplier = -1 AND s.id = r.id
      UNION
      SELECT r.ord::int AS ord, l.idx FROM r JOIN ${t.listingIds} l ON l.supplier_stay_id = r.id AND (r.supplier = -1 OR l.supplier = r.supplier)`,
  };
  return {
    no,
    indexRows(batchSize = defaults.indexRowsBatchSize) {
      // One chunk per query: ~60 reads for a million stays.
      return indexRowsFromChunks(async (from) => {
        const { rows } = await pool.query<StoredIndexChunk>(
          `SELECT first_idx, row_count, numbers, h3, names FROM ${t.chunks} WHERE first_idx >= $1 ORDER BY first_idx LIMIT 1`,
          [from],
        );
        return rows[0];
      }, batchSize);
    },
    async getStays(idxs) {
      const wanted = idxs.filter((idx) => Number.isInteger(idx) && idx >= 0 && idx <= 0x7fffffff);
      if (wanted.length === 0) return [];
      const { rows } = await pool.query<{ idx: number; doc: string }>({ ...getStaysSql, values: [wanted] });
      const byIdx = new Map(rows.map((row) => [row.idx, row.doc]));
      const stays: Stay[] = [];
      for (const idx of wanted) {
        const doc = byIdx.get(idx);
        if (doc !== undefined) stays.push(JSON.parse(doc) as Stay);
      }
      return stays;
    },
    async *allStays(batch = READ_BATCH) {
      for (let from = 0; ; from += batch) {
        const { rows } = await pool.query<{ doc: string }>(`SELECT doc FROM ${t.stays} WHERE idx >= $1 AND idx < $2 ORDER BY idx`, [
          from,
          from + batch,
        ]);
        if (rows.length === 0) return;
        yield rows.map((row) => JSON.parse(row.doc) as Stay);
      }
    },
    async resolveHotelIds(refs: readonly HotelIdRef[]) {
      const found = refs.map(() => new Set<number>());
      if (refs.length === 0) return [];
      const ids: string[] = [];
      const suppliers: number[] = [];
      for (const ref of refs) {
        ids.push(ref.id);
        // A supplier the store does not know matches nothing (-2 is no supplier's index).
        suppliers.push(ref.supplier === null ? -1 : (SUPPLIER_INDEX.get(ref.supplier) ?? -2));
      }
      const { rows } = await pool.query<{ ord: number; idx: number }>({ ...resolveSql, values: [ids, suppliers] });
      for (const row of rows) found[row.ord - 1].add(row.idx);
      return found.map((set) => [...set].sort((a, b) => a - b));
    },
  };
}
