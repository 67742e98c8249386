// Dated v3 searches against the four simulated suppliers answering at a fixed latency:
// 1. the median latency of a dated search against the slowest supplier's latency (target: +10 ms);
// 2. with one supplier hung (`timeout` mode), every search answers within the quote deadline
//    plus 50 ms and the other suppliers' prices are intact.
// Every request asks for different dates, so no quote comes from the cache. The gateway and the
// simulator run in a child process; this process only sends requests.
import { fork } from 'node:child_process';
import path from 'node:path';

const LATENCY_MS = Number(process.env.BENCH_SUPPLIER_LATENCY_MS ?? 80);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 120);
const BOX = 'nelat=48.875&nelng=2.38&swlat=48.84&swlng=2.31';

async function serve(): Promise<void> {
  const { createApp } = await import('../src/app.ts');
  const { defaults } = await import('../src/defaults.ts');
  const { generateWorld } = await import('../src/sim/generate-world.ts');
  const { startSimSuppliers } = await import('../src/sim/start-sim-suppliers.ts');
  const world = generateWorld({ seed: defaults.simSeed, stays: defaults.simStays });
  const sim = await startSimSuppliers({ world, latencyMs: LATENCY_MS });
  const app = createApp({ dataDir: path.resolve('.bench', `data-${defaults.simSeed}-${defaults.simStays}`), supplierUrls: sim.urls });
  await app.ready;
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  process.send!({
    gateway: `http://127.0.0.1:${(app.http.server.address() as { port: number }).port}`,
    control: sim.controlUrl,
    budget: defaults.quoteBudgetMs,
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
  results: { suppliers: Record<string, { price?: { total: number } | null }> }[];
}

async function timed(url: string): Promise<{ ms: number; body: SearchBody; cache: string | null }> {
  const t0 = performance.now();
  const res = await fetch(url);
  const body = (await res.json()) as SearchBody;
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(body)}`);
  return { ms: performance.now() - t0, body, cache: res.headers.get('x-cache') };
}

async function drive(): Promise<void> {
  const child = fork(new URL(import.meta.url).pathname, ['--serve'], { execArgv: ['--import', 'tsx'] });
  const { gateway, control, budget } = await new Promise<{ gateway: string; control: string; budget: number }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as never));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const search = (i: number, extra = '') => `${gateway}/v3/accommodations?${BOX}&${datesFor(i)}&pageSize=10${extra}`;
  for (let i = 0; i < 10; i++) await timed(search(500 + i)); // warm-up on dates not measured below

  const latencies: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const r = await timed(search(i));
    if (r.cache !== 'MISS') throw new Error('a measured search was served from the cache');
    latencies.push(r.ms);
  }
  const m = median(latencies);
  console.log(`suppliers at a fixed ${LATENCY_MS} ms: dated search median ${m.toFixed(1)} ms, p99 ${p99(latencies).toFixed(1)} ms over ${REQUESTS} searches`);
  console.log(`median overhead above the slowest supplier: ${(m - LATENCY_MS).toFixed(1)} ms (target <= 10 ms)`);

  await fetch(`${control}/faults?supplier_b=timeout`, { method: 'PUT' });
  const hung: number[] = [];
  let intact = true;
  for (let i = 0; i < 20; i++) {
    const r = await timed(search(200 + i, '&adults=1'));
    hung.push(r.ms);
    for (const stay of r.body.results) {
      for (const [supplier, entry] of Object.entries(stay.suppliers)) {
        if (supplier === 'supplier_b' ? entry.price !== null : typeof entry.price?.total !== 'number') intact = false;
      }
    }
  }
  await fetch(`${control}/faults?supplier_b=none`, { method: 'PUT' });
  console.log(`supplier_b hung: median ${median(hung).toFixed(1)} ms, max ${Math.max(...hung).toFixed(1)} ms (target <= ${budget + 50} ms); other suppliers' prices intact: ${intact}`);
  child.disconnect();
}

await (process.argv.includes('--serve') ? serve() : drive());
