import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { createHash } from 'node:crypto';
import { SUPPLIER_IDS, type SupplierId } from './types.ts';
import { generateWorld, type World } from './generate-world.ts';
import { SIM_CREDENTIALS } from './sim-credentials.ts';
import { startSimSuppliers, type SimSuppliers } from './start-sim-suppliers.ts';

// Each slot's API has tests of its own (apis/*.test.ts) and the gateway's contract tests hold its
// wire format to the published schema: here, what the four share (ports, pictures, errors, keep-alive).

async function getJson(url: string): Promise<{ status: number; type: string | null; body: unknown }> {
  const response = await fetch(url);
  return { status: response.status, type: response.headers.get('content-type'), body: await response.json() };
}

/** Hotelbeds' authentication headers with the simulator's credentials, signed now. */
function hotelbedsHeaders(): Record<string, string> {
  const { key, secret } = SIM_CREDENTIALS.hotelbeds;
  return {
    'Api-key': key,
    'X-Signature': createHash('sha256')
      .update(`${key}${secret}${Math.floor(Date.now() / 1_000)}`)
      .digest('hex'),
  };
}

describe('startSimSuppliers', () => {
  let world: World;
  let sim: SimSuppliers;

  before(async () => {
    world = generateWorld({ seed: 11, stays: 4_000 });
    sim = await startSimSuppliers({ world });
  });
  after(() => sim.close());

  it('serves four suppliers on four loopback ports', () => {
    assert.deepEqual(Object.keys(sim.urls).sort(), [...SUPPLIER_IDS].sort());
    const ports = new Set(Object.values(sim.urls).map((u) => new URL(u).port));
    assert.equal(ports.size, 4);
    for (const url of Object.values(sim.urls)) assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('serves every picture of its listings, the same bytes each time, and 404 for a listing it does not sell', async () => {
    for (const supplier of SUPPLIER_IDS) {
      const [first] = world.listings[supplier];
      for (const path of [first.media.thumbnail, first.media.logoSquare]) {
        const url = `${sim.urls[supplier]}${path}`;
        const one = await fetch(url);
        assert.equal(one.status, 200, url);
        assert.equal(one.headers.get('content-type'), 'image/svg+xml');
        const text = await one.text();
        assert.match(text, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
        assert.ok(text.length < 8_000, `${url}: ${text.length} bytes`);
        assert.equal(await (await fetch(url)).text(), text);
      }
      const other = `${sim.urls[supplier]}${first.media.thumbnail.replace(`/${first.supplierStayId}/`, '/0/')}`;
      assert.equal((await fetch(other)).status, 404, other);
    }
  });

  it('answers unknown paths with 404 JSON and other methods with 405 JSON', async () => {
    for (const url of Object.values(sim.urls)) {
      const { status, type, body } = await getJson(`${url}/nope`);
      assert.equal(status, 404);
      assert.equal(type, 'application/json');
      assert.equal((body as { error: string }).error, 'Not Found');
    }
    // Another supplier's path is unknown too: each speaks only its own API.
    assert.equal((await getJson(`${sim.urls.supplier_a}/properties/content`)).status, 404);
    const response = await fetch(`${sim.urls.supplier_a}/accommodations/details`);
    assert.equal(response.status, 405);
    assert.equal(response.headers.get('allow'), 'POST');
    assert.equal(((await response.json()) as { error: string }).error, 'Method Not Allowed');
  });

  it('tells which listings are one property on the control server (GET /world/truth), streamed, every open listing once', async () => {
    // Big enough that a supplier's truth is several blocks of 10,000 lines: they join without a gap.
    const big = generateWorld({ seed: 3, stays: 40_000 });
    const bigSim = await startSimSuppliers({ world: big, latencyMs: 0 });
    try {
      assert.ok(Math.max(...SUPPLIER_IDS.map((s) => big.listings[s].length)) > 10_000, 'a supplier has more than one block');
      for (const supplier of SUPPLIER_IDS) {
        const res = await fetch(`${bigSim.controlUrl}/world/truth?supplier=${supplier}`);
        assert.equal(res.status, 200);
        assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
        const lines = (await res.text()).split('\n');
        assert.equal(lines.pop(), '', 'every line ends');
        assert.deepEqual(
          lines,
          big.listings[supplier].map((l) => `${l.supplierStayId}\t${l.propertyId}`),
        );
      }
    } finally {
      await bigSim.close();
    }
    const unknown = await fetch(`${sim.controlUrl}/world/truth?supplier=supplier_x`);
    assert.equal(unknown.status, 400);
    assert.equal(((await unknown.json()) as { details: { param: string } }).details.param, 'supplier');
    const post = await fetch(`${sim.controlUrl}/world/truth?supplier=supplier_a`, { method: 'POST' });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET');
  });

  it('keeps connections alive', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (): Promise<{ connection: string | undefined; localPort: number | undefined }> =>
      new Promise((resolve, reject) => {
        http
          .get(`${sim.urls.supplier_b}/hotel-content-api/1.0/hotels?from=1&to=1`, { agent, headers: hotelbedsHeaders() }, (res) => {
            const localPort = res.socket.localPort;
            res.resume();
            res.on('end', () => resolve({ connection: res.headers.connection, localPort }));
          })
          .on('error', reject);
      });
    const first = await get();
    const second = await get();
    agent.destroy();
    assert.equal(first.connection, 'keep-alive');
    // The second request went over the first one's connection.
    assert.equal(second.localPort, first.localPort);
  });
});

describe('startSimSuppliers: ports and shutdown', () => {
  it('listens on the given ports and frees them on close', async () => {
    const world = generateWorld({ seed: 1, stays: 200 });
    const probe = await startSimSuppliers({ world });
    const ports = Object.fromEntries(SUPPLIER_IDS.map((s) => [s, Number(new URL(probe.urls[s]).port)])) as Record<SupplierId, number>;
    await probe.close();
    await assert.rejects(fetch(`${probe.urls.supplier_a}/nope`));

    const sim = await startSimSuppliers({ world, ports });
    for (const s of SUPPLIER_IDS) assert.equal(Number(new URL(sim.urls[s]).port), ports[s]);
    // A port in use: startSimSuppliers fails and leaves nothing listening.
    await assert.rejects(startSimSuppliers({ world, ports: { supplier_c: ports.supplier_c } }), /EADDRINUSE/);
    await sim.close();
  });
});
