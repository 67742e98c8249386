// Scale-out on PostgreSQL (issue 14), the content side:
// 1. Warm start: a fresh process opens the content store, reads the served version and builds the
//    in-memory index from the database's packed chunks in the content worker (as a gateway's serve
//    does), then answers the Paris box search; PostgreSQL beside SQLite holding the same stays.
// 2. The Paris box search (10 best-ranked, with the count) behind one Fastify route, answered by
//    the in-memory index (the search core) and by a PostgreSQL query (a btree on the coordinates
//    covering rank and idx), the page's stays from the same stay cache: autocannon on loopback,
//    alternated three rounds, medians and the ratio.
// The default world (160,000 stays) is ingested once into a schema of its own in the test database
// (BENCH_DATABASE_URL, else TEST_DATABASE_URL) and into .bench/scale-out/content.sqlite; later runs reuse them.
import autocannon from 'autocannon';
import { fork } from 'node:child_process';
import path from 'node:path';
import type { StoreLocation } from '../src/store/open-content-store.ts';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);
const BASE_URL = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = 'staygate_bench_scale_out';
const SQLITE_PATH = path.resolve('.bench', 'scale-out', 'content.sqlite');
const PARIS = { south: 48.84, west: 2.31, north: 48.875, east: 2.38 };
const QUERY = `nelat=${PARIS.north}&nelng=${PARIS.east}&swlat=${PARIS.south}&swlng=${PARIS.west}`;

const pgUrl = (): string => {
  const url = new URL(BASE_URL);
  url.searchParams.set('options', `-c search_path=${SCHEMA}`);
  return url.toString();
};
const wherePg = (): StoreLocation => ({ kind: 'postgres', url: pgUrl() });
const whereSqlite = (): StoreLocation => ({ kind: 'sqlite', path: SQLITE_PATH });

/** The default world, ingested into both stores when they hold nothing yet. */
async function prepare(): Promise<void> {
  const pg = (await import('pg')).default;
  const admin = new pg.Client({ connectionString: BASE_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA IF NOT EXISTS ${SCHEMA}`);
  await admin.end();
  const { defaults } = await import('../src/defaults.ts');
  const { openContentStore } = await import('../src/store/open-content-store.ts');
  const { describeRefresh, refreshContent } = await import('../src/inventory/refresh-content.ts');
  const stores = [await openContentStore(wherePg(), { settings: defaults }), await openContentStore(whereSqlite(), { settings: defaults })];
  try {
    if ((await Promise.all(stores.map((s) => s.currentContent()))).every((v) => v !== null)) return;
    const { generateWorld, startSimSuppliers } = await import('@staygate/sim');
    const { createSuppliers } = await import('../src/app.ts');
    const { simulatedSlots } = await import('../src/compose/supplier-slots.ts');
    const sim = await startSimSuppliers({ world: generateWorld({ seed: defaults.simSeed, stays: defaults.simStays }), latencyMs: 0 });
    try {
      // Same seed, same feeds, same stays in both (refresh-content.ts): one world, two engines.
      for (const store of stores) {
        if ((await store.currentContent()) !== null) continue;
        const outcome = await refreshContent({
          suppliers: createSuppliers(simulatedSlots(sim.slots), defaults),
          store,
          shrinkLimit: defaults.feedShrinkLimit,
          settings: defaults,
        });
        for (const line of describeRefresh(outcome)) console.log(`  ${line}`);
      }
    } finally {
      await sim.close();
    }
  } finally {
    for (const store of stores) await store.close();
  }
}

/** Child: a cold process that brings the served version to a searchable index, as a gateway's start does. */
async function warmStart(where: StoreLocation): Promise<void> {
  const { defaults } = await import('../src/defaults.ts');
  const { openContentStore } = await import('../src/store/open-content-store.ts');
  const { createContentWorker } = await import('../src/inventory/content-worker-client.ts');
  const { createStayCache } = await import('../src/inventory/stay-cache.ts');
  const { createSearch } = await import('../src/search/search.ts');
  const { createWorkSlicer } = await import('../src/search/work-slicer.ts');
  const { clusteringSettings } = await import('../src/compose/search.ts');
  const started = performance.now();
  const store = await openContentStore(where, { settings: defaults });
  const current = await store.currentContent();
  if (current === null) throw new Error('nothing stored');
  await store.holdVersions([current.no]);
  const worker = createContentWorker({ where, settings: defaults });
  const loading = performance.now();
  const { index, pyramid } = await worker.loadIndex(current.no);
  const loaded = performance.now();
  const version = store.version(current.no);
  const search = createSearch({
    index,
    pyramid,
    stays: createStayCache(version, { capacity: defaults.stayCacheSize }),
    store: version,
    geocoder: { geocode: async () => null },
    totalCap: defaults.totalCap,
    quotes: new Map(),
    pricedCandidates: defaults.pricedCandidates,
    quoteBudgetMs: defaults.quoteBudgetMs,
    slicer: createWorkSlicer({ sliceMs: defaults.workSliceMs }),
    clustering: clusteringSettings(defaults),
  });
  const result = await search(boxQuery());
  const ready = performance.now();
  process.send!({
    stays: index.size,
    total: result.total,
    sinceProcessStart: Math.round(ready),
    open: Math.round(loading - started),
    index: Math.round(loaded - loading),
    firstSearch: Math.round(ready - loaded),
  });
  await worker.close();
  await store.close();
}

function boxQuery() {
  return {
    location: { kind: 'box' as const, ...PARIS },
    hotelIds: null,
    providers: null,
    types: null,
    hotelSearch: null,
    minStars: 0,
    minGuestRating: 0,
    minRatingCount: 0,
    page: 1,
    pageSize: 10,
    dates: null,
    occupancy: { adults: 2, children: 0, childrenAges: null, rooms: 1 },
    currency: 'USD',
    minPrice: null,
    maxPrice: null,
    cluster: 'false' as const,
    precision: null,
    cell: null,
  };
}

/** Child: the two routes, on one Fastify server. */
async function serve(): Promise<void> {
  const { default: Fastify } = await import('fastify');
  const { defaults } = await import('../src/defaults.ts');
  const { inPgTransaction, openPgPool } = await import('../src/store/pg-pool.ts');
  const { createPgStore } = await import('../src/store/pg-store.ts');
  const { buildStayIndex } = await import('../src/inventory/stay-index.ts');
  const { indexChunkColumns } = await import('../src/store/index-chunk.ts');
  const { createStayCache } = await import('../src/inventory/stay-cache.ts');
  const { createSearch } = await import('../src/search/search.ts');
  const { createWorkSlicer } = await import('../src/search/work-slicer.ts');
  const { clusteringSettings } = await import('../src/compose/search.ts');
  const pool = openPgPool(pgUrl(), { max: 10 });
  const store = createPgStore({ pool, settings: defaults });
  const current = (await store.currentContent())!;
  await store.holdVersions([current.no]);
  const version = store.version(current.no);
  const index = await buildStayIndex(version.indexChunks());
  const stays = createStayCache(version, { capacity: defaults.stayCacheSize });
  const { buildCellPyramid } = await import('../src/inventory/cell-pyramid.ts');
  const pyramid = buildCellPyramid(index, { maxResolution: defaults.clusterMaxResolution });
  const search = createSearch({
    index,
    pyramid,
    stays,
    store: version,
    geocoder: { geocode: async () => null },
    totalCap: defaults.totalCap,
    quotes: new Map(),
    pricedCandidates: defaults.pricedCandidates,
    quoteBudgetMs: defaults.quoteBudgetMs,
    slicer: createWorkSlicer({ sliceMs: defaults.workSliceMs }),
    clustering: clusteringSettings(defaults),
  });
  // The reference: the coordinates of this version in a table of their own, a btree on (lat, lng)
  // that covers rank and idx, so both queries are index-only scans.
  const table = `bench_box_v${current.no}`;
  if ((await pool.query('SELECT to_regclass($1) AS t', [`${table}_box`])).rows[0].t === null) {
    await inPgTransaction(pool, async (client) => {
      await client.query(`DROP TABLE IF EXISTS ${table}`);
      await client.query(`CREATE TABLE ${table} (idx integer NOT NULL, rank integer NOT NULL, lat float8 NOT NULL, lng float8 NOT NULL)`);
      for await (const chunk of version.indexChunks()) {
        const { rank, lat, lng } = indexChunkColumns(chunk);
        await client.query(`INSERT INTO ${table} SELECT * FROM unnest($1::int[], $2::int[], $3::float8[], $4::float8[])`, [
          Array.from({ length: chunk.rowCount }, (_, i) => chunk.firstIdx + i),
          [...rank],
          [...lat],
          [...lng],
        ]);
      }
      await client.query(`CREATE INDEX ${table}_box ON ${table} (lat, lng) INCLUDE (rank, idx)`);
    });
    // The visibility map set, so the scans are index-only; and the statistics for the planner.
    await pool.query(`VACUUM ANALYZE ${table}`);
  }
  const countSql = {
    name: 'box_count',
    text: `SELECT count(*)::int AS n FROM ${table} WHERE lat BETWEEN $1 AND $2 AND lng BETWEEN $3 AND $4`,
  };
  const topSql = {
    name: 'box_top',
    text: `SELECT idx FROM ${table} WHERE lat BETWEEN $1 AND $2 AND lng BETWEEN $3 AND $4 ORDER BY rank LIMIT 10`,
  };

  type Box = { nelat: string; nelng: string; swlat: string; swlng: string };
  const boxOf = (q: Box) => ({ south: Number(q.swlat), west: Number(q.swlng), north: Number(q.nelat), east: Number(q.nelng) });
  const app = Fastify();
  app.get<{ Querystring: Box }>('/memory', async (request) => {
    const result = await search({ ...boxQuery(), location: { kind: 'box', ...boxOf(request.query) } });
    return { total: result.total, stays: result.hits.map((h) => h.stay) };
  });
  app.get<{ Querystring: Box }>('/postgres', async (request) => {
    const b = boxOf(request.query);
    const values = [b.south, b.north, b.west, b.east];
    const [count, top] = await Promise.all([
      pool.query<{ n: number }>({ ...countSql, values }),
      pool.query<{ idx: number }>({ ...topSql, values }),
    ]);
    return { total: count.rows[0].n, stays: await stays.get(top.rows.map((r) => r.idx)) };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  // Same answer both ways, or the comparison means nothing.
  const [m, p] = await Promise.all(
    ['/memory', '/postgres'].map(async (route) =>
      (await app.inject({ url: `${route}?${QUERY}` })).json<{ total: number; stays: { idx: number }[] }>(),
    ),
  );
  if (m.total !== p.total || JSON.stringify(m.stays.map((s) => s.idx)) !== JSON.stringify(p.stays.map((s) => s.idx))) {
    throw new Error(`the two answers differ: ${m.total} / ${p.total} stays`);
  }
  process.send!({ base, total: m.total });
  process.on('disconnect', () => process.exit(0));
}

function child<T>(args: string[]): Promise<{ message: T; done: Promise<void>; stop(): void }> {
  const proc = fork(new URL(import.meta.url).pathname, args, { execArgv: ['--import', 'tsx'] });
  return new Promise((resolve, reject) => {
    proc.once('message', (message) =>
      resolve({ message: message as T, done: new Promise((r) => proc.once('exit', () => r())), stop: () => proc.disconnect() }),
    );
    proc.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

async function measure(url: string): Promise<{ rps: number; p50: number }> {
  const result = await autocannon({ url, connections: 10, duration: DURATION_S });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50 };
}

const median = (list: number[]): number => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

async function drive(): Promise<void> {
  await prepare();

  type Warm = { stays: number; total: number; sinceProcessStart: number; open: number; index: number; firstSearch: number };
  const warm: Record<string, Warm[]> = { postgres: [], sqlite: [] };
  for (let round = 0; round < 3; round++) {
    for (const engine of ['postgres', 'sqlite'] as const) {
      const run = await child<Warm>(['--warm', engine]);
      await run.done;
      warm[engine].push(run.message);
    }
  }
  for (const [engine, runs] of Object.entries(warm)) {
    console.log(
      `warm start, ${engine}: ${runs[0].stays} stays; ready ${median(runs.map((r) => r.sinceProcessStart))} ms after process start ` +
        `(store open ${median(runs.map((r) => r.open))} ms, index and pyramid from the stored chunks in the worker ${median(runs.map((r) => r.index))} ms, ` +
        `first search ${median(runs.map((r) => r.firstSearch))} ms; median of 3)`,
    );
  }
  console.log(
    `warm start ratio postgres/sqlite: ${(median(warm.postgres.map((r) => r.sinceProcessStart)) / median(warm.sqlite.map((r) => r.sinceProcessStart))).toFixed(2)}`,
  );

  const server = await child<{ base: string; total: number }>(['--serve']);
  const { base, total } = server.message;
  console.log(`Paris box (${QUERY}): ${total} stays, 10 best-ranked`);
  await measure(`${base}/memory?${QUERY}`); // warm-up: JIT, the stay cache, the named statements
  await measure(`${base}/postgres?${QUERY}`);
  const ratios: number[] = [];
  for (let round = 1; round <= 3; round++) {
    const m = await measure(`${base}/memory?${QUERY}`);
    const p = await measure(`${base}/postgres?${QUERY}`);
    ratios.push(m.rps / p.rps);
    console.log(
      `round ${round}: in-memory index ${Math.round(m.rps)} req/s (p50 ${m.p50} ms), PostgreSQL query ${Math.round(p.rps)} req/s (p50 ${p.p50} ms), ratio ${(m.rps / p.rps).toFixed(2)}`,
    );
  }
  console.log(`median ratio in-memory/PostgreSQL: ${median(ratios).toFixed(2)}`);
  // The server child exits when its channel closes; without this the benchmark never ended.
  server.stop();
  await server.done;
}

const mode = process.argv[2];
if (mode === '--warm') await warmStart(process.argv[3] === 'sqlite' ? whereSqlite() : wherePg());
else if (mode === '--serve') await serve();
else await drive();
