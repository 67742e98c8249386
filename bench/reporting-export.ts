// Exporting a partner's 200,000 transactions as CSV over real HTTP: GET /v1/reporting/transactions
// page after page (limit 500, the spec's maximum) on one keep-alive connection, as a partner's
// export script would. Targets: at least 200,000 rows per second, and the gateway's memory (RSS)
// growing by less than 100 MB while it streams.
// The transactions are seeded straight into a bench-only database through the store (for a
// benchmark, not how transactions are made: see reporting/seed-demo.ts for that). The gateway runs
// in a process of its own (with a small simulated world for its inventory) and samples its own
// memory; this process only sends requests. Baseline, in this process: the same rows read from
// SQLite column by column and written through csv-stringify, the way the export would go if CSV
// were rendered at read time.
import { fork } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import Database from 'better-sqlite3';
import { stringify } from 'csv-stringify';
import pg from 'pg';
import { createKeyAdmin } from '../src/auth/key-admin.ts';
import { openStores } from '../src/compose/open-stores.ts';
import { CSV_HEADER, escapeFormula } from '../src/reporting/transaction-csv.ts';
import { TRANSACTION_FIELDS, toRecord, type TransactionRow } from '../src/reporting/transaction.ts';
import { simulatedSlots } from '../src/compose/supplier-slots.ts';
import { SUPPLIER_IDS, type Settings } from '../src/types.ts';
import { defaults } from '../src/defaults.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 200_000);
const OTHER_ROWS = 50_000; // another partner's, in the same table and indexes
const RUNS = 3;
const LIMIT = 500;
const DIR = path.resolve('.bench', 'reporting-export');
const DATABASE = path.join(DIR, 'staygate.sqlite');
const START_DATE = '2025-11-01';
const END_DATE = '2026-11-30';
const RANGE = `startDate=${START_DATE}&endDate=${END_DATE}`;
// BENCH_ENGINE=postgres: the same export with every store on PostgreSQL (a schema of its own in
// the `test` database, made afresh), as gateways behind a load balancer run (issue 14).
const POSTGRES = process.env.BENCH_ENGINE === 'postgres';
const PG_BASE = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const PG_SCHEMA = 'bench_reporting_export';
const PG_APPLICATION = 'staygate-bench-reporting-export';
const databaseUrl = (): string | null => {
  if (!POSTGRES) return null;
  const url = new URL(PG_BASE);
  // The application name picks this bench's server processes out of pg_stat_activity (their CPU time).
  url.searchParams.set('options', `-c search_path=${PG_SCHEMA} -c application_name=${PG_APPLICATION}`);
  return url.toString();
};

// Its own limit: an export of 400 pages is more than the default 150 requests a minute.
const BENCH_KEY = { aid: 'bench', thirdParties: ['bench-shop'], limitPerMinute: 1_000_000 };

function transaction(i: number, partnerId: string): TransactionRow {
  const supplier = SUPPLIER_IDS[i % 4];
  const updated = Date.UTC(2025, 10, 21) + Math.floor((i / ROWS) * 365 * 86_400_000);
  const booked = updated - (i % 40) * 86_400_000;
  const start = new Date(booked + (3 + (i % 90)) * 86_400_000).toISOString().slice(0, 10);
  const end = new Date(booked + (5 + (i % 90)) * 86_400_000).toISOString().slice(0, 10);
  const campaigns = ['newsletter-spring', 'blog-city-guides', 'sidebar-banner', null, '=cmd|/C calc-A0'];
  return {
    supplier,
    bookingId: `${partnerId}-${String(i).padStart(9, '0')}`,
    clickId: `click-${partnerId}-${i}`,
    aid: partnerId,
    partnerId,
    campaign: campaigns[i % campaigns.length],
    device: (['desktop', 'mobile', 'tablet', 'unknown'] as const)[i % 4],
    bookedAt: new Date(booked).toISOString(),
    startDate: start,
    endDate: end,
    status: (['Pending', 'Approved', 'Canceled'] as const)[i % 3],
    commissionCents: i % 3 === 2 ? 0 : 500 + (i % 20_000),
    quantity: 1 + (i % 7),
    information: `Hôtel "Lumière" ${i % 977}, ${1 + (i % 7)} nights, 1 room`,
    destination: ['Paris, FR', 'Rome, IT', 'Tokyo, JP'][i % 3],
    userCountry: ['DE', 'US', 'FR', 'GB'][i % 4],
    lastUpdated: new Date(updated).toISOString(),
  };
}

/**
 * The bench's database: seeded afresh unless it already holds exactly the seeded rows (a later run
 * reuses it; BENCH_RESEED=1 forces a new one), and a key of its own for this run.
 */
async function seed(): Promise<{ key: string; ms: number; reused: boolean }> {
  const started = performance.now();
  if (process.env.BENCH_RESEED !== '1') {
    const stores = await openStores({ dataDir: DIR, databaseUrl: databaseUrl(), settings: defaults }, { content: false }).catch(() => null);
    if (stores !== null) {
      const { total } = await stores.transactions.stats();
      const { key } = total === ROWS + OTHER_ROWS ? await createKeyAdmin(stores.keys).create(BENCH_KEY) : { key: null };
      await stores.close();
      if (key !== null) return { key, ms: performance.now() - started, reused: true };
    }
  }
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  if (POSTGRES) {
    const admin = new pg.Client({ connectionString: PG_BASE });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${PG_SCHEMA} CASCADE; CREATE SCHEMA ${PG_SCHEMA}`);
    await admin.end();
  }
  const stores = await openStores({ dataDir: DIR, databaseUrl: databaseUrl(), settings: defaults });
  const store = stores.transactions;
  const sync = { syncedThrough: new Date().toISOString(), syncedAt: new Date().toISOString() };
  for (const [partner, count] of [
    ['bench', ROWS],
    ['other', OTHER_ROWS],
  ] as const) {
    for (const supplier of SUPPLIER_IDS) {
      const rows: TransactionRow[] = [];
      for (let i = SUPPLIER_IDS.indexOf(supplier); i < count; i += 4) rows.push(transaction(i, partner));
      await store.applyReport(supplier, rows, sync);
    }
  }
  const { key } = await createKeyAdmin(stores.keys).create(BENCH_KEY);
  await stores.close();
  return { key, ms: performance.now() - started, reused: false };
}

/** The gateway, in its own process: a small simulated world for its inventory, the seeded database. */
async function serve(): Promise<void> {
  // The comparison's other side: the same gateway reading each page only when asked (decision 103).
  const settings: Settings = {
    ...defaults,
    dataDir: DIR,
    reportSyncIntervalMs: 0,
    reportingReadAheadMs: process.argv.includes('--no-read-ahead') ? 0 : defaults.reportingReadAheadMs,
  };
  const { createApp } = await import('../src/app.ts');
  const { generateWorld, startSimSuppliers } = await import('@staygate/sim');
  const sim = await startSimSuppliers({ world: generateWorld({ seed: 3, stays: 1_000 }), latencyMs: 0 });
  const stores = await openStores({ dataDir: DIR, databaseUrl: databaseUrl(), settings });
  const app = createApp({
    settings,
    stores,
    suppliers: simulatedSlots(sim.slots),
    geocoder: { geocode: async () => null },
  });
  await app.ready;
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  let peak = 0;
  let sampler: NodeJS.Timeout | null = null;
  let floor: http.Server | null = null;
  let storeFloor: http.Server | null = null;
  let cpu = process.cpuUsage();
  process.on('message', (message: string | { floor: string } | { storeFloor: string }) => {
    if (typeof message === 'object' && 'storeFloor' in message) {
      // The floor with the database: a bare node:http server in this process reading each page
      // through the gateway's own store (the same query, the same pool), then sending it with its
      // length; no framework, no key check, no rate limit, no log. What the store and HTTP alone
      // cost a page: the export cannot run faster than this on this machine.
      const partnerId = message.storeFloor;
      storeFloor = http.createServer((request, response) => {
        const page = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('page'));
        void (async () => {
          let csv = CSV_HEADER;
          for await (const lines of stores.transactions.csvPage({
            partnerId,
            dateFilter: 'lastUpdatedDate',
            startDate: START_DATE,
            endDate: END_DATE,
            limit: LIMIT,
            page,
          }))
            csv += lines;
          response.writeHead(200, { 'content-type': 'text/csv; charset=utf-8', 'content-length': Buffer.byteLength(csv) });
          response.end(csv);
        })();
      });
      storeFloor.listen(0, '127.0.0.1', () =>
        process.send!({ floorUrl: `http://127.0.0.1:${(storeFloor!.address() as { port: number }).port}` }),
      );
    } else if (typeof message === 'object') {
      // The baseline: a bare node:http server in this process answering every request with one
      // page's bytes, as fast as HTTP alone carries a page to this client.
      const page = Buffer.from(message.floor);
      floor = http.createServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'text/csv; charset=utf-8', 'content-length': page.length });
        response.end(page);
      });
      floor.listen(0, '127.0.0.1', () => process.send!({ floorUrl: `http://127.0.0.1:${(floor!.address() as { port: number }).port}` }));
    } else if (message === 'start') {
      global.gc?.();
      cpu = process.cpuUsage();
      const before = process.memoryUsage.rss();
      peak = before;
      sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage.rss());
      }, 5);
      process.send!({ before });
    } else if (message === 'stop') {
      clearInterval(sampler!);
      peak = Math.max(peak, process.memoryUsage.rss());
      const used = process.cpuUsage(cpu);
      process.send!({ peak, cpuMs: (used.user + used.system) / 1_000 });
    }
  });
  process.send!({ url: `http://127.0.0.1:${(app.http.server.address() as { port: number }).port}` });
  process.on(
    'disconnect',
    () =>
      void app
        .close()
        .then(() => floor?.close())
        .then(() => storeFloor?.close())
        .then(() => sim.close())
        .finally(() => process.exit(0)),
  );
}

function ask<T>(child: ReturnType<typeof fork>, message: string | { floor: string } | { storeFloor: string }): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as T));
    child.send(message);
  });
}

// One keep-alive connection, as an export script would hold; node:http rather than fetch, whose
// own overhead per request would be measured as the gateway's.
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One page: its status and the number of CRLF-ended lines (the header included); the body when kept. */
function getPage(url: string, key: string, keep: boolean): Promise<{ status: number; lines: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers: { 'x-api-key': key } }, (res) => {
        let lines = 0;
        let body = '';
        res.on('data', (chunk: Buffer) => {
          for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
          if (keep || res.statusCode !== 200) body += chunk.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, lines, body }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/**
 * One whole export, page by page; returns rows and milliseconds. `check` (the untimed warm-up):
 * every row exactly once, in the export's order (lastUpdatedDate, provider, bookingId).
 */
async function exportAll(url: string, key: string, check = false): Promise<{ rows: number; ms: number; pages: number; first: string }> {
  const started = performance.now();
  let rows = 0;
  let pages = 0;
  let first = '';
  let previous = '';
  const seen = new Set<string>();
  for (let page = 0; ; page++) {
    const response = await getPage(
      `${url}/v1/reporting/transactions?thirdParty=bench-shop&${RANGE}&limit=${LIMIT}&page=${page}`,
      key,
      check,
    );
    if (response.status !== 200) throw new Error(`page ${page}: ${response.status} ${response.body}`);
    const lines = response.lines - 1; // the header
    if (page === 0) first = response.body;
    if (check) {
      for (const line of response.body.split('\r\n').slice(1, -1)) {
        const cells = line.split(',');
        const sortKey = `${cells.at(-1)}|${cells[0]}|${cells[1]}`;
        if (sortKey <= previous || seen.has(cells[1]))
          throw new Error(`page ${page}: ${sortKey} out of order or repeated after ${previous}`);
        seen.add(cells[1]);
        previous = sortKey;
      }
    }
    rows += lines;
    pages++;
    if (lines < LIMIT) break;
  }
  if (check && seen.size !== ROWS) throw new Error(`exported ${seen.size} distinct rows, expected ${ROWS}`);
  return { rows, ms: performance.now() - started, pages, first };
}

/** The floor: as many full pages as the export has, from the bare server answering page 0's bytes. */
async function floorAll(floorUrl: string, key: string): Promise<{ rows: number; ms: number }> {
  const started = performance.now();
  let rows = 0;
  for (let page = 0; page < Math.ceil(ROWS / LIMIT); page++) rows += (await getPage(`${floorUrl}/?page=${page}`, key, false)).lines - 1;
  return { rows, ms: performance.now() - started };
}

/**
 * CPU time so far (user + system, ms) of each PostgreSQL server process serving the gateway (by
 * its application name), read from /proc: PostgreSQL runs on this machine. Empty on SQLite.
 */
async function backendCpuMs(admin: pg.Client | null): Promise<Map<number, number>> {
  const times = new Map<number, number>();
  if (admin === null) return times;
  const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [PG_APPLICATION]);
  for (const { pid } of rows) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      times.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1_000) / CLOCK_TICKS);
    } catch {
      // Gone, or not on this machine: not counted.
    }
  }
  return times;
}
/** Linux's USER_HZ, the unit of /proc/<pid>/stat's times. */
const CLOCK_TICKS = 100;

function cpuSince(before: Map<number, number>, after: Map<number, number>): number {
  let ms = 0;
  for (const [pid, now] of after) ms += now - (before.get(pid) ?? 0);
  return ms;
}

/** The baseline: the same rows, read column by column and written through csv-stringify, no HTTP. */
async function renderAtReadTime(): Promise<number> {
  const db = new Database(DATABASE, { readonly: true });
  const started = performance.now();
  const select = db.prepare(`SELECT supplier, booking_id AS bookingId, click_id AS clickId, aid, partner_id AS partnerId, campaign, device,
    booked_at AS bookedAt, start_date AS startDate, end_date AS endDate, status, commission_cents AS commissionCents, quantity,
    information, destination, user_country AS userCountry, last_updated AS lastUpdated
    FROM transactions WHERE partner_id = 'bench' ORDER BY partner_id, last_updated, supplier, booking_id`);
  const records = (function* () {
    for (const row of select.iterate() as Iterable<TransactionRow>) {
      const record = toRecord(row);
      yield TRANSACTION_FIELDS.map((f) => {
        const value = record[f];
        return Array.isArray(value) ? JSON.stringify(value) : typeof value === 'string' ? escapeFormula(value) : value;
      });
    }
  })();
  let bytes = 0;
  const out = Readable.from(records).pipe(stringify({ record_delimiter: 'windows' }));
  for await (const chunk of out) bytes += (chunk as Buffer).length;
  const ms = performance.now() - started;
  db.close();
  return bytes > 0 ? ms : NaN;
}

// The benchmark's script in the order it prints its figures (seed or reuse, each export format
// and engine, the ratios): one function so that the printed report and the code read alike.
async function drive(): Promise<void> {
  const seeded = await seed();
  console.log(
    seeded.reused
      ? `reusing the bench-only database of an earlier run (${ROWS} transactions of the partner and ${OTHER_ROWS} of another; BENCH_RESEED=1 seeds it afresh)`
      : `seeded ${ROWS} transactions of the partner and ${OTHER_ROWS} of another in ${(seeded.ms / 1_000).toFixed(1)} s (bench-only database)`,
  );
  // BENCH_CPU_PROF=<dir>: the gateway writes a V8 CPU profile there when it exits (node --cpu-prof).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  // On PostgreSQL a second gateway that does not read the next page ahead (decision 103, on by
  // default), alternated run by run with the first: the read-ahead's gain measured under the same load.
  const variants = POSTGRES ? ['default, read ahead', 'no read-ahead'] : ['gateway'];
  const start = async (args: string[]) => {
    const child = fork(new URL(import.meta.url).pathname, ['--serve', ...args], {
      execArgv: ['--expose-gc', ...profile, '--import', 'tsx'],
    });
    const { url } = await new Promise<{ url: string }>((resolve, reject) => {
      child.once('message', (m) => resolve(m as { url: string }));
      child.once('exit', (code) => reject(new Error(`gateway exited with ${code}`)));
    });
    return { child, url };
  };
  const gateways: { child: ReturnType<typeof fork>; url: string }[] = [];
  for (const variant of variants) gateways.push(await start(variant === 'no read-ahead' ? ['--no-read-ahead'] : []));
  // The floors are served by a process of their own: in a measured gateway, the garbage of their
  // pages was collected during its export and counted against it (it ran x0.6 of the other).
  const floorHost = await start(['--no-read-ahead']);
  const { child } = floorHost;
  // Warm-up (JIT, page cache), checking every row once and in order.
  let first = '';
  for (const { url } of gateways) ({ first } = await exportAll(url, seeded.key, true));
  const { floorUrl } = await ask<{ floorUrl: string }>(child, { floor: first });
  await floorAll(floorUrl, seeded.key);
  const { floorUrl: storeFloorUrl } = await ask<{ floorUrl: string }>(child, { storeFloor: BENCH_KEY.aid });
  await floorAll(storeFloorUrl, seeded.key);
  const admin = POSTGRES ? new pg.Client({ connectionString: PG_BASE }) : null;
  await admin?.connect();
  type Run = { rows: number; ms: number; growthMb: number; cpuMs: number };
  const runsOf: Run[][] = variants.map(() => []);
  const runs = runsOf[0];
  const floors: number[] = [];
  const storeFloors: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    // Alternated with the export, so both see the same load on the shared machine.
    const floor = await floorAll(floorUrl, seeded.key);
    floors.push(floor.rows / (floor.ms / 1_000));
    const withStore = await floorAll(storeFloorUrl, seeded.key);
    storeFloors.push(withStore.rows / (withStore.ms / 1_000));
    for (const [v, gateway] of gateways.entries()) {
      const { before } = await ask<{ before: number }>(gateway.child, 'start');
      const backendsBefore = await backendCpuMs(admin);
      const clientBefore = process.cpuUsage();
      const result = await exportAll(gateway.url, seeded.key);
      const client = process.cpuUsage(clientBefore);
      const backendMs = cpuSince(backendsBefore, await backendCpuMs(admin));
      const { peak, cpuMs: gatewayMs } = await ask<{ peak: number; cpuMs: number }>(gateway.child, 'stop');
      if (result.rows !== ROWS) throw new Error(`exported ${result.rows} rows, expected ${ROWS}`);
      const clientMs = (client.user + client.system) / 1_000;
      runsOf[v].push({ rows: result.rows, ms: result.ms, growthMb: (peak - before) / 1_048_576, cpuMs: gatewayMs + backendMs + clientMs });
      const perPage = (ms: number) => (ms / result.pages).toFixed(2);
      console.log(
        `run ${run + 1}${POSTGRES ? ` (${variants[v]})` : ''}: ${result.rows} rows in ${result.pages} pages, ${result.ms.toFixed(0)} ms = ${Math.round(result.rows / (result.ms / 1_000))} rows/s; ` +
          `gateway RSS +${((peak - before) / 1_048_576).toFixed(1)} MB at peak; floor ${Math.round(floors[run])} rows/s, ` +
          `with the store ${Math.round(storeFloors[run])} rows/s\n` +
          `  CPU per page: gateway ${perPage(gatewayMs)} ms${POSTGRES ? `, PostgreSQL ${perPage(backendMs)} ms` : ''}, client ${perPage(clientMs)} ms`,
      );
    }
  }
  if (POSTGRES) {
    const rateOf = (rs: Run[]) => {
      const m = [...rs].sort((a, b) => a.ms - b.ms)[Math.floor(rs.length / 2)];
      return Math.round(m.rows / (m.ms / 1_000));
    };
    const [on, off] = runsOf.map(rateOf);
    console.log(
      `read-ahead (the default): median ${on} rows/s, without it ${off} rows/s (x${(on / off).toFixed(2)}, same runs alternated)`,
    );
  }
  await admin?.end();
  const median = [...runs].sort((a, b) => a.ms - b.ms)[Math.floor(runs.length / 2)];
  const rate = Math.round(median.rows / (median.ms / 1_000));
  const growth = Math.max(...runs.map((r) => r.growthMb));
  console.log(
    `median: ${rate} rows/s over HTTP on ${POSTGRES ? 'PostgreSQL' : 'SQLite'} (target >= 200000${rate < 200_000 ? ': BELOW TARGET' : ''}); ` +
      `peak memory growth ${growth.toFixed(1)} MB (target < 100 MB)`,
  );
  // Each page waits on the gateway, the database and the client in turn: with the CPUs to
  // itself, the export would run at about one page per the three's CPU time for a page. That
  // figure barely moves with the machine's load, which moves the one above severalfold.
  const cpuMs = [...runs.map((r) => r.cpuMs)].sort((a, b) => a - b)[Math.floor(runs.length / 2)];
  console.log(
    `CPU time of the gateway, ${POSTGRES ? 'PostgreSQL and ' : ''}the client together: median ${cpuMs.toFixed(0)} ms for ${ROWS} rows = ` +
      `${Math.round(ROWS / (cpuMs / 1_000))} rows per CPU-second (the rate the serial chain would reach on an idle machine)`,
  );
  const floor = [...floors].sort((a, b) => a - b)[Math.floor(floors.length / 2)];
  console.log(
    `floor, the same page's bytes from a bare node:http server in a gateway's process: median ${Math.round(floor)} rows/s; ` +
      `the export runs at ${(rate / floor).toFixed(2)} of it`,
  );
  const storeFloor = [...storeFloors].sort((a, b) => a - b)[Math.floor(storeFloors.length / 2)];
  console.log(
    `floor with the store, each page read through the gateway's store by a bare node:http server: median ${Math.round(storeFloor)} rows/s; ` +
      `the export runs at ${(rate / storeFloor).toFixed(2)} of it` +
      (storeFloor < 200_000
        ? ` (the 200000 target is above what the ${POSTGRES ? 'database' : 'store'} and HTTP alone carry on this machine)`
        : ''),
  );
  if (!POSTGRES) {
    const baselineMs = await renderAtReadTime();
    console.log(
      `baseline, CSV rendered at read time with csv-stringify (in process, no HTTP): ${Math.round(ROWS / (baselineMs / 1_000))} rows/s; ` +
        `the export over HTTP is ${(rate / (ROWS / (baselineMs / 1_000))).toFixed(1)}x that`,
    );
  }
  for (const gateway of [...gateways, floorHost]) gateway.child.disconnect();
  if (rate < 200_000 || growth >= 100) process.exitCode = 1;
}

await (process.argv.includes('--serve') ? serve() : drive());
