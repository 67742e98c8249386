import { denseByIdx } from './check-dense.ts';
import { contentDigest } from './content-digest.ts';
import { SUPPLIER_INDEX, stayDoc } from './content-rows.ts';
import { encodeIndexChunk, INDEX_CHUNK_ROWS } from './index-chunk.ts';
import { pgVersionTables } from './pg-content-tables.ts';
import { copyIn, copyText } from './pg-copy.ts';
import { inPgTransaction, type PgClient, type PgPool } from './pg-pool.ts';
import type { ChunkCellsOf, ContentStoreSettings, RankedStay, StayIdEntry } from './store.ts';
import { versionsToPrune } from './versions-to-prune.ts';

/**
 * Serialises holdVersions against pruning and publishes against each other (docs/decisions.md 69,
 * 80): a hold is recorded either before a publisher looks at the readers (and its versions are
 * kept) or after the prune committed (and the hold sees which versions are gone). Any fixed number;
 * the second key is the schema, so test runs in schemas of their own never wait on each other.
 */
export const lockContent = (client: PgClient) =>
  client.query('SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))', [734_920_156]);

type PublishSettings = Pick<ContentStoreSettings, 'contentReaderTtlMs' | 'contentVersionsKept'>;

/**
 * Store.publishContent on PostgreSQL: each version written and published in one transaction
 * (tables of its own, bulk-loaded with COPY, indexed after the load), so it is complete and
 * immutable once anyone can see it, and a publisher that dies leaves nothing; `dropped(no)` hears
 * of each version pruned (the store forgets its reader).
 */
export function pgPublisher(pool: PgPool, settings: PublishSettings, dropped: (no: number) => void) {
  return async function publish(
    stays: readonly RankedStay[],
    label: string,
    info: unknown,
    ids: readonly StayIdEntry[] = [],
    cellsOf?: ChunkCellsOf,
  ): Promise<number> {
    const byIdx = denseByIdx(stays);
    const digest = contentDigest(byIdx);
    const infoText = JSON.stringify(info ?? {});
    const unchanged = await inPgTransaction(pool, (client) => keepServed(client, digest, infoText, ids));
    if (unchanged !== null) return unchanged;
    // One transaction from the first row to the pointer: readers (MVCC) never wait for it; the
    // tables it creates are its own until it commits.
    return inPgTransaction(pool, async (client) => {
      const no = (await client.query<{ no: number }>("SELECT nextval('content_version_no')::int AS no")).rows[0].no;
      await writeVersion(client, no, byIdx, cellsOf);
      await upsertIds(client, ids);
      await client.query('INSERT INTO content_versions (no, label, info, digest) VALUES ($1, $2, $3, $4)', [no, label, infoText, digest]);
      for (const old of await pointAndPrune(client, no, settings)) dropped(old);
      return no;
    });
  };
}

/**
 * The served version's stays again: nothing is written but its info and the ids (docs/decisions.md
 * 80); its number, or null when the stays differ. Under the content lock, so no other handle
 * publishes between the comparison and the update.
 */
async function keepServed(client: PgClient, digest: string, info: string, ids: readonly StayIdEntry[]): Promise<number | null> {
  await lockContent(client);
  const { rows } = await client.query<{ no: number }>(
    'SELECT c.no FROM content_current c JOIN content_versions v ON v.no = c.no WHERE v.digest = $1',
    [digest],
  );
  if (rows.length === 0) return null;
  await client.query('UPDATE content_versions SET info = $1 WHERE no = $2', [info, rows[0].no]);
  await upsertIds(client, ids);
  return rows[0].no;
}

/** A version's tables, loaded with COPY, then indexed, then its packed index chunks. */
async function writeVersion(client: PgClient, no: number, byIdx: readonly RankedStay[], cellsOf?: ChunkCellsOf): Promise<void> {
  const t = pgVersionTables(no);
  await client.query(t.create);
  await copyIn(
    client,
    `COPY ${t.stays} (idx, id, doc) FROM STDIN`,
    (function* () {
      for (const stay of byIdx) yield `${stay.idx}\t${copyText(stay.id)}\t${copyText(stayDoc(stay))}\n`;
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
  await client.query(t.index);
  for (let from = 0; from < byIdx.length; from += INDEX_CHUNK_ROWS) {
    const chunk = encodeIndexChunk(byIdx.slice(from, from + INDEX_CHUNK_ROWS), cellsOf);
    await client.query(`INSERT INTO ${t.chunks} (first_idx, row_count, numbers, h3, names, cells) VALUES ($1, $2, $3, $4, $5, $6)`, [
      chunk.firstIdx,
      chunk.rowCount,
      Buffer.from(chunk.numbers.buffer, chunk.numbers.byteOffset, chunk.numbers.byteLength),
      chunk.h3,
      chunk.names,
      chunk.cells ? Buffer.from(chunk.cells.buffer, chunk.cells.byteOffset, chunk.cells.byteLength) : null,
    ]);
  }
}

/**
 * Published in one step: the pointer moves with the commit. Pruning under the content lock
 * (docs/decisions.md 69): older versions go unless among the newest two or held by a reader whose
 * heartbeat is within the TTL (the database's clock, the same for every machine). Returns the
 * versions dropped.
 */
async function pointAndPrune(client: PgClient, no: number, settings: PublishSettings): Promise<number[]> {
  await lockContent(client);
  await client.query(
    'INSERT INTO content_current (singleton, no) VALUES (true, $1) ON CONFLICT (singleton) DO UPDATE SET no = excluded.no',
    [no],
  );
  await client.query('DELETE FROM content_readers WHERE heartbeat_at <= clock_timestamp() - make_interval(secs => $1::float8 / 1000)', [
    settings.contentReaderTtlMs,
  ]);
  const live = new Set(
    (await client.query<{ version_no: number }>('SELECT DISTINCT version_no FROM content_readers')).rows.map((row) => row.version_no),
  );
  const versions = (await client.query<{ no: number }>('SELECT no FROM content_versions')).rows.map((row) => ({
    no: row.no,
    published: true,
  }));
  const victims = versionsToPrune(versions, no, live, settings.contentVersionsKept);
  if (victims.length > 0) {
    await client.query('DELETE FROM content_versions WHERE no = ANY($1::int[])', [victims]);
    for (const old of victims) await client.query(pgVersionTables(old).drop);
  }
  return victims;
}

/** Records the listings' stay ids; the last entry of a listing wins, as in a loop of upserts. */
async function upsertIds(client: PgClient, ids: readonly StayIdEntry[]): Promise<void> {
  if (ids.length === 0) return;
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
