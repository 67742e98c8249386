// The whole first start at world scale (issue 22), stage by stage, and what it serves: the
// simulator generating the world (its own process, as `npm start` forks it), the four feeds pulled
// over HTTP, merged and written to the store (buildContentVersion, what the content worker runs),
// the version's index built; then the gateway started warm on that data folder, its resident memory
// in steady state, and the latency of a static search, a clustered search and an id lookup. All of
// it at STAYGATE_BENCH_WORLD_STAYS stays (default 7,823,145: about 10M listings at 1.28 listings a
// stay) and at the default 160,000 in the same run, for the ratios. A stage that fails (a process
// out of memory, an error) is printed with its error, and what follows it as not measured.
//
// Roles, by argv: none (the driver), `--stages <json>` (pull, merge and store, index: in a process of
// its own so that its peak is its own), `--serve <json>` (the gateway, warm).
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { simHeapLimitMb } from '@staygate/sim';
import type { SimulatedSlot } from '../src/compose/supplier-slots.ts';
import type { SupplierId } from '../src/types.ts';

const DEFAULT_STAYS = 160_000;
const STAYS = Number(process.env.STAYGATE_BENCH_WORLD_STAYS ?? 7_823_145);
/** Per run: two runs at once (two sizes) keep apart. */
const ROOT = path.resolve('.bench', `world-scale-${process.pid}`);
/** Sequential requests per query after a warm-up: enough for a p99 on a shared machine. */
const REQUESTS = 300;
const QUERIES = {
  static: '/v3/accommodations?nelat=48.875&nelng=2.38&swlat=48.84&swlng=2.31&pageSize=10',
  clustered: '/v3/accommodations?nelat=55&nelng=15&swlat=40&swlng=-10&cluster=auto&pageSize=10',
} as const;
const TARGETS = { warmStartS: 30, steadyRssMb: 3 * 1024, latencyRatio: 2, refreshP99Ms: 50 };

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
interface SizeFigures {
  stays: number;
  listings?: number;
  stages: Stage[];
  failure?: Failure;
  warmStartS?: number;
  steadyRssMb?: number;
  latency?: Record<string, { medianMs: number; p99Ms: number }>;
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

async function stages(input: { slots: Slots; dataDir: string }): Promise<void> {
  const { defaults } = await import('../src/defaults.ts');
  const { simulatedSlots } = await import('../src/compose/supplier-slots.ts');
  const { createSuppliers } = await import('../src/suppliers/create-suppliers.ts');
  const { openContentStore } = await import('../src/store/open-content-store.ts');
  const { openStores } = await import('../src/compose/open-stores.ts');
  const { buildContentVersion } = await import('../src/inventory/build-content-version.ts');
  const { buildVersionIndexParts, indexRowsOfStays } = await import('../src/inventory/version-index.ts');
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
  const store = await openContentStore({ kind: 'sqlite', path: path.join(input.dataDir, 'staygate.sqlite') }, { settings: defaults });
  const built = await measure(
    'merge, ids, store write',
    () => buildContentVersion({ store, feeds, shrinkLimit: defaults.feedShrinkLimit, settings: defaults }),
    (b) => `${b.result.stays} stays from ${b.result.listings} listings`,
  );
  send({ listings: built.result.listings });
  await measure(
    'index build',
    () => buildVersionIndexParts(built.result.no, indexRowsOfStays(built.stays!), defaults),
    (parts) => {
      const bytes = Object.values(parts.columns).reduce((n: number, c) => n + (ArrayBuffer.isView(c) ? c.byteLength : 0), 0);
      return `index columns ${(bytes / built.result.stays).toFixed(0)} bytes a stay`;
    },
  );
  await store.close();
  send({ done: true });
}

// --- the gateway's process -----------------------------------------------------------------------

async function serve(input: { slots: Slots; dataDir: string }): Promise<void> {
  const { createApp } = await import('../src/app.ts');
  const { defaults } = await import('../src/defaults.ts');
  const { simulatedSlots } = await import('../src/compose/supplier-slots.ts');
  const { createBenchKey } = await import('./bench-key.ts');
  const started = performance.now();
  const app = createApp({
    settings: { ...defaults, dataDir: input.dataDir, keyedPerMinute: 1_000_000, contentRefreshMs: 0 },
    suppliers: simulatedSlots(input.slots),
  });
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  await app.ready;
  const warmStartS = (performance.now() - started) / 1000;
  globalThis.gc?.();
  const key = await createBenchKey(input.dataDir);
  process.send!({
    warmStartS,
    steadyRssMb: mb(process.memoryUsage().rss),
    gateway: `http://127.0.0.1:${(app.http.server.address() as { port: number }).port}`,
    key,
  });
  process.on('disconnect', () => process.exit(0));
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

async function runSize(stays: number): Promise<SizeFigures> {
  const figures: SizeFigures = { stays, stages: [] };
  const dataDir = path.join(ROOT, String(stays));
  rmSync(dataDir, { recursive: true, force: true });
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
    try {
      slots = (await simNext<{ slots: Slots }>()).slots;
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
    const child = fork(new URL(import.meta.url).pathname, ['--stages', JSON.stringify({ slots, dataDir })], {
      execArgv: ['--expose-gc', '--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
    });
    const next = inboxOf(child, { tail: '' });
    const childRss = watchRss(child);
    const stageStarted = performance.now();
    for (;;) {
      let m: { stage?: Stage; failure?: Failure; listings?: number; done?: true };
      try {
        m = await next();
      } catch (error) {
        const stage = ['four feeds over HTTP', 'merge, ids, store write', 'index build'][figures.stages.length - 1] ?? 'stages';
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

    console.error(`[world-scale] ${stays} stays: warm start and searches`);
    const gateway = fork(new URL(import.meta.url).pathname, ['--serve', JSON.stringify({ slots, dataDir })], {
      execArgv: ['--expose-gc', '--import', 'tsx'],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    try {
      const served = await inboxOf(gateway, { tail: '' })<{ warmStartS: number; steadyRssMb: number; gateway: string; key: string }>();
      figures.warmStartS = served.warmStartS;
      figures.steadyRssMb = served.steadyRssMb;
      const page = (await (await fetch(served.gateway + QUERIES.static, { headers: { 'x-api-key': served.key } })).json()) as {
        results?: { id: string }[];
      };
      const ids = (page.results ?? []).slice(0, 3).map((s) => s.id);
      figures.latency = {
        'static search': await latency(served.gateway + QUERIES.static, served.key),
        'clustered search': await latency(served.gateway + QUERIES.clustered, served.key),
        'id lookup': await latency(`${served.gateway}/v3/accommodations?hotelids=${ids.join(',')}`, served.key),
      };
    } catch (error) {
      figures.failure = { stage: 'warm start and searches', error: (error as Error).message };
    } finally {
      gateway.kill();
    }
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
    const total = s.stages.reduce((n, st) => n + st.s, 0);
    console.log(`  ${'first start (sum)'.padEnd(30)} ${total.toFixed(1).padStart(7)} s${s.failure ? ' (incomplete)' : ''}`);
    if (s.failure) console.log(`  FAILED at ${s.failure.stage}: ${s.failure.error.split('\n').slice(0, 3).join(' ')}`);
  }
  console.log(`\ntargets at ${big.stays.toLocaleString('en')} stays (160k of the same run beside):`);
  console.log(
    `  warm start: ${f1(big.warmStartS, 's')} (160k: ${f1(base.warmStartS, 's')}), target < ${TARGETS.warmStartS} s${
      big.warmStartS === undefined ? '' : big.warmStartS < TARGETS.warmStartS ? ' met' : ' MISSED'
    }`,
  );
  console.log(
    `  gateway RSS in steady state: ${mbOf(big.steadyRssMb)} (160k: ${mbOf(base.steadyRssMb)}), target < ${TARGETS.steadyRssMb} MB${
      big.steadyRssMb === undefined ? '' : big.steadyRssMb < TARGETS.steadyRssMb ? ' met' : ' MISSED'
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
  console.log(
    `  content refresh at size while serving (no failed request, p99 < ${TARGETS.refreshP99Ms} ms): not measured by this benchmark yet`,
  );
  console.log(`  PostgreSQL ingest and warm start: not measured by this benchmark yet`);
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
}
