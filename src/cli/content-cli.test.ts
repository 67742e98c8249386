// `staygate content refresh` as an operator runs it (issue 25): the real command, bin/staygate.js,
// against simulated suppliers of a small world, its exit code and its lines. It exited 13 after its
// success line: the content worker was unref'd while close() waited for its exit, so the process
// ran out of work under a top-level await that never settled.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { generateWorld, startSimSuppliers, SUPPLIER_IDS, type SimSuppliers } from '@staygate/sim';

const BIN = fileURLToPath(new URL('../../bin/staygate.js', import.meta.url));

function staygate(env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : (error.code as number), stdout, stderr });
    });
  });
}

/** A port where nothing listens: bound, then closed again. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Every slot configured as an operator would a real one: its API, URL and the simulator's credentials. */
const supplierEnv = (slots: SimSuppliers['slots']): NodeJS.ProcessEnv =>
  Object.fromEntries(
    SUPPLIER_IDS.flatMap((id) => {
      const prefix = `STAYGATE_${id.toUpperCase()}_`;
      const { api, url, key, secret, affiliateId } = slots[id];
      return [
        [`${prefix}API`, api],
        [`${prefix}URL`, url],
        [`${prefix}KEY`, key],
        [`${prefix}SECRET`, secret],
        [`${prefix}AFFILIATE_ID`, affiliateId],
        [`${prefix}BOOKING_URL`, 'https://book.example/{supplierStayId}?click={clickId}'],
      ];
    }),
  );

let sim: SimSuppliers;
let dataDir: string;
before(async () => {
  sim = await startSimSuppliers({ world: generateWorld({ seed: 7, stays: 300 }), latencyMs: 0 });
  dataDir = mkdtempSync(path.join(tmpdir(), 'staygate-content-cli-'));
});
after(async () => {
  await sim.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('staygate content refresh', () => {
  it('exits 0 from an empty data folder, then from the warm one, where nothing changed', async () => {
    const env = { STAYGATE_DATA_DIR: dataDir, ...supplierEnv(sim.slots) };
    const cold = await staygate(env, 'content', 'refresh');
    assert.equal(cold.code, 0, `${cold.stdout}\n${cold.stderr}`);
    assert.match(cold.stdout, /^content version 1: 300 stays, 300 added/m);
    const warm = await staygate(env, 'content', 'refresh');
    assert.equal(warm.code, 0, `${warm.stdout}\n${warm.stderr}`);
    // Nothing changed since: the version stays, nothing is written (issue 25, item 7).
    assert.match(warm.stdout, /^content unchanged: version 1, 300 stays, still served; nothing written/m);
  });

  it('exits 1 when a supplier fails, naming it, its URL and the cause', async () => {
    const port = await closedPort();
    const env = { STAYGATE_DATA_DIR: dataDir, ...supplierEnv(sim.slots), STAYGATE_SUPPLIER_B_URL: `http://127.0.0.1:${port}` };
    const res = await staygate(env, 'content', 'refresh');
    assert.equal(res.code, 1, `${res.stdout}\n${res.stderr}`);
    assert.match(
      res.stdout,
      new RegExp(
        `^supplier_b: FAILED, its previous listings are kept: request to http://127\\.0\\.0\\.1:${port}/\\S+ failed: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}$`,
        'm',
      ),
    );
    assert.match(res.stdout, /^supplier_a: \d+ listings/m);
  });

  it('with every supplier unreachable: a line each naming the supplier, its URL and the cause, never a bare "fetch failed"; exit 1', async () => {
    const port = await closedPort();
    const slots = Object.fromEntries(SUPPLIER_IDS.map((id) => [id, { ...sim.slots[id], url: `http://127.0.0.1:${port}` }]));
    const res = await staygate({ STAYGATE_DATA_DIR: dataDir, ...supplierEnv(slots as SimSuppliers['slots']) }, 'content', 'refresh');
    assert.equal(res.code, 1, `${res.stdout}\n${res.stderr}`);
    for (const id of SUPPLIER_IDS) {
      assert.match(
        res.stdout,
        new RegExp(
          `^${id}: FAILED, its previous listings are kept: request to http://127\\.0\\.0\\.1:${port}/\\S+ failed: connect ECONNREFUSED`,
          'm',
        ),
      );
    }
    assert.doesNotMatch(res.stdout + res.stderr, /fetch failed/);
    assert.match(res.stdout, /^nothing published: no supplier answered$/m);
  });
});
