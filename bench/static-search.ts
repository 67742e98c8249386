// v3 static search over central Paris (bounding box, pageSize 10) against a bare Fastify route
// that returns a JSON body of the same size, side by side in one run, alternated three times.
import autocannon from 'autocannon';
import Fastify from 'fastify';
import path from 'node:path';
import { createApp } from '../src/app.ts';
import { defaults } from '../src/defaults.ts';
import { generateWorld } from '../src/sim/generate-world.ts';
import { startSimSuppliers } from '../src/sim/start-sim-suppliers.ts';

const PATH = '/v3/accommodations?nelat=48.875&nelng=2.38&swlat=48.84&swlng=2.31&pageSize=10';
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);

const world = generateWorld({ seed: defaults.simSeed, stays: defaults.simStays });
const sim = await startSimSuppliers({ world });
const dataDir = path.resolve('.bench', `data-${defaults.simSeed}-${defaults.simStays}`);
const app = createApp({ dataDir, supplierUrls: sim.urls });
await app.ready;
await app.http.listen({ port: 0, host: '127.0.0.1' });
const gatewayUrl = `http://127.0.0.1:${(app.http.server.address() as { port: number }).port}`;

const sample = await fetch(gatewayUrl + PATH);
const sampleText = await sample.text();
if (sample.status !== 200) throw new Error(`search failed: ${sample.status} ${sampleText}`);
const body = JSON.parse(sampleText);
console.log(`response: ${body.meta.count} results of ${body.meta.total}, ${sampleText.length} bytes`);

// The baseline serialises the same object on every request, as a route of its own would.
const bare = Fastify();
bare.get('/v3/accommodations', async () => body);
await bare.listen({ port: 0, host: '127.0.0.1' });
const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}`;

async function measure(url: string): Promise<{ rps: number; p50: number }> {
  const result = await autocannon({ url: url + PATH, connections: 10, duration: DURATION_S });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50 };
}

await measure(gatewayUrl); // warm-up: JIT and the stay cache
const ratios: number[] = [];
for (let round = 1; round <= 3; round++) {
  const g = await measure(gatewayUrl);
  const b = await measure(bareUrl);
  ratios.push(g.rps / b.rps);
  console.log(`round ${round}: gateway ${Math.round(g.rps)} req/s (p50 ${g.p50} ms), bare ${Math.round(b.rps)} req/s (p50 ${b.p50} ms), ratio ${(g.rps / b.rps).toFixed(2)}`);
}
ratios.sort((a, b) => a - b);
console.log(`median ratio gateway/bare: ${ratios[1].toFixed(2)} (target >= 0.50)`);

await bare.close();
await app.close();
await sim.close();
