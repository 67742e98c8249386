// The costliest legal requests we know, 20 at once, while /health is asked every 10 ms: no one
// request may hold the event loop (issue 13: /health under 100 ms). The gateway runs on the
// default world in a child process; this process sends the load and times /health, and compares
// with /health on an idle gateway in the same run.
import { fork } from 'node:child_process';
import { startDefaultGateway } from './default-gateway.ts';

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

async function serve(): Promise<void> {
  const { app, key } = await startDefaultGateway({ rateLimits: { keyed: 1_000_000 } });
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  process.send!({ gateway: `http://127.0.0.1:${(app.http.server.address() as { port: number }).port}`, key });
  process.on('disconnect', () => process.exit(0));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** /health every 10 ms until `done` settles: each answer's time. */
async function healthWhile(gateway: string, done: Promise<unknown>): Promise<number[]> {
  let over = false;
  void done.finally(() => {
    over = true;
  });
  const times: number[] = [];
  while (!over) {
    const start = performance.now();
    const res = await fetch(`${gateway}/health`);
    await res.arrayBuffer();
    times.push(performance.now() - start);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return times;
}

async function drive(): Promise<void> {
  const child = fork(new URL(import.meta.url).pathname, ['--serve'], { execArgv: ['--import', 'tsx'] });
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
  const idle = await healthWhile(gateway, new Promise((resolve) => setTimeout(resolve, 1_000)));
  console.log(`idle /health: median ${median(idle).toFixed(1)} ms, max ${Math.max(...idle).toFixed(1)} ms (${idle.length} probes)`);
  let worstHealth = 0;
  for (const url of WORST) {
    await get(url); // warm-up (JIT, caches)
    const alone = await get(url);
    const burst = Promise.all(Array.from({ length: CONCURRENT }, () => get(url)));
    const health = await healthWhile(gateway, burst);
    const latencies = await burst;
    worstHealth = Math.max(worstHealth, ...health);
    console.log(
      `${url.slice(0, 110)}\n  alone ${alone.toFixed(0)} ms; ${CONCURRENT} at once: median ${median(latencies).toFixed(0)} ms, ` +
        `last ${Math.max(...latencies).toFixed(0)} ms; /health during them: median ${median(health).toFixed(1)} ms, max ${Math.max(...health).toFixed(1)} ms`,
    );
  }
  console.log(`\nworst /health during any burst: ${worstHealth.toFixed(1)} ms (target < 100 ms)`);
  child.disconnect();
}

if (process.argv.includes('--serve')) await serve();
else await drive();
