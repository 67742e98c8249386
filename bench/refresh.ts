// A content refresh under load (issue 12): the default world, one simulated month of change, the
// gateway refreshed while autocannon searches it on loopback. Reports the refresh time, stays
// added/removed/changed, p99 and max search latency during the refresh, failed requests, peak RSS
// above the steady state, and the longest event-loop stall (monitorEventLoopDelay) of the first
// start and of the refresh. Targets: no failed request, p99 < 50 ms, stall < 100 ms.
import { fork } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { createBenchKey } from './bench-key.ts';

const SEARCH = '/v3/accommodations?nelat=48.90&nelng=2.42&swlat=48.82&swlng=2.27&pageSize=10';
const DAYS = 30;

interface RefreshFigures {
  ms: number;
  added: number;
  removed: number;
  changed: number;
  stallMs: number;
  firstStartStallMs: number;
  firstStartMs: number;
  peakAboveMb: number;
}

async function serve(): Promise<void> {
  const { createApp } = await import('../src/app.ts');
  const { defaults } = await import('../src/defaults.ts');
  const dataDir = path.resolve('.bench', 'refresh-data');
  rmSync(dataDir, { recursive: true, force: true });
  // The simulator in its own process, as `npm start` runs it: its feed rendering must not be
  // counted as the gateway's stalls.
  const simChild = fork(new URL(import.meta.resolve('@staygate/sim/main')), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, STAYGATE_SIM_SEED: String(defaults.simSeed), STAYGATE_SIM_STAYS: String(defaults.simStays), STAYGATE_SIM_LATENCY_MS: '0', STAYGATE_SIM_DATA_DIR: '' },
  });
  const sim = await new Promise<{ urls: Record<string, string>; controlUrl: string }>((resolve) => simChild.once('message', (m) => resolve(m as never)));
  // The first start, timed with the event loop watched (world generation is the simulator's, before this).
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const started = performance.now();
  const app = createApp({ dataDir, supplierUrls: sim.urls as never, rateLimits: { keyed: 1_000_000 }, contentRefreshMs: null });
  await app.ready;
  const firstStartMs = performance.now() - started;
  const firstStartStallMs = loop.max / 1e6;
  const key = await createBenchKey(dataDir);
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  process.send!({ gateway: `http://127.0.0.1:${(app.http.server.address() as { port: number }).port}`, key });
  process.on('message', async () => {
    const advanced = await (await fetch(`${sim.controlUrl}/world/advance?days=${DAYS}`, { method: 'POST' })).json() as { counts: { added: number; removed: number; changed: number } };
    process.stderr.write(`world advanced ${DAYS} days: ${advanced.counts.added} listings added, ${advanced.counts.removed} removed, ${advanced.counts.changed} changed\n`);
    globalThis.gc?.();
    const steady = process.memoryUsage().rss;
    let peak = steady;
    const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 20);
    loop.reset();
    const t0 = performance.now();
    const outcome = await app.refreshContent();
    const ms = performance.now() - t0;
    clearInterval(sampler);
    const r = outcome.result!;
    const figures: RefreshFigures = {
      ms, added: r.added, removed: r.removed, changed: r.changed, stallMs: loop.max / 1e6,
      firstStartStallMs, firstStartMs, peakAboveMb: (peak - steady) / 2 ** 20,
    };
    process.send!(figures);
  });
  process.on('disconnect', () => process.exit(0));
}

async function drive(): Promise<void> {
  const child = fork(new URL(import.meta.url).pathname, ['--serve'], { execArgv: ['--expose-gc', '--import', 'tsx'] });
  const { gateway, key } = await new Promise<{ gateway: string; key: string }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as never));
    child.once('exit', (code) => reject(new Error(`the gateway exited with ${code}`)));
  });
  // Load for as long as the refresh takes: autocannon runs until the figures arrive.
  const figures = new Promise<RefreshFigures>((resolve) => child.once('message', (m) => resolve(m as RefreshFigures)));
  let instance: autocannon.Instance | undefined;
  const result = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon({ url: gateway + SEARCH, connections: 10, duration: 600, headers: { 'x-api-key': key } }, (error, res) => (error ? reject(error) : resolve(res)));
  });
  child.send('refresh');
  const f = await figures;
  instance!.stop();
  const load = await result;
  child.disconnect();
  const failed = load.errors + load.timeouts + load.non2xx;
  const round = (x: number) => Math.round(x);
  console.log(`refresh after ${DAYS} simulated days: ${round(f.ms)} ms; stays ${f.added} added, ${f.removed} removed, ${f.changed} changed`);
  console.log(`searches during the refresh: ${load.requests.total} (${failed} failed), latency p99 ${load.latency.p99} ms, max ${load.latency.max} ms (target p99 < 50)`);
  console.log(`peak RSS above steady state during the refresh: ${round(f.peakAboveMb)} MB`);
  console.log(`longest event-loop stall: refresh ${round(f.stallMs)} ms, first start ${round(f.firstStartStallMs)} ms (target < 100); first start ${round(f.firstStartMs)} ms`);
  if (failed > 0 || load.latency.p99 >= 50 || f.stallMs >= 100) process.exitCode = 1;
}

if (process.argv.includes('--serve')) await serve();
else await drive();
