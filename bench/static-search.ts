// v3 static search over central Paris (bounding box, pageSize 10) against a bare Fastify route
// that returns a JSON body of the same size, side by side in one run, alternated three times; the
// gateway in identity, gzip and br, each against the bare route's identity (issue 22: at least
// 0.75 in all three), and for reference the bare route behind @fastify/compress in gzip and br.
// Both servers run in a child process (as a server would, alone on its event loop); autocannon
// drives them from this process over loopback, with a partner key as real traffic has.
import autocannon from 'autocannon';
import { fork } from 'node:child_process';
import { get } from 'node:http';
import { startDefaultGateway } from './default-gateway.ts';

const PATH = '/v3/accommodations?nelat=48.875&nelng=2.38&swlat=48.84&swlng=2.31&pageSize=10';
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);

async function serve(): Promise<void> {
  const { default: Fastify } = await import('fastify');
  const { app, key } = await startDefaultGateway();
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  const gateway = `http://127.0.0.1:${(app.http.server.address() as { port: number }).port}`;
  const sample = await app.http.inject({ url: PATH, headers: { 'x-api-key': key } });
  if (sample.statusCode !== 200) throw new Error(`search failed: ${sample.statusCode} ${sample.body}`);
  const body = sample.json();
  // The baseline serialises the same object on every request, as a route of its own would.
  const bare = Fastify();
  bare.get('/v3/accommodations', async () => body);
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}`;
  // The same route behind @fastify/compress with the gateway's options, compressing every answer.
  const { default: compress } = await import('@fastify/compress');
  const { brotliOptions } = await import('../src/http/encoded-bodies.ts');
  const { defaults } = await import('../src/defaults.ts');
  const compressed = Fastify();
  await compressed.register(compress, {
    encodings: ['br', 'gzip'],
    threshold: defaults.compressThresholdBytes,
    syncThreshold: defaults.compressSyncMaxBytes,
    brotliOptions: brotliOptions(defaults.brotliQuality),
  });
  compressed.get('/v3/accommodations', async () => body);
  await compressed.listen({ port: 0, host: '127.0.0.1' });
  const compressedUrl = `http://127.0.0.1:${(compressed.server.address() as { port: number }).port}`;
  process.send!({
    gateway,
    bare: bareUrl,
    compressed: compressedUrl,
    key,
    bytes: sample.body.length,
    count: body.meta.count,
    total: body.meta.total,
  });
  process.on('disconnect', () => process.exit(0));
}

let key = '';

async function measure(url: string, encoding = 'identity'): Promise<{ rps: number; p50: number }> {
  const result = await autocannon({
    url: url + PATH,
    connections: 10,
    duration: DURATION_S,
    headers: { 'x-api-key': key, 'accept-encoding': encoding },
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50 };
}

/** Bytes on the wire for one answer in this encoding (node:http does not decode, unlike fetch). */
function wireBytes(url: string, encoding: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'x-api-key': key, 'accept-encoding': encoding } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      res.on('end', () => resolve(bytes));
    }).on('error', reject);
  });
}

async function drive(): Promise<void> {
  const child = fork(new URL(import.meta.url).pathname, ['--serve'], { execArgv: ['--import', 'tsx'] });
  const urls = await new Promise<{
    gateway: string;
    bare: string;
    compressed: string;
    key: string;
    bytes: number;
    count: number;
    total: number;
  }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as never));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  key = urls.key;
  console.log(`response: ${urls.count} results of ${urls.total}, ${urls.bytes} bytes`);
  await measure(urls.gateway); // warm-up: JIT and the stay cache
  await measure(urls.bare);
  // The cost of compression: the same search asked with Accept-Encoding gzip and br, against the
  // same uncompressed baseline (a client that asks pays the CPU; one that does not, nothing).
  const ratios: Record<string, number[]> = { identity: [], gzip: [], br: [] };
  const reference: Record<string, number[]> = { gzip: [], br: [] };
  for (let round = 1; round <= 3; round++) {
    const b = await measure(urls.bare);
    const line = [`round ${round}: bare ${Math.round(b.rps)} req/s (p50 ${b.p50} ms)`];
    for (const encoding of Object.keys(ratios)) {
      const g = await measure(urls.gateway, encoding);
      ratios[encoding].push(g.rps / b.rps);
      line.push(`${encoding} ${Math.round(g.rps)} req/s (p50 ${g.p50} ms, ratio ${(g.rps / b.rps).toFixed(2)})`);
    }
    for (const encoding of Object.keys(reference)) {
      const c = await measure(urls.compressed, encoding);
      reference[encoding].push(c.rps / b.rps);
      line.push(`bare+compress ${encoding} ${Math.round(c.rps)} req/s (ratio ${(c.rps / b.rps).toFixed(2)})`);
    }
    console.log(line.join(', '));
  }
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[1].toFixed(2);
  for (const [encoding, list] of Object.entries(ratios)) {
    const beside = encoding in reference ? `; bare route through @fastify/compress: ${median(reference[encoding])}` : '';
    console.log(`median ratio gateway/bare, Accept-Encoding: ${encoding}: ${median(list)} (target >= 0.75${beside})`);
  }
  for (const encoding of ['gzip', 'br'])
    console.log(`${encoding}: ${urls.bytes} bytes sent as ${await wireBytes(urls.gateway + PATH, encoding)}`);
  child.disconnect();
}

await (process.argv.includes('--serve') ? serve() : drive());
