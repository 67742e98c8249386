// `staygate suppliers check` as an operator runs it: the real command, bin/staygate.js, against
// simulated suppliers of a small world, found as a gateway finds them (the simulator of the data
// folder, <data dir>/simulator.json) or configured by their URL like a real account.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { generateWorld, startSimSuppliers, SUPPLIER_IDS, type SimSuppliers } from '@staygate/sim';
import { writeSimulatorAddress } from '../compose/simulator-address.ts';
import { daysAhead } from '../test-support/days-ahead.ts';

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

/** The line of one slot. */
const lineOf = (stdout: string, id: string): string => stdout.split('\n').find((line) => line.startsWith(`${id} `)) ?? '';

let sim: SimSuppliers;
let dataDir: string;
before(async () => {
  sim = await startSimSuppliers({ world: generateWorld({ seed: 7, stays: 300 }), latencyMs: 0 });
  dataDir = mkdtempSync(path.join(tmpdir(), 'staygate-suppliers-check-'));
  // What the server writes when it starts the simulator on this data folder.
  writeSimulatorAddress(dataDir, { slots: sim.slots, controlUrl: sim.controlUrl });
});
after(async () => {
  await sim.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Every credential the simulator accepts: none may ever be printed. */
const credentials = (): string[] => SUPPLIER_IDS.flatMap((id) => [sim.slots[id].key, sim.slots[id].secret]).filter((value) => value !== '');

describe('staygate suppliers check', () => {
  it('every slot simulated: a line per slot (API, URL, auth ok, a content page, a quote 30 days ahead, times), exit 0', async () => {
    const started = Date.now();
    const res = await staygate({ STAYGATE_DATA_DIR: dataDir }, 'suppliers', 'check');
    assert.equal(res.code, 0, `${res.stdout}\n${res.stderr}`);
    for (const id of SUPPLIER_IDS) {
      const { api, url } = sim.slots[id];
      assert.match(
        lineOf(res.stdout, id),
        new RegExp(
          `^${id} ${api} ${url.replaceAll('.', '\\.')} \\(simulated\\): auth ok; content \\d+ stays?, first \\S+ \\(\\d+ ms\\); ` +
            `quote \\d{4}-\\d{2}-\\d{2} to \\d{4}-\\d{2}-\\d{2}: \\d+ asked, \\d+ priced \\(\\d+ ms\\)$`,
        ),
        res.stdout,
      );
    }
    const [, checkin, checkout] = / quote (\S+) to (\S+):/.exec(lineOf(res.stdout, 'supplier_a'))!;
    // 30 days after the day the command ran: the day it started, or the next when midnight (UTC) came meanwhile.
    const ahead = [started, Date.now()].map((now) => [daysAhead(30, now), daysAhead(32, now)]);
    assert.ok(
      ahead.some(([i, o]) => i === checkin && o === checkout),
      `two nights, 30 days ahead: ${checkin} to ${checkout}, not ${ahead.map((a) => a.join(' to ')).join(' or ')}`,
    );
    assert.match(res.stdout, /^all 4 slots ok$/m);
    for (const value of credentials()) assert.ok(!`${res.stdout}${res.stderr}`.includes(value), `a credential printed: ${value}`);
  });

  it("a wrong key on one slot: exit 1, its line says auth FAILED with the supplier's own message, the others pass", async () => {
    // Hotelbeds' simulator checks the signature of every request: a wrong key is its 401.
    const wrong = 'not-the-sim-key-7f3a';
    const res = await staygate(
      {
        STAYGATE_DATA_DIR: dataDir,
        STAYGATE_SUPPLIER_B_URL: sim.slots.supplier_b.url,
        STAYGATE_SUPPLIER_B_KEY: wrong,
        STAYGATE_SUPPLIER_B_SECRET: sim.slots.supplier_b.secret,
        STAYGATE_SUPPLIER_B_BOOKING_URL: 'https://book.example/hotel?code={supplierStayId}&ref={clickId}',
      },
      'suppliers',
      'check',
    );
    assert.equal(res.code, 1, `${res.stdout}\n${res.stderr}`);
    assert.match(
      lineOf(res.stdout, 'supplier_b'),
      new RegExp(
        `^supplier_b hotelbeds ${sim.slots.supplier_b.url.replaceAll('.', '\\.')}: auth FAILED: \\S.* \\(\\d+ ms\\); booking page set$`,
      ),
    );
    for (const id of ['supplier_a', 'supplier_c', 'supplier_d']) assert.match(lineOf(res.stdout, id), /\(simulated\): auth ok; /, id);
    assert.match(res.stdout, /^3 of 4 slots ok; failed: supplier_b$/m);
    assert.ok(!`${res.stdout}${res.stderr}`.includes(wrong), 'the wrong key is not printed either');
    assert.ok(!`${res.stdout}${res.stderr}`.includes(sim.slots.supplier_b.secret), 'nor the secret');
  });

  it('an API that refuses every key (401): auth FAILED with its message, never the key, exit 1', async () => {
    // An API of our own that refuses everyone as LiteAPI writes it: whatever the driver asks, the answer is 401.
    const refusing = http.createServer((_request, response) => {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { code: 401, message: 'Invalid API key' } }));
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(refusing.address() as net.AddressInfo).port}`;
      const key = 'operator-key-5c2d';
      const res = await staygate(
        {
          STAYGATE_DATA_DIR: dataDir,
          STAYGATE_SUPPLIER_C_URL: url,
          STAYGATE_SUPPLIER_C_KEY: key,
          STAYGATE_SUPPLIER_C_BOOKING_URL: 'https://book.example/hotel?id={supplierStayId}&ref={clickId}',
        },
        'suppliers',
        'check',
      );
      assert.equal(res.code, 1, `${res.stdout}\n${res.stderr}`);
      assert.match(
        lineOf(res.stdout, 'supplier_c'),
        new RegExp(`^supplier_c liteapi ${url.replaceAll('.', '\\.')}: auth FAILED: .*Invalid API key.* \\(\\d+ ms\\); booking page set$`),
      );
      assert.ok(!`${res.stdout}${res.stderr}`.includes(key), 'the key is not printed');
    } finally {
      await new Promise((resolve) => refusing.close(resolve));
    }
  });

  it('a real Hotelbeds slot without a booking page: its API checked, the line says BOOKING_URL is missing, exit 1; set, exit 0', async () => {
    const { url, key, secret } = sim.slots.supplier_b;
    const real = {
      STAYGATE_DATA_DIR: dataDir,
      STAYGATE_SUPPLIER_B_URL: url,
      STAYGATE_SUPPLIER_B_KEY: key,
      STAYGATE_SUPPLIER_B_SECRET: secret,
    };
    const missing = await staygate(real, 'suppliers', 'check');
    assert.equal(missing.code, 1, `${missing.stdout}\n${missing.stderr}`);
    assert.match(
      lineOf(missing.stdout, 'supplier_b'),
      /^supplier_b hotelbeds \S+: auth ok; .*; booking page NOT SET: set STAYGATE_SUPPLIER_B_BOOKING_URL \(hotelbeds has no page per stay\), without which the gateway refuses to start$/,
    );
    const set = await staygate(
      { ...real, STAYGATE_SUPPLIER_B_BOOKING_URL: 'https://book.example/hotel?code={supplierStayId}&ref={clickId}' },
      'suppliers',
      'check',
    );
    assert.equal(set.code, 0, `${set.stdout}\n${set.stderr}`);
    assert.match(lineOf(set.stdout, 'supplier_b'), /: auth ok; .*; booking page set$/);
    for (const value of credentials()) assert.ok(!`${missing.stdout}${set.stdout}`.includes(value), `a credential printed: ${value}`);
  });

  it('an unreachable slot, a data folder without a simulator, a refused configuration: each said in a line, exit 1', async () => {
    const closed = `http://127.0.0.1:${await closedPort()}`;
    const res = await staygate(
      { STAYGATE_DATA_DIR: dataDir, STAYGATE_SUPPLIER_D_URL: closed, STAYGATE_SUPPLIER_D_KEY: 'k', STAYGATE_SUPPLIER_D_SECRET: 's' },
      'suppliers',
      'check',
    );
    assert.equal(res.code, 1, `${res.stdout}\n${res.stderr}`);
    assert.match(
      lineOf(res.stdout, 'supplier_d'),
      new RegExp(`^supplier_d expedia-rapid ${closed.replaceAll('.', '\\.')}: UNREACHABLE: .*ECONNREFUSED`),
    );

    const empty = mkdtempSync(path.join(tmpdir(), 'staygate-suppliers-check-empty-'));
    try {
      const none = await staygate({ STAYGATE_DATA_DIR: empty }, 'suppliers', 'check');
      assert.equal(none.code, 1, `${none.stdout}\n${none.stderr}`);
      assert.match(
        lineOf(none.stdout, 'supplier_a'),
        /^supplier_a booking-demand: FAILED: .*no simulator .*\(start the server, npm start, on /,
      );
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }

    const refused = await staygate({ STAYGATE_DATA_DIR: dataDir, STAYGATE_SUPPLIER_A_API: 'booking' }, 'suppliers', 'check');
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^staygate suppliers check: STAYGATE_SUPPLIER_A_API must be one of /);
    assert.equal(refused.stdout, '');
  });
});
