// Dated v3 searches against the four simulated suppliers answering at a fixed latency:
// 1. the median latency of a dated search against the slowest supplier's latency (target: +10 ms);
// 2. with one supplier failing (hung, down, erring, malformed, or slower than the deadline), every
//    search answers within the quote deadline plus 50 ms and the other suppliers' prices are intact.
// Every request asks for different dates, so no quote comes from the cache. The gateway and the
// simulator each run in a process of their own; this process only sends requests.
import { fork } from 'node:child_process';
import path from 'node:path';
import { createBenchKey } from './bench-key.ts';
import { createSuppliers } from '../src/suppliers/create-suppliers.ts';
import { simulatedSlots, type SimulatedSlot } from '../src/compose/supplier-slots.ts';
import type { Supplier } from '../src/suppliers/supplier.ts';
import type { SupplierId } from '../src/types.ts';
import { defaults } from '../src/defaults.ts';

const LATENCY_MS = Number(process.env.BENCH_SUPPLIER_LATENCY_MS ?? 80);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 120);
const BOX = 'nelat=48.875&nelng=2.38&swlat=48.84&swlng=2.31';

/** The simulated suppliers in their own process, as `npm start` runs them. */
function startSimulator(seed: number, stays: number): Promise<{ slots: Record<SupplierId, SimulatedSlot>; controlUrl: string }> {
  const child = fork(new URL(import.meta.resolve('@staygate/sim/main')), [], {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      STAYGATE_SIM_SEED: String(seed),
      STAYGATE_SIM_STAYS: String(stays),
      STAYGATE_SIM_LATENCY_MS: String(LATENCY_MS),
    },
  });
  process.on('exit', () => child.kill());
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve(m as never));
    child.once('exit', (code) => reject(new Error(`simulator exited with ${code}`)));
  });
}

async function serve(): Promise<void> {
  const { createApp } = await import('../src/app.ts');
  const { defaults } = await import('../src/defaults.ts');
  const sim = await startSimulator(defaults.simSeed, defaults.simStays);
  const dataDir = path.resolve('.bench', `data-${defaults.simSeed}-${defaults.simStays}`);
  const app = createApp({ settings: { ...defaults, dataDir }, suppliers: simulatedSlots(sim.slots) });
  await app.ready;
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  process.send!({
    key: await createBenchKey(dataDir),
    gateway: `http://127.0.0.1:${(app.http.server.address() as { port: number }).port}`,
    control: sim.controlUrl,
    slots: sim.slots,
    budget: defaults.quoteBudgetMs,
    priced: defaults.pricedCandidates,
  });
  process.on('disconnect', () => process.exit(0));
}

function datesFor(i: number): string {
  const day = (n: number) => new Date(Date.UTC(2027, 0, 4) + n * 86_400_000).toISOString().slice(0, 10);
  return `checkin=${day(i)}&checkout=${day(i + 3)}`;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))];

interface SearchBody {
  results: { suppliers: Record<string, { link: string; price?: { total: number } | null }> }[];
}

/**
 * The baseline: the same suppliers asked directly, through the same adapters, for the ids a
 * dated search prices, all at once; its time is the slowest supplier's, as observed from here.
 */
async function slowestSupplier(suppliers: Supplier[], ids: Map<SupplierId, string[]>, dates: string): Promise<number> {
  const [checkin, checkout] = dates.split('&').map((p) => p.split('=')[1]);
  const times = await Promise.all(
    suppliers.flatMap((s) => {
      const all = ids.get(s.id) ?? [];
      const batches: string[][] = [];
      for (let i = 0; i < all.length; i += s.maxIdsPerQuote) batches.push(all.slice(i, i + s.maxIdsPerQuote));
      return batches.map(async (batch) => {
        const t0 = performance.now();
        await s.quote(
          { supplierStayIds: batch, checkin, checkout, adults: 2, children: 0, childrenAges: null, rooms: 1, currency: 'USD' },
          AbortSignal.timeout(5_000),
        );
        return performance.now() - t0;
      });
    }),
  );
  return Math.max(...times);
}

let key = '';

async function timed(url: string): Promise<{ ms: number; body: SearchBody; cache: string | null }> {
  const t0 = performance.now();
  const res = await fetch(url, { headers: { 'x-api-key': key } });
  const body = (await res.json()) as SearchBody;
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(body)}`);
  return { ms: performance.now() - t0, body, cache: res.headers.get('x-cache') };
}

async function drive(): Promise<void> {
  const child = fork(new URL(import.meta.url).pathname, ['--serve'], { execArgv: ['--import', 'tsx'] });
  const {
    gateway,
    control,
    slots,
    budget,
    priced,
    key: benchKey,
  } = await new Promise<{
    gateway: string;
    control: string;
    slots: Record<SupplierId, SimulatedSlot>;
    budget: number;
    priced: number;
    key: string;
  }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as never));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  key = benchKey;
  const search = (i: number, extra = '') => `${gateway}/v3/accommodations?${BOX}&${datesFor(i)}&pageSize=10${extra}`;
  for (let i = 0; i < 10; i++) await timed(search(500 + i)); // warm-up on dates not measured below

  // The ids a dated search prices: the best-ranked candidates, read from the static ranking.
  const ids = new Map<SupplierId, string[]>();
  for (let page = 1; page * 50 <= priced; page++) {
    const { body } = await timed(`${gateway}/v3/accommodations?${BOX}&pageSize=50&page=${page}`);
    for (const stay of body.results) {
      for (const [supplier, entry] of Object.entries(stay.suppliers)) {
        const list = ids.get(supplier as SupplierId) ?? [];
        list.push(decodeURIComponent(new URL(entry.link).pathname.split('/').pop()!));
        ids.set(supplier as SupplierId, list);
      }
    }
  }
  const adapters = createSuppliers(simulatedSlots(slots), defaults);

  const latencies: number[] = [];
  const baselines: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const r = await timed(search(i));
    if (r.cache !== 'MISS') throw new Error('a measured search was served from the cache');
    latencies.push(r.ms);
    baselines.push(await slowestSupplier(adapters, ids, datesFor(1_000 + i)));
  }
  const m = median(latencies);
  const b = median(baselines);
  console.log(
    `suppliers at a fixed ${LATENCY_MS} ms: dated search median ${m.toFixed(1)} ms (p99 ${p99(latencies).toFixed(1)}), slowest supplier asked directly median ${b.toFixed(1)} ms, over ${REQUESTS} searches`,
  );
  console.log(`median overhead above the slowest supplier: ${(m - b).toFixed(1)} ms (target <= 10 ms); ratio ${(m / b).toFixed(3)}`);

  // The same searches again within the quote TTL: every quote from the gateway's own cache (the memory path).
  const hits: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const r = await timed(search(i));
    if (r.cache !== 'HIT') throw new Error('a repeated search was not served from the cache');
    hits.push(r.ms);
  }
  console.log(
    `the same searches again, every quote cached: median ${median(hits).toFixed(2)} ms (p99 ${p99(hits).toFixed(2)}); ${(m / median(hits)).toFixed(1)}x faster than asking`,
  );

  // Each failure of supplier_b in turn (v3-dated-search.test.ts checks what the answers hold;
  // how fast they come is measured here).
  for (const [m, mode] of ['timeout', 'down', 'error', 'malformed', 'slow:2000'].entries()) {
    await fetch(`${control}/faults?supplier_b=${mode}`, { method: 'PUT' });
    const hung: number[] = [];
    let intact = true;
    for (let i = 0; i < 20; i++) {
      const r = await timed(search(200 + 20 * m + i, '&adults=1'));
      hung.push(r.ms);
      for (const stay of r.body.results) {
        for (const [supplier, entry] of Object.entries(stay.suppliers)) {
          if (supplier === 'supplier_b' ? entry.price !== null : typeof entry.price?.total !== 'number') intact = false;
        }
      }
    }
    await fetch(`${control}/faults?supplier_b=none`, { method: 'PUT' });
    console.log(
      `supplier_b ${mode}: median ${median(hung).toFixed(1)} ms, max ${Math.max(...hung).toFixed(1)} ms (target <= ${budget + 50} ms); other suppliers' prices intact: ${intact}`,
    );
  }
  child.disconnect();
}

await (process.argv.includes('--serve') ? serve() : drive());
