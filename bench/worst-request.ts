// The costliest legal requests we know, 20 at once, while /health is asked every 10 ms: no one
// request may hold the event loop (issue 13: /health under 100 ms). The gateway runs on the
// default world in a child process; this process sends the load; /health is asked and timed by a
// process of its own that does nothing else (issue 25 item 11: timed from this process, which
// also receives and parses the burst's 20 large answers, it measured this process's own delay),
// and compared with /health on an idle gateway in the same run.
import { fork, type ChildProcess } from 'node:child_process';
import { PerformanceObserver } from 'node:perf_hooks';
import { startDefaultGateway } from './default-gateway.ts';
import { watchStalls, type Stall } from './loop-stalls.ts';

const WORLD = 'nelat=90&nelng=180&swlat=-90&swlng=-180';
/** Candidates for the worst legal request: whole-world scans, filters, deep pages, the finest precision a viewport allows. */
const WORST = [
  `/v3/accommodations?lat=48.85&lng=2.35&radius=20000000&pageSize=100`,
  `/v3/accommodations?lat=48.85&lng=2.35&radius=20000000&pageSize=100&page=900`,
  `/v3/accommodations?${WORLD}&pageSize=100&type=hotel&minguestrating=7&page=400`,
  `/v3/accommodations?${WORLD}&cluster=auto&type=hotel&pageSize=100`,
  `/v3/accommodations?${WORLD}&cluster=top&precision=4&pageSize=100&type=rental`,
  `/v3/accommodations?nelat=51.5&nelng=8&swlat=43&swlng=-2&cluster=top&precision=9&pageSize=100`,
  `/v3/accommodations?nelat=49.1&nelng=2.7&swlat=48.6&swlng=2.0&cluster=top&precision=11&pageSize=100`,
  `/v3/accommodations?nelat=48.87&nelng=2.37&swlat=48.85&swlng=2.33&cluster=top&precision=15&pageSize=100`,
  `/v3/accommodations?lat=48.85&lng=2.35&radius=20000000&hotelsearch=hotel&pageSize=100`,
];
const CONCURRENT = 20;

/** What held the gateway's event loop during a burst (measured in the gateway's process). */
interface LoopFigures {
  /** The latest a 5 ms timer fired, and how much of that the thread waited for a CPU (loop-stalls.ts). */
  late: Stall;
  /** The longest a /health request took in the gateway, from its request parsed to its answer written. */
  healthMs: number;
  /** The longest stall less the wait for a CPU: the loop held by the gateway's own work. */
  ownMs: number | null;
  /** The longest garbage-collection pause, and its kind. */
  gcMs: number;
  gcKind: string;
}

const GC_KINDS: Record<number, string> = { 1: 'scavenge', 2: 'mark-compact', 4: 'incremental marking', 8: 'weak callbacks' };

async function serve(): Promise<void> {
  const { app, key } = await startDefaultGateway({}, { keyedPerMinute: 1_000_000 });
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  const stalls = watchStalls();
  // The gateway's side of /health: a listener after Fastify's sees the request in the same turn.
  let healthMs = 0;
  app.http.server.on('request', (request: { url?: string }, response: NodeJS.EventEmitter) => {
    if (request.url !== '/health') return;
    const start = performance.now();
    response.once('finish', () => {
      healthMs = Math.max(healthMs, performance.now() - start);
    });
  });
  let gc = { ms: 0, kind: '' };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = GC_KINDS[(entry as PerformanceEntry & { detail: { kind: number } }).detail.kind] ?? 'other';
      if (entry.duration > gc.ms) gc = { ms: entry.duration, kind };
    }
  }).observe({ entryTypes: ['gc'] });
  process.on('message', (message: string) => {
    if (message === 'reset') {
      stalls.reset();
      healthMs = 0;
      gc = { ms: 0, kind: '' };
      process.send!('reset');
    } else if (message === 'read') {
      // A stall is recorded by the first timer after it: let one run before reading.
      setTimeout(() => process.send!({ ...stalls.longest(), healthMs, gcMs: gc.ms, gcKind: gc.kind } satisfies LoopFigures), 10);
    }
  });
  process.send!({ gateway: `http://127.0.0.1:${(app.http.server.address() as { port: number }).port}`, key });
  process.on('disconnect', () => process.exit(0));
}

function ask(child: ChildProcess, message: string): Promise<unknown> {
  return new Promise((resolve) => {
    child.once('message', resolve);
    child.send(message);
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * The probe, a process of its own: /health every 10 ms (after each answer) until told to stop,
 * each answer's time kept; 'reset' starts a new list, 'read' sends it. Nothing else runs here, so
 * a slow answer is the gateway's (or the machine's), not the time this process took to get to it.
 */
async function probe(gateway: string): Promise<void> {
  let times: number[] = [];
  process.on('message', (message: string) => {
    if (message === 'reset') times = [];
    process.send!(message === 'read' ? times : 'reset');
  });
  process.on('disconnect', () => process.exit(0));
  process.send!('ready');
  for (;;) {
    const start = performance.now();
    const res = await fetch(`${gateway}/health`);
    await res.arrayBuffer();
    times.push(performance.now() - start);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The probe's /health times while `work` runs. */
async function healthWhile<T>(prober: ChildProcess, work: () => Promise<T>): Promise<{ times: number[]; result: T }> {
  await ask(prober, 'reset');
  const result = await work();
  return { times: (await ask(prober, 'read')) as number[], result };
}

async function drive(): Promise<void> {
  // BENCH_CPU_PROF=<dir>: the gateway writes a V8 CPU profile there when it exits (node --cpu-prof).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = fork(new URL(import.meta.url).pathname, ['--serve'], { execArgv: [...profile, '--import', 'tsx'] });
  const { gateway, key } = await new Promise<{ gateway: string; key: string }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as never));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const get = async (url: string) => {
    const start = performance.now();
    const res = await fetch(gateway + url, { headers: { 'x-api-key': key } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    return performance.now() - start;
  };
  const prober = fork(new URL(import.meta.url).pathname, ['--probe', gateway], { execArgv: ['--import', 'tsx'] });
  await new Promise((resolve) => prober.once('message', resolve));
  const { times: idle } = await healthWhile(prober, () => new Promise((resolve) => setTimeout(resolve, 1_000)));
  console.log(`idle /health: median ${median(idle).toFixed(1)} ms, max ${Math.max(...idle).toFixed(1)} ms (${idle.length} probes)`);
  let worstHealth = 0;
  let worstOwn = 0;
  let worstInGateway = 0;
  for (const url of WORST) {
    await get(url); // warm-up (JIT, caches)
    const alone = await get(url);
    await ask(child, 'reset');
    const { times: health, result: latencies } = await healthWhile(prober, () =>
      Promise.all(Array.from({ length: CONCURRENT }, () => get(url))),
    );
    const loop = (await ask(child, 'read')) as LoopFigures;
    worstHealth = Math.max(worstHealth, ...health);
    worstOwn = Math.max(worstOwn, loop.ownMs ?? loop.late.lateMs);
    worstInGateway = Math.max(worstInGateway, loop.healthMs);
    console.log(
      `${url.slice(0, 110)}\n  alone ${alone.toFixed(0)} ms; ${CONCURRENT} at once: median ${median(latencies).toFixed(0)} ms, ` +
        `last ${Math.max(...latencies).toFixed(0)} ms; /health during them: median ${median(health).toFixed(1)} ms, max ${Math.max(...health).toFixed(1)} ms ` +
        `(in the gateway, parsed to written: max ${loop.healthMs.toFixed(1)} ms)\n` +
        `  gateway's loop: latest timer ${loop.late.lateMs.toFixed(0)} ms late (${loop.late.waitMs.toFixed(0)} ms of it waiting for a CPU), ` +
        `longest own stall ${loop.ownMs === null ? 'n/a' : `${loop.ownMs.toFixed(0)} ms`}; longest GC pause ${loop.gcMs.toFixed(0)} ms (${loop.gcKind || 'none'})`,
    );
  }
  const missed = worstHealth >= 100;
  console.log(`\nworst /health during any burst: ${worstHealth.toFixed(1)} ms (target < 100 ms${missed ? ': MISSED' : ''})`);
  console.log(`worst /health inside the gateway (request parsed to answer written): ${worstInGateway.toFixed(1)} ms`);
  console.log(
    `worst own stall of the gateway's loop during any burst: ${worstOwn.toFixed(0)} ms (the loop held by the gateway's work; ` +
      `the rest of a slow /health is time the gateway or the probe waited for a CPU)`,
  );
  const idleMax = Math.max(...idle);
  if (missed && idleMax >= 100)
    console.log(`the idle gateway's slowest /health was already ${idleMax.toFixed(0)} ms: the machine is too loaded for this target`);
  if (missed) process.exitCode = 1;
  prober.disconnect();
  child.disconnect();
}

const probeAt = process.argv.indexOf('--probe');
if (process.argv.includes('--serve')) await serve();
else if (probeAt >= 0) await probe(process.argv[probeAt + 1]);
else await drive();
