// The whole first start at world scale (issue 22), stage by stage, and what it serves: the
// simulator generating the world (its own process, as `npm start` forks it), the four feeds pulled
// over HTTP, merged and written to the store (buildContentVersion, what the content worker runs),
// the version's index built; then the gateway started warm on that data folder, its resident memory
// in steady state, the latency of a static search, a clustered search and an id lookup, and a
// content refresh after a simulated month while static searches run (autocannon); and a second
// warm start with the page cache dropped (root only), as after a reboot. The same version
// is also merged and written to PostgreSQL (a schema of the run in TEST_DATABASE_URL, else the
// local `test` database; dropped at the end) and a second gateway started warm on it. All of
// it at STAYGATE_BENCH_WORLD_STAYS stays (default 7,823,145: about 10M listings at 1.28 listings a
// stay) and at the default 160,000 in the same run, for the ratios. A stage that fails (a process
// out of memory, an error) is printed with its error, and what follows it as not measured.
//
// Roles, by argv: none (the driver), `--stages <json>` (pull, merge and store, index: in a process of
// its own so that its peak is its own), `--serve <json>` (the gateway, warm).
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { simHeapLimitMb } from '@staygate/sim';
import autocannon from 'autocannon';
import pg from 'pg';
import type { SimulatedSlot } from '../src/compose/supplier-slots.ts';
import { contentHeapLimitMb } from '../src/inventory/content-heap-limit.ts';
import type { SupplierId } from '../src/types.ts';
import { mergeQuality, type MergeQuality } from './merge-quality.ts';
import { watchRssPeak } from './rss-peak.ts';

const DEFAULT_STAYS = 160_000;
const STAYS = Number(process.env.STAYGATE_BENCH_WORLD_STAYS ?? 7_823_145);
/** Per run: two runs at once (two sizes) keep apart. */
const ROOT = path.resolve('.bench', `world-scale-${process.pid}`);
/** Sequential requests per query after a warm-up: with 300 the p99 was the third slowest, one GC pause away. */
const REQUESTS = 1_000;
const QUERIES = {
  static: '/v3/accommodations?nelat=48.875&nelng=2.38&swlat=48.84&swlng=2.31&pageSize=10',
  clustered: '/v3/accommodations?nelat=55&nelng=15&swlat=40&swlng=-10&cluster=auto&pageSize=10',
} as const;
const TARGETS = { warmStartS: 30, steadyRssMb: 3 * 1024, latencyRatio: 2, refreshP99Ms: 50 };
/**
 * "Today's" entity resolution, which the larger world must keep: the default world's through the
 * wire formats when it was first measured (docs/decisions.md 212), before the streets were
 * compared (213). The same run's 160k figures print beside it; since 213 they are 1.0 or near it,
 * a bar no larger world, denser in look-alikes, can be held to.
 */
const TODAYS_MERGE = { precision: 0.99991, recall: 0.9962 };
/** Simulated days the world moves before the refresh under load (as bench/refresh.ts). */
const REFRESH_DAYS = 30;
/**
 * Pulls a refresh may take, as the gateway's schedule would (contentRetryMs): a feed that failed is
 * pulled again after the retry wait, the others kept. The eighth 10M run's one pull had all four
 * feeds fail and changed nothing, and the bench still printed the target met.
 */
const REFRESH_TRIES = 3;
/** Where the PostgreSQL figures are taken: a schema of this run in that database, dropped at the end. */
const PG_BASE = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const pgSchemas: string[] = [];
const PG_STAGE = 'merge, ids, store write on PostgreSQL';
/**
 * Parts a run may leave out (STAYGATE_BENCH_WORLD_SKIP=postgres,refresh), printed as skipped: at
 * 10M each is tens of minutes, and the refresh needs the simulator, the gateway and the worker's
 * merge in memory at once (docs/decisions.md 210).
 */
const SKIP = new Set((process.env.STAYGATE_BENCH_WORLD_SKIP ?? '').split(',').filter(Boolean));
for (const part of SKIP)
  if (part !== 'postgres' && part !== 'refresh') throw new Error(`STAYGATE_BENCH_WORLD_SKIP: unknown part "${part}" (postgres, refresh)`);

type Slots = Record<SupplierId, SimulatedSlot>;
/** One stage's figures: seconds, the process's peak resident memory during it, and what it keeps. */
interface Stage {
  name: string;
  s: number;
  peakMb: number;
  heapMb?: number;
  note?: string;
}
interface Failure {
  stage: string;
  error: string;
}
/** A gateway started warm on a stored version: its start, its memory once ready, the three queries' latencies. */
interface WarmFigures {
  warmStartS?: number;
  steadyRssMb?: number;
  /** The gateway thread's JavaScript heap once steady (objects: caches, the gazetteer, Fastify, ...). */
  heapMb?: number;
  latency?: Record<string, { medianMs: number; p99Ms: number }>;
  failure?: Failure;
}
interface SizeFigures extends WarmFigures {
  stays: number;
  /** A second warm start with the page cache dropped first (as after a reboot): seconds, or why not measured. */
  coldStart?: number | string;
  /** The version's index columns (kd-tree included) and cell pyramid: typed arrays, as the stages built them. */
  indexMb?: number;
  listings?: number;
  stages: Stage[];
  /** The stored version's entity resolution against the simulator's truth (merge-quality.ts). */
  quality?: MergeQuality;
  refresh?: RefreshFigures;
  /** The same version written to PostgreSQL (a stage of `stages`) and a gateway started warm on it. */
  pg?: { warm?: WarmFigures };
}
/** A content refresh while static searches run (autocannon, 10 connections) against the warm gateway. */
interface RefreshFigures {
  s: number;
  changed: number;
  requests: number;
  failed: number;
  p99Ms: number;
  /** Each pull's feeds: listings and time, or the error. */
  pulls: string[];
  /** The last pull published (or found nothing changed) with every feed applied: else the refresh measured nothing. */
  applied: boolean;
  /** The gateway's resident memory before it (steady), at its peak (both versions' indexes held while the new one is swapped in, and the worker's build), and after, once the worker's thread has closed. */
  steadyMb: number;
  peakMb: number;
  afterMb: number;
}

const mb = (bytes: number): number => Math.round(bytes / 2 ** 20);
const statusOf = (pid: number | 'self'): string => readFileSync(`/proc/${pid}/status`, 'utf8');
const kbField = (status: string, field: string): number => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN) * 1024;
/** Resets this process's peak resident memory (VmHWM), so that the next reading is one stage's. */
const resetPeak = (): void => {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    // Not Linux, or refused: the peaks are then cumulative (said in the output).
  }
};
const quantile = (xs: number[], q: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

// --- the stages' process -----------------------------------------------------------------------

async function stages(input: { slots: Slots; dataDir: string; databaseUrl: string | null }): Promise<void> {
  const { defaults } = await import('../src/defaults.ts');
  const { simulatedSlots } = await import('../src/compose/supplier-slots.ts');
  const { createSuppliers } = await import('../src/suppliers/create-suppliers.ts');
  const { openContentStore } = await import('../src/store/open-content-store.ts');
  const { openStores } = await import('../src/compose/open-stores.ts');
  const { buildContentVersion } = await import('../src/inventory/build-content-version.ts');
  const { buildVersionIndexParts } = await import('../src/inventory/version-index.ts');
  const send = (m: unknown) => process.send!(m);
  const measure = async <T>(name: string, run: () => Promise<T>, note?: (value: T) => string): Promise<T> => {
    globalThis.gc?.();
    resetPeak();
    const t = performance.now();
    try {
      const value = await run();
      const s = (performance.now() - t) / 1000;
      globalThis.gc?.();
      send({
        stage: { name, s, peakMb: mb(kbField(statusOf('self'), 'VmHWM')), heapMb: mb(process.memoryUsage().heapUsed), note: note?.(value) },
      });
      return value;
    } catch (error) {
      send({ failure: { stage: name, error: (error as Error).stack ?? String(error) } });
      process.exit(0);
    }
  };
  // The gateway's own database file, schema included, so that the warm start finds this version.
  await (await openStores({ dataDir: input.dataDir, databaseUrl: null, settings: defaults }, {})).close();
  const sqlitePath = path.join(input.dataDir, 'staygate.sqlite');
  // The feeds and what was merged from them in a function of their own: all let go before the
  // index is built, as the gateway's content worker does (docs/decisions.md 211).
  const pullAndWrite = async (): Promise<{ no: number; stays: number }> => {
    const suppliers = createSuppliers(simulatedSlots(input.slots), defaults);
    const feeds = await measure(
      'four feeds over HTTP',
      async () =>
        Object.fromEntries(
          await Promise.all(
            suppliers.map(async (supplier) => {
              const listings = [];
              for await (const page of supplier.contentPages()) for (const l of page) listings.push(l);
              return [supplier.id, { ok: true as const, listings, skipped: 0 }] as const;
            }),
          ),
        ),
      (f) => `${Object.values(f).reduce((n, x) => n + x.listings.length, 0)} listings held`,
    );
    const store = await openContentStore({ kind: 'sqlite', path: sqlitePath }, { settings: defaults });
    const built = await measure(
      'merge, ids, store write',
      () => buildContentVersion({ store, feeds, shrinkLimit: defaults.feedShrinkLimit, settings: defaults }),
      (b) => `${b.stays} stays from ${b.listings} listings`,
    );
    await store.close();
    send({ listings: built.listings });
    if (input.databaseUrl !== null) {
      // Migrated as a gateway would find it, then the same feeds merged and written there.
      await (await openStores({ dataDir: input.dataDir, databaseUrl: input.databaseUrl, settings: defaults }, {})).close();
      const pgStore = await openContentStore({ kind: 'postgres', url: input.databaseUrl }, { settings: defaults });
      await measure(
        PG_STAGE,
        () => buildContentVersion({ store: pgStore, feeds, shrinkLimit: defaults.feedShrinkLimit, settings: defaults }),
        (b) => `${b.stays} stays`,
      );
      await pgStore.close();
    }
    return { no: built.no, stays: built.stays };
  };
  const built = await pullAndWrite();
  const store = await openContentStore({ kind: 'sqlite', path: sqlitePath }, { settings: defaults });
  await measure(
    'index build',
    () => buildVersionIndexParts(built.no, store.version(built.no).indexChunks(), defaults),
    (parts) => {
      // Every typed array in it, however nested (the pyramid keeps one set a resolution).
      const bytesOf = (o: unknown): number =>
        ArrayBuffer.isView(o)
          ? o.byteLength
          : typeof o === 'object' && o !== null
            ? Object.values(o).reduce((n: number, c) => n + bytesOf(c), 0)
            : 0;
      const columns = bytesOf(parts.columns);
      const pyramid = bytesOf(parts.pyramid);
      send({ indexBytes: columns + pyramid });
      const perStay = (bytes: number) => (bytes / built.stays).toFixed(1);
      return `index columns ${perStay(columns)} bytes a stay, cell pyramid ${perStay(pyramid)}`;
    },
  );
  await store.close();
  send({ done: true });
}

// --- the gateway's process -----------------------------------------------------------------------

async function serve(input: { slots: Slots; dataDir: string; databaseUrl: string | null }): Promise<void> {
  const { createApp } = await import('../src/app.ts');
  const { defaults } = await import('../src/defaults.ts');
  const { simulatedSlots } = await import('../src/compose/supplier-slots.ts');
  const { createBenchKey } = await import('./bench-key.ts');
  const { openStores } = await import('../src/compose/open-stores.ts');
  // The content worker's thread closes once idle (inventory/content-worker-client.ts): the steady
  // state is measured once it has, as a gateway between refreshes runs.
  const threads = new Set<Worker>();
  const { CONTENT_WORKER_NAME } = await import('../src/inventory/content-worker-client.ts');
  process.on('worker', (w) => {
    // Not Node's own threads (on Node 24 the module hooks' thread is one, and never exits).
    if (w.threadName !== CONTENT_WORKER_NAME) return;
    threads.add(w);
    w.once('exit', () => threads.delete(w));
  });
  const threadsGone = () => Promise.all([...threads].map((w) => new Promise((resolve) => w.once('exit', resolve))));
  const started = performance.now();
  const settings = { ...defaults, dataDir: input.dataDir, keyedPerMinute: 1_000_000, contentRefreshMs: 0 };
  const { databaseUrl } = input;
  const app = createApp({
    settings,
    suppliers: simulatedSlots(input.slots),
    stores: databaseUrl === null ? undefined : await openStores({ dataDir: input.dataDir, databaseUrl, settings }),
  });
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  await app.ready;
  const warmStartS = (performance.now() - started) / 1000;
  await threadsGone();
  globalThis.gc?.();
  const key = await createBenchKey(input.dataDir, databaseUrl);
  process.send!({
    warmStartS,
    // From the process's start: its modules' loading too, which a cold page cache slows.
    fromProcessStartS: performance.now() / 1000,
    steadyRssMb: mb(process.memoryUsage().rss),
    heapMb: mb(process.memoryUsage().heapUsed),
    gateway: `http://127.0.0.1:${(app.http.server.address() as { port: number }).port}`,
    key,
  });
  process.on('message', async (m) => {
    if (m !== 'refresh') return;
    globalThis.gc?.();
    const steady = process.memoryUsage().rss;
    const rssPeak = watchRssPeak();
    const t = performance.now();
    const pulls: string[] = [];
    let changed = 0;
    let applied = false;
    let only: SupplierId[] | undefined;
    for (let pull = 1; pull <= REFRESH_TRIES; pull++) {
      const outcome = await app.refreshContent(only);
      const r = outcome.result;
      const stays = r === null ? 0 : r.added + r.removed + r.changed;
      changed += stays;
      const feeds = Object.entries(outcome.feeds);
      pulls.push(
        outcome.elsewhere
          ? 'another process held the content lease'
          : feeds
              .map(([id, f]) => `${id} ${f.ok ? `${f.listings} listings` : `failed (${f.error})`} in ${(f.ms / 1000).toFixed(1)} s`)
              .join(', ') + `; ${r === null ? 'nothing published' : `${stays} stays changed`}`,
      );
      applied = r !== null && feeds.every(([, f]) => f.ok);
      if (applied) break;
      // The failed feeds again, or all of them when none was pulled (the lease held elsewhere).
      only = outcome.elsewhere ? undefined : feeds.filter(([, f]) => !f.ok).map(([id]) => id as SupplierId);
      if (pull < REFRESH_TRIES) await new Promise((resolve) => setTimeout(resolve, settings.contentRetryMs));
    }
    const s = (performance.now() - t) / 1000;
    const peak = rssPeak.stop();
    await threadsGone();
    globalThis.gc?.();
    process.send!({
      refreshed: {
        s,
        changed,
        pulls,
        applied,
        steadyMb: mb(steady),
        peakMb: mb(peak),
        afterMb: mb(process.memoryUsage().rss),
      },
    });
  });
  process.on('disconnect', () => process.exit(0));
}

/** A refresh of the warm gateway after the world moved REFRESH_DAYS, static searches running all along. */
async function refreshUnderLoad(gateway: ChildProcess, next: <T>() => Promise<T>, url: string, key: string, controlUrl: string) {
  // Over node:http, not fetch: moving a 10M world takes the simulator more than fetch's 300 s
  // wait for response headers, which failed the first 10M run's refresh before it started.
  const status = await new Promise<number>((resolve, reject) =>
    request(`${controlUrl}/world/advance?days=${REFRESH_DAYS}`, { method: 'POST' }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    })
      .on('error', reject)
      .end(),
  );
  if (status !== 200) throw new Error(`the simulator refused to advance the world: ${status}`);
  let instance: autocannon.Instance | undefined;
  const load = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      { url: url + QUERIES.static, connections: 10, duration: 4 * 3_600, headers: { 'x-api-key': key } },
      (error, res) => (error ? reject(error) : resolve(res)),
    );
  });
  gateway.send('refresh');
  const { refreshed } = await next<{ refreshed: Omit<RefreshFigures, 'requests' | 'failed' | 'p99Ms'> }>();
  instance!.stop();
  const result = await load;
  return {
    ...refreshed,
    requests: result.requests.total,
    failed: result.errors + result.timeouts + result.non2xx,
    p99Ms: result.latency.p99,
  } satisfies RefreshFigures;
}

// --- the driver ------------------------------------------------------------------------------------

/** A child's messages in order, and its exit as an error (with its stderr's tail). */
function inboxOf(child: ChildProcess, stderr: { tail: string }) {
  const inbox: unknown[] = [];
  let wake = () => {};
  let exitedWith: string | null = null;
  child.on('message', (m) => {
    inbox.push(m);
    wake();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr.tail = (stderr.tail + chunk.toString()).slice(-2_000);
  });
  child.once('exit', (code, signal) => {
    exitedWith = `exited with ${code ?? signal}`;
    wake();
  });
  return async <T>(): Promise<T> => {
    while (inbox.length === 0) {
      if (exitedWith !== null) throw new Error(`${exitedWith}: ${stderr.tail.trim().split('\n').slice(-6).join(' | ')}`);
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
    return inbox.shift() as T;
  };
}

/** A child's largest resident memory seen (sampled each second): how far a stage got before it died. */
function watchRss(child: ChildProcess): { peakMb(): number; stop(): void } {
  let peak = 0;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, kbField(statusOf(child.pid!), 'VmRSS'));
    } catch {
      // exited
    }
  }, 1_000);
  timer.unref(); // never what keeps the driver alive
  return { peakMb: () => mb(peak), stop: () => clearInterval(timer) };
}

/** Sequential GETs of one path: median and p99 in ms. */
async function latency(url: string, key: string): Promise<{ medianMs: number; p99Ms: number }> {
  const once = async () => {
    const t = performance.now();
    const res = await fetch(url, { headers: { 'x-api-key': key } });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${url}: ${res.status}`);
    return performance.now() - t;
  };
  for (let i = 0; i < 20; i++) await once();
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) times.push(await once());
  return { medianMs: quantile(times, 0.5), p99Ms: quantile(times, 0.99) };
}

/** A schema of this run for one size, at PG_BASE: its URL, or null (said) when PostgreSQL cannot be reached. */
async function pgSchema(stays: number): Promise<string | null> {
  const schema = `world_scale_${process.pid}_${stays}`;
  const admin = new pg.Client({ connectionString: PG_BASE });
  try {
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}`);
    pgSchemas.push(schema);
  } catch (error) {
    console.error(`[world-scale] PostgreSQL (${PG_BASE}) not measured: ${(error as Error).message}`);
    return null;
  } finally {
    await admin.end().catch(() => undefined);
  }
  const url = new URL(PG_BASE);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

async function dropPgSchemas(): Promise<void> {
  if (pgSchemas.length === 0) return;
  const admin = new pg.Client({ connectionString: PG_BASE });
  await admin.connect();
  for (const schema of pgSchemas) await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.end();
}

/** A gateway on the data folder (or PostgreSQL), in a process of its own (`--serve`). */
function forkGateway(input: { slots: Slots; dataDir: string; databaseUrl: string | null }): ChildProcess {
  return fork(new URL(import.meta.url).pathname, ['--serve', JSON.stringify(input)], {
    execArgv: ['--expose-gc', '--import', 'tsx'],
    // glibc's malloc as `npm start` and the Dockerfile set it (docs/decisions.md 205).
    env: { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072', ...process.env },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
}

/** A warm gateway on the data folder (or PostgreSQL): its start, steady memory and latencies; then `then`, if given, with it still up. */
async function warmGateway(
  input: { slots: Slots; dataDir: string; databaseUrl: string | null },
  then?: (gateway: ChildProcess, next: <T>() => Promise<T>, served: { gateway: string; key: string }) => Promise<void>,
): Promise<WarmFigures> {
  const gateway = forkGateway(input);
  const figures: WarmFigures = {};
  try {
    const next = inboxOf(gateway, { tail: '' });
    const served = await next<{ warmStartS: number; steadyRssMb: number; heapMb: number; gateway: string; key: string }>();
    figures.warmStartS = served.warmStartS;
    figures.steadyRssMb = served.steadyRssMb;
    figures.heapMb = served.heapMb;
    const page = (await (await fetch(served.gateway + QUERIES.static, { headers: { 'x-api-key': served.key } })).json()) as {
      results?: { id: string }[];
    };
    const ids = (page.results ?? []).slice(0, 3).map((s) => s.id);
    figures.latency = {
      'static search': await latency(served.gateway + QUERIES.static, served.key),
      'clustered search': await latency(served.gateway + QUERIES.clustered, served.key),
      'id lookup': await latency(`${served.gateway}/v3/accommodations?hotelids=${ids.join(',')}`, served.key),
    };
    await then?.(gateway, next, served);
  } catch (error) {
    const on = input.databaseUrl === null ? '' : ' on PostgreSQL';
    const stage = figures.latency === undefined ? `warm start and searches${on}` : 'refresh under load';
    figures.failure = { stage, error: (error as Error).message };
  } finally {
    await stopped(gateway);
  }
  return figures;
}

/** Stops a gateway and waits for its exit, so that the next one does not start beside it. */
async function stopped(gateway: ChildProcess): Promise<void> {
  if (gateway.exitCode !== null || gateway.signalCode !== null) return;
  const exit = new Promise((resolve) => gateway.once('exit', resolve));
  gateway.kill();
  await exit;
}

/**
 * A warm start after the page cache was dropped (`sync`, then /proc/sys/vm/drop_caches: root on
 * Linux), as after a reboot: the store, the code and the modules read from disk. Its seconds from
 * the process's start (module loading included), or why it was not measured. It drops the whole
 * machine's cache, which is why only this bench does, and last, so that no other figure is cold.
 */
async function coldStart(input: { slots: Slots; dataDir: string; databaseUrl: string | null }): Promise<number | string> {
  try {
    execFileSync('sync');
    writeFileSync('/proc/sys/vm/drop_caches', '3');
  } catch (error) {
    return `not measured: the page cache could not be dropped (${(error as Error).message.split('\n')[0]})`;
  }
  const gateway = forkGateway(input);
  try {
    return (await inboxOf(gateway, { tail: '' })<{ fromProcessStartS: number }>()).fromProcessStartS;
  } catch (error) {
    return `failed: ${(error as Error).message}`;
  } finally {
    await stopped(gateway);
  }
}

async function runSize(stays: number): Promise<SizeFigures> {
  const figures: SizeFigures = { stays, stages: [] };
  const dataDir = path.join(ROOT, String(stays));
  rmSync(dataDir, { recursive: true, force: true });
  const databaseUrl = SKIP.has('postgres') ? null : await pgSchema(stays);
  if (databaseUrl !== null) figures.pg = {};
  console.error(`[world-scale] ${stays} stays: generating the world`);
  const started = performance.now();
  const heapMb = simHeapLimitMb(stays);
  const sim = fork(new URL(import.meta.resolve('@staygate/sim/main')), [], {
    // As server.ts forks it: a world beyond the default heap is given what it needs.
    execArgv: ['--import', 'tsx', ...(heapMb === null ? [] : [`--max-old-space-size=${heapMb}`])],
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
    env: {
      ...process.env,
      STAYGATE_SIM_SEED: '42',
      STAYGATE_SIM_STAYS: String(stays),
      STAYGATE_SIM_LATENCY_MS: '0',
      STAYGATE_SIM_DATA_DIR: '',
    },
  });
  const simRss = watchRss(sim);
  try {
    const simNext = inboxOf(sim, { tail: '' });
    let slots: Slots;
    let controlUrl: string;
    try {
      ({ slots, controlUrl } = await simNext<{ slots: Slots; controlUrl: string }>());
    } catch (error) {
      const after = ((performance.now() - started) / 1000).toFixed(0);
      figures.failure = {
        stage: 'world generation (simulator)',
        error: `after ${after} s, resident ${simRss.peakMb()} MB at most: ${(error as Error).message}`,
      };
      return figures;
    }
    const simStatus = statusOf(sim.pid!);
    figures.stages.push({
      name: 'world generation (simulator)',
      s: (performance.now() - started) / 1000,
      peakMb: mb(kbField(simStatus, 'VmHWM')),
      note: `simulator resident ${mb(kbField(simStatus, 'VmRSS'))} MB once serving`,
    });
    console.error(
      `[world-scale] ${stays} stays: world generated in ${figures.stages[0].s.toFixed(1)} s, peak RSS ${figures.stages[0].peakMb} MB`,
    );

    console.error(`[world-scale] ${stays} stays: pull, merge and store, index`);
    const child = fork(new URL(import.meta.url).pathname, ['--stages', JSON.stringify({ slots, dataDir, databaseUrl })], {
      // The heap the gateway's content worker is given (inventory/content-heap-limit.ts): these are its stages.
      execArgv: ['--expose-gc', '--import', 'tsx', `--max-old-space-size=${contentHeapLimitMb()}`],
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
    });
    const next = inboxOf(child, { tail: '' });
    const childRss = watchRss(child);
    const stageStarted = performance.now();
    for (;;) {
      let m: { stage?: Stage; failure?: Failure; listings?: number; indexBytes?: number; done?: true };
      try {
        m = await next();
      } catch (error) {
        const order = ['four feeds over HTTP', 'merge, ids, store write', ...(databaseUrl === null ? [] : [PG_STAGE]), 'index build'];
        const stage = order[figures.stages.length - 1] ?? 'stages';
        childRss.stop();
        const after = ((performance.now() - stageStarted) / 1000 - figures.stages.slice(1).reduce((n, st) => n + st.s, 0)).toFixed(0);
        figures.failure = { stage, error: `after ${after} s, resident ${childRss.peakMb()} MB at most: ${(error as Error).message}` };
        return figures;
      }
      if (m.stage) {
        figures.stages.push(m.stage);
        // As it comes, so that a run stopped before the end still leaves its stages.
        console.error(`[world-scale] ${stays} stays: ${m.stage.name} ${m.stage.s.toFixed(1)} s, peak RSS ${m.stage.peakMb} MB`);
      }
      if (m.listings !== undefined) figures.listings = m.listings;
      if (m.indexBytes !== undefined) figures.indexMb = mb(m.indexBytes);
      if (m.failure) {
        figures.failure = m.failure;
        return figures;
      }
      if (m.done) {
        childRss.stop();
        child.kill();
        break;
      }
    }

    console.error(`[world-scale] ${stays} stays: entity resolution against the simulator's truth`);
    try {
      figures.quality = await mergeQuality(controlUrl, path.join(dataDir, 'staygate.sqlite'));
    } catch (error) {
      console.error(`[world-scale] ${stays} stays: entity resolution not measured: ${(error as Error).message}`);
    }

    console.error(`[world-scale] ${stays} stays: warm start and searches`);
    const refresh = SKIP.has('refresh')
      ? undefined
      : async (gateway: ChildProcess, next: <T>() => Promise<T>, served: { gateway: string; key: string }) => {
          console.error(`[world-scale] ${stays} stays: a refresh after ${REFRESH_DAYS} simulated days, searches running`);
          figures.refresh = await refreshUnderLoad(gateway, next, served.gateway, served.key, controlUrl);
        };
    const sqlite = await warmGateway({ slots, dataDir, databaseUrl: null }, refresh);
    Object.assign(figures, {
      warmStartS: sqlite.warmStartS,
      steadyRssMb: sqlite.steadyRssMb,
      heapMb: sqlite.heapMb,
      latency: sqlite.latency,
    });
    if (sqlite.failure) figures.failure = sqlite.failure;
    if (figures.pg !== undefined && databaseUrl !== null) {
      console.error(`[world-scale] ${stays} stays: warm start and searches on PostgreSQL`);
      figures.pg.warm = await warmGateway({ slots, dataDir, databaseUrl });
    }
    console.error(`[world-scale] ${stays} stays: a warm start with the page cache dropped`);
    figures.coldStart = await coldStart({ slots, dataDir, databaseUrl: null });
    return figures;
  } finally {
    simRss.stop();
    sim.kill();
  }
}

function print(base: SizeFigures, big: SizeFigures): void {
  const f1 = (x: number | undefined, unit: string) => (x === undefined ? 'not measured' : `${x.toFixed(1)} ${unit}`);
  const mbOf = (x: number | undefined) => (x === undefined ? 'not measured' : `${x} MB`);
  const perStay = (m: number | undefined, s: SizeFigures) => (m === undefined ? '' : ` (${((m * 2 ** 20) / s.stays).toFixed(0)} B/stay)`);
  for (const s of [base, big]) {
    console.log(
      `\n${s.stays.toLocaleString('en')} stays${s.listings ? `, ${s.listings.toLocaleString('en')} listings` : ''}: first start by stage`,
    );
    for (const st of s.stages)
      console.log(
        `  ${st.name.padEnd(30)} ${st.s.toFixed(1).padStart(7)} s  peak RSS ${String(st.peakMb).padStart(6)} MB${perStay(st.peakMb, s)}${
          st.heapMb !== undefined ? `, heap after ${st.heapMb} MB` : ''
        }${st.note ? `; ${st.note}` : ''}`,
      );
    const total = s.stages.filter((st) => st.name !== PG_STAGE).reduce((n, st) => n + st.s, 0);
    console.log(`  ${'first start (sum)'.padEnd(30)} ${total.toFixed(1).padStart(7)} s${s.failure ? ' (incomplete)' : ''}`);
    if (s.failure) console.log(`  FAILED at ${s.failure.stage}: ${s.failure.error.split('\n').slice(0, 3).join(' ')}`);
  }
  console.log(`\ntargets at ${big.stays.toLocaleString('en')} stays (160k of the same run beside):`);
  const startOf = (s: number | string | undefined) => (typeof s === 'number' ? f1(s, 's') : (s ?? 'not measured'));
  const startMet = (s: number | string | undefined) => (typeof s !== 'number' ? '' : s < TARGETS.warmStartS ? ' met' : ' MISSED');
  console.log(
    `  warm start: ${f1(big.warmStartS, 's')} (160k: ${f1(base.warmStartS, 's')}), target < ${TARGETS.warmStartS} s${startMet(big.warmStartS)}`,
  );
  console.log(
    `  warm start with the page cache dropped (from the process's start): ${startOf(big.coldStart)} (160k: ${startOf(base.coldStart)}), target < ${TARGETS.warmStartS} s${startMet(big.coldStart)}`,
  );
  console.log(
    `  gateway RSS in steady state: ${mbOf(big.steadyRssMb)} (160k: ${mbOf(base.steadyRssMb)}), target < ${TARGETS.steadyRssMb} MB${
      big.steadyRssMb === undefined ? '' : big.steadyRssMb < TARGETS.steadyRssMb ? ' met' : ' MISSED'
    }`,
  );
  const parts = (f: SizeFigures) =>
    f.steadyRssMb === undefined || f.heapMb === undefined || f.indexMb === undefined
      ? null
      : { heap: f.heapMb, index: f.indexMb, rest: f.steadyRssMb - f.heapMb - f.indexMb };
  const [bigParts, baseParts] = [parts(big), parts(base)];
  if (bigParts !== null && baseParts !== null) {
    const part = (name: string, key: keyof typeof bigParts) =>
      `${name} ${bigParts[key]} MB (160k: ${baseParts[key]}; ${(((bigParts[key] - baseParts[key]) * 2 ** 20) / (big.stays - base.stays)).toFixed(0)} B a stay more)`;
    console.log(
      `    of it: ${part("the gateway thread's JS heap", 'heap')}, ${part('index columns and cell pyramid', 'index')}, ${part('the rest (SQLite, code, the allocator)', 'rest')}`,
    );
  }
  const [qa, qb] = [base.quality, big.quality];
  console.log(
    qa === undefined || qb === undefined
      ? '  entity resolution: not measured'
      : `  entity resolution (pairwise, against the simulator's truth): precision ${qb.precision.toFixed(5)} (160k: ${qa.precision.toFixed(5)}), recall ${qb.recall.toFixed(5)} (160k: ${qa.recall.toFixed(5)}); ${qb.mergedPairs.toLocaleString('en')} pairs merged, ${qb.truePairs.toLocaleString('en')} true${qb.unknown > 0 ? `, ${qb.unknown} listings the truth does not name` : ''}; target at or above today's (${TODAYS_MERGE.precision} / ${TODAYS_MERGE.recall})${
          qb.precision >= TODAYS_MERGE.precision && qb.recall >= TODAYS_MERGE.recall ? ' met' : ' MISSED'
        }`,
  );
  for (const q of ['static search', 'clustered search', 'id lookup']) {
    const a = base.latency?.[q];
    const b = big.latency?.[q];
    if (a === undefined || b === undefined) {
      console.log(`  ${q}: not measured${a ? ` (160k: median ${a.medianMs.toFixed(2)} ms, p99 ${a.p99Ms.toFixed(2)} ms)` : ''}`);
      continue;
    }
    const rm = b.medianMs / a.medianMs;
    const rp = b.p99Ms / a.p99Ms;
    console.log(
      `  ${q}: median ${b.medianMs.toFixed(2)} ms vs ${a.medianMs.toFixed(2)} (x${rm.toFixed(2)}), p99 ${b.p99Ms.toFixed(2)} vs ${a.p99Ms.toFixed(2)} ms (x${rp.toFixed(
        2,
      )}), target <= x${TARGETS.latencyRatio}${rm <= TARGETS.latencyRatio && rp <= TARGETS.latencyRatio ? ' met' : ' MISSED'}`,
    );
  }
  const refreshOf = (r: RefreshFigures | undefined) =>
    r === undefined
      ? 'not measured'
      : `${r.s.toFixed(1)} s, ${r.changed} stays changed${r.pulls.length > 1 ? ' (summed over the pulls: a stay two pulls changed counts twice)' : ''}, ${r.requests} searches, ${r.failed} failed, p99 ${r.p99Ms} ms; RSS ${r.steadyMb} MB steady, ${r.peakMb} MB at the peak (two versions' indexes and the worker's build), ${r.afterMb} MB after; ${r.pulls
          .map((p, i) => `pull ${i + 1}: ${p}`)
          .join('; ')}`;
  const r = big.refresh;
  const skipped = (part: string) => (SKIP.has(part) ? ' (skipped: STAYGATE_BENCH_WORLD_SKIP)' : '');
  console.log(
    `  content refresh while serving${skipped('refresh')}: ${refreshOf(r)}; target no failed request and p99 < ${TARGETS.refreshP99Ms} ms${
      r === undefined
        ? ''
        : !r.applied
          ? ` NOT MEASURED: no pull of ${REFRESH_TRIES} applied every feed`
          : r.failed === 0 && r.p99Ms < TARGETS.refreshP99Ms
            ? ' met'
            : ' MISSED'
    }`,
  );
  console.log(`    160k: ${refreshOf(base.refresh)}`);
  for (const s of [big, base]) {
    const write = (name: string) => s.stages.find((st) => st.name === name);
    const pgWrite = write(PG_STAGE);
    const pgWarm = s.pg?.warm;
    const head = `  PostgreSQL beside SQLite at ${s.stays.toLocaleString('en')} stays:`;
    if (s.pg === undefined || pgWrite === undefined) {
      console.log(`${head} not measured${skipped('postgres')}`);
      continue;
    }
    const sqliteWrite = write('merge, ids, store write');
    const ms = (name: string, w: WarmFigures | undefined) => w?.latency?.[name]?.medianMs.toFixed(2) ?? '-';
    console.log(
      `${head} merge and store write ${pgWrite.s.toFixed(1)} s (SQLite ${sqliteWrite?.s.toFixed(1)} s), peak RSS ${pgWrite.peakMb} MB; ` +
        `warm start ${f1(pgWarm?.warmStartS, 's')} (SQLite ${f1(s.warmStartS, 's')}), steady RSS ${mbOf(pgWarm?.steadyRssMb)}` +
        (pgWarm?.failure ? `; FAILED at ${pgWarm.failure.stage}: ${pgWarm.failure.error}` : ''),
    );
    console.log(
      `    medians on PostgreSQL (SQLite): ${['static search', 'clustered search', 'id lookup'].map((q) => `${q} ${ms(q, pgWarm)} ms (${ms(q, s)})`).join(', ')}`,
    );
  }
}

const [role, arg] = process.argv.slice(2);
if (role === '--stages') await stages(JSON.parse(arg));
else if (role === '--serve') await serve(JSON.parse(arg));
else {
  console.log(
    `world-scale: ${STAYS.toLocaleString('en')} stays (STAYGATE_BENCH_WORLD_STAYS) and ${DEFAULT_STAYS.toLocaleString('en')}; load ${readFileSync('/proc/loadavg', 'utf8').trim()}`,
  );
  const wall = performance.now();
  const base = await runSize(DEFAULT_STAYS);
  const big = STAYS === DEFAULT_STAYS ? base : await runSize(STAYS);
  print(base, big);
  console.log(`\nwhole run ${((performance.now() - wall) / 60_000).toFixed(1)} min; load ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
  rmSync(ROOT, { recursive: true, force: true });
  await dropPgSchemas();
}
