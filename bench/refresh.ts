// A content refresh under load (issue 12): the default world, one simulated month of change, the
// gateway refreshed while autocannon searches it on loopback. Reports the refresh time, stays
// added/removed/changed, p99 and max search latency during the refresh, failed requests, peak RSS
// above the steady state, the longest event-loop stall (monitorEventLoopDelay) of the first start
// and of the refresh with the part of it that was waiting for a CPU (loop-stalls.ts), and the
// slowest /health answer during each (asked every 50 ms from the driving process, which also runs
// autocannon: an upper bound). Targets: no failed request, p99 < 50 ms, stall < 100 ms, /health < 250 ms.
import { fork } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { simulatedSlots, type SimulatedSlot } from '../src/compose/supplier-slots.ts';
import type { SupplierId } from '../src/types.ts';
import { createBenchKey } from './bench-key.ts';
import { watchStalls, type Stall } from './loop-stalls.ts';
import { watchRssPeak } from './rss-peak.ts';

const SEARCH = '/v3/accommodations?nelat=48.90&nelng=2.42&swlat=48.82&swlng=2.27&pageSize=10';
const DAYS = 30;

interface StallFigures {
  /** monitorEventLoopDelay's max. */
  stallMs: number;
  /** The latest 5 ms timer and how long of it the thread waited for a CPU. */
  late: Stall;
  /** The longest stall less the wait for a CPU: the loop held by the gateway's own work. */
  ownMs: number | null;
}

interface FirstStartFigures extends StallFigures {
  firstStartMs: number;
}

interface RefreshFigures extends StallFigures {
  ms: number;
  added: number;
  removed: number;
  changed: number;
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
    env: {
      ...process.env,
      STAYGATE_SIM_SEED: String(defaults.simSeed),
      STAYGATE_SIM_STAYS: String(defaults.simStays),
      STAYGATE_SIM_LATENCY_MS: '0',
      STAYGATE_SIM_DATA_DIR: '',
    },
  });
  const sim = await new Promise<{ slots: Record<SupplierId, SimulatedSlot>; controlUrl: string }>((resolve) =>
    simChild.once('message', (m) => resolve(m as never)),
  );
  // The first start: from createApp to ready (world generation is the simulator's, before this).
  // The gateway listens at once, as `npm start` does, and from then on the event loop is watched
  // and /health asked: before it listens nothing can be answered (createApp's synchronous set-up).
  const started = performance.now();
  const app = createApp({
    settings: { ...defaults, dataDir, keyedPerMinute: 1_000_000, contentRefreshMs: 0 },
    suppliers: simulatedSlots(sim.slots),
  });
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const stalls = watchStalls();
  // A stall is recorded by the first timer after it: let one run before reading (a stall that
  // ends as `ready` resolves would be missed, as the gazetteer's warm-up was).
  const stallFigures = async (): Promise<StallFigures> => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    return { stallMs: loop.max / 1e6, ...stalls.longest() };
  };
  process.send!({ gateway: `http://127.0.0.1:${(app.http.server.address() as { port: number }).port}` });
  await app.ready;
  const firstStartMs = performance.now() - started;
  process.send!({ firstStart: { firstStartMs, ...(await stallFigures()) } satisfies FirstStartFigures });
  const key = await createBenchKey(dataDir);
  process.send!({ key });
  process.on('message', async () => {
    const advanced = (await (await fetch(`${sim.controlUrl}/world/advance?days=${DAYS}`, { method: 'POST' })).json()) as {
      counts: { added: number; removed: number; changed: number };
    };
    process.stderr.write(
      `world advanced ${DAYS} days: ${advanced.counts.added} listings added, ${advanced.counts.removed} removed, ${advanced.counts.changed} changed\n`,
    );
    globalThis.gc?.();
    const steady = process.memoryUsage().rss;
    const rssPeak = watchRssPeak();
    loop.reset();
    stalls.reset();
    const t0 = performance.now();
    const outcome = await app.refreshContent();
    const ms = performance.now() - t0;
    const peak = rssPeak.stop();
    const r = outcome.result!;
    const figures: RefreshFigures = {
      ms,
      added: r.added,
      removed: r.removed,
      changed: r.changed,
      peakAboveMb: (peak - steady) / 2 ** 20,
      ...(await stallFigures()),
    };
    process.send!(figures);
  });
  process.on('disconnect', () => process.exit(0));
}

/** Asks /health every 50 ms, one at a time, until stopped; the slowest answer and how many were asked. */
function pollHealth(gateway: string): { stop(): Promise<{ maxMs: number; asked: number }> } {
  let stopped = false;
  let maxMs = 0,
    asked = 0;
  const done = (async () => {
    while (!stopped) {
      const t = performance.now();
      await (await fetch(`${gateway}/health`)).arrayBuffer();
      maxMs = Math.max(maxMs, performance.now() - t);
      asked++;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await done;
      return { maxMs, asked };
    },
  };
}

async function drive(): Promise<void> {
  const child = fork(new URL(import.meta.url).pathname, ['--serve'], { execArgv: ['--expose-gc', '--import', 'tsx'] });
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`the gateway exited with ${code}`))));
  exited.catch(() => undefined); // after the figures the gateway is meant to exit
  // The gateway's messages in order, none lost while the driver is busy with another step.
  const inbox: unknown[] = [];
  let wake = () => {};
  child.on('message', (m) => {
    inbox.push(m);
    wake();
  });
  const next = async <T>(): Promise<T> => {
    while (inbox.length === 0)
      await Promise.race([
        new Promise<void>((resolve) => {
          wake = resolve;
        }),
        exited,
      ]);
    return inbox.shift() as T;
  };
  const { gateway } = await next<{ gateway: string }>();
  let health = pollHealth(gateway);
  const { firstStart } = await next<{ firstStart: FirstStartFigures }>();
  const firstStartHealth = await health.stop();
  const { key } = await next<{ key: string }>();
  // Load for as long as the refresh takes: autocannon runs until the figures arrive.
  const figures = next<RefreshFigures>();
  let instance: autocannon.Instance | undefined;
  const result = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon({ url: gateway + SEARCH, connections: 10, duration: 600, headers: { 'x-api-key': key } }, (error, res) =>
      error ? reject(error) : resolve(res),
    );
  });
  health = pollHealth(gateway);
  child.send('refresh');
  const f = await figures;
  instance!.stop();
  const refreshHealth = await health.stop();
  const load = await result;
  child.disconnect();
  const failed = load.errors + load.timeouts + load.non2xx;
  const round = (x: number) => Math.round(x);
  const stall = (s: StallFigures) =>
    `${round(s.stallMs)} ms (latest 5 ms timer ${round(s.late.lateMs)} ms late, ${round(s.late.waitMs)} ms of it waiting for a CPU; longest own stall ${s.ownMs === null ? 'n/a' : `${round(s.ownMs)} ms`})`;
  console.log(
    `refresh after ${DAYS} simulated days: ${round(f.ms)} ms; stays ${f.added} added, ${f.removed} removed, ${f.changed} changed`,
  );
  console.log(
    `searches during the refresh: ${load.requests.total} (${failed} failed), latency p99 ${load.latency.p99} ms, max ${load.latency.max} ms (target p99 < 50)`,
  );
  console.log(`peak RSS above steady state during the refresh: ${round(f.peakAboveMb)} MB`);
  console.log(`longest event-loop stall (target < 100): refresh ${stall(f)}`);
  console.log(
    `                                         first start ${stall(firstStart)}; first start ${round(firstStart.firstStartMs)} ms`,
  );
  console.log(
    `slowest /health (target < 250 ms): first start ${round(firstStartHealth.maxMs)} ms of ${firstStartHealth.asked}, refresh ${round(refreshHealth.maxMs)} ms of ${refreshHealth.asked}`,
  );
  if (failed > 0 || load.latency.p99 >= 50 || f.stallMs >= 100 || Math.max(firstStartHealth.maxMs, refreshHealth.maxMs) >= 250)
    process.exitCode = 1;
}

if (process.argv.includes('--serve')) await serve();
else await drive();
