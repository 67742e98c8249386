// `staygate sim --port <p>`: the installed command run as an operator runs it, in its own process:
// the lines it prints are what a gateway reads, every URL answers, SIGTERM closes it with exit 0
// and leaves its ports free; plus the refusals (a port taken, a bad --port) in process.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { readConfig } from '../config.ts';
import { DEFAULT_SUPPLIER_APIS, SUPPLIER_IDS, type SupplierId } from '../types.ts';
import { SIM_CREDENTIALS } from '@staygate/sim';
import { main } from './main.ts';

/**
 * Hotelbeds signs every request (Api-key + X-Signature: SHA-256 of key + secret + Unix seconds),
 * Expedia Rapid too (Authorization: EAN ..., SHA-512); Booking.com wants its bearer token and
 * affiliate id; LiteAPI its key (X-API-Key).
 */
function signed({
  api,
  key,
  secret,
  affiliateId,
}: {
  api: string;
  key: string;
  secret: string;
  affiliateId: string;
}): Record<string, string> {
  if (api === 'booking-demand')
    return { Authorization: `Bearer ${key}`, 'X-Affiliate-Id': affiliateId, 'content-type': 'application/json' };
  if (api === 'liteapi') return { 'X-API-Key': key };
  if (api === 'expedia-rapid') {
    const seconds = Math.floor(Date.now() / 1_000);
    const signature = createHash('sha512').update(`${key}${secret}${seconds}`).digest('hex');
    return { authorization: `EAN APIKey=${key},Signature=${signature},timestamp=${seconds}` };
  }
  if (api !== 'hotelbeds') return {};
  return {
    'Api-key': key,
    'X-Signature': createHash('sha256')
      .update(`${key}${secret}${Math.floor(Date.now() / 1_000)}`)
      .digest('hex'),
  };
}

const BIN = fileURLToPath(new URL('../../bin/staygate.js', import.meta.url));
const PORTS = 5;
const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'staygate-sim-cmd-'));
  dirs.push(dir);
  return dir;
}

function listenOn(port: number): Promise<Server | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(null));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

const closeServer = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** Whether nothing listens on any of the ports: each can be bound (and is released again). */
async function allFree(ports: number[]): Promise<boolean> {
  const servers = await Promise.all(ports.map(listenOn));
  await Promise.all(servers.filter((s) => s !== null).map(closeServer));
  return servers.every((s) => s !== null);
}

const range = (base: number) => Array.from({ length: PORTS }, (_, i) => base + i);

/** A base port whose PORTS ports are free now, below Linux's ephemeral range (which outgoing connections take). */
async function freeBase(): Promise<number> {
  for (;;) {
    const base = 20_000 + Math.floor(Math.random() * 10_000);
    if (await allFree(range(base))) return base;
  }
}

interface Running {
  lines: string[];
  stderr: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): void;
}

/** Spawns `staygate sim --port <base>` and resolves once it printed its last line (the control URL's), or exited. */
function startCommand(base: number, env: NodeJS.ProcessEnv): Promise<Running> {
  const child = spawn(process.execPath, [BIN, 'sim', '--port', String(base)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve) => {
    const running = (): Running => ({
      lines: stdout.trimEnd().split('\n'),
      stderr: () => stderr,
      exit,
      kill: (signal) => child.kill(signal),
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (/^STAYGATE_SIM_CONTROL_URL=.*\n/m.test(stdout)) resolve(running());
    });
    void exit.then(() => resolve(running()));
  });
}

/** The command on free ports; started again on others if one was taken between the check and the start. */
async function runCommand(env: NodeJS.ProcessEnv): Promise<{ base: number; running: Running }> {
  for (;;) {
    const base = await freeBase();
    const running = await startCommand(base, env);
    if (running.lines.at(-1)?.startsWith('STAYGATE_SIM_CONTROL_URL=')) return { base, running };
    const { code } = await running.exit;
    assert.equal(code, 1, `staygate sim exited before printing its lines: ${running.stderr()}`);
    assert.match(running.stderr(), /is taken/, 'the only reason to start again elsewhere: a port taken meanwhile');
  }
}

/**
 * One small request per supplier, to its content feed in its own paging notation, and the field of
 * its records (null: the body is a map of records, Rapid's, whose pages it sizes itself); Booking.com's
 * is a POST (its smallest page is 10 rows: the countries its details walk).
 */
const FEEDS: Record<SupplierId, [path: string, records: string | null, body?: unknown]> = {
  supplier_a: ['/common/locations/countries', 'data', { rows: 10 }],
  supplier_b: ['/hotel-content-api/1.0/hotels?from=1&to=1', 'hotels'],
  // LiteAPI lists hotels within a country; the default world (seed 42) sells some in the US.
  supplier_c: ['/data/hotels?countryCode=US&limit=1', 'data'],
  supplier_d: ['/properties/content?language=en-US&supply_source=vrbo&include=name', null],
};

describe('staygate sim --port <p>', () => {
  it('prints the URL lines a gateway reads, serves on p..p+4 with its state in the data folder, and SIGTERM exits 0 with the ports free', async () => {
    const dir = dataDir();
    const { base, running } = await runCommand({ STAYGATE_DATA_DIR: dir, STAYGATE_SIM_STAYS: '300', STAYGATE_SIM_LATENCY_MS: '0' });
    try {
      // Each slot's whole configuration (API, URL, the simulator's credentials, booking page), then the control URL.
      const expected = [
        ...SUPPLIER_IDS.flatMap((id, i) => {
          const prefix = `STAYGATE_${id.toUpperCase()}_`;
          const api = DEFAULT_SUPPLIER_APIS[id];
          const { key, secret, affiliateId } = SIM_CREDENTIALS[api];
          const url = `http://127.0.0.1:${base + i}`;
          const bookingUrl = running.lines.find((line) => line.startsWith(`${prefix}BOOKING_URL=`));
          return [
            `${prefix}API=${api}`,
            `${prefix}URL=${url}`,
            `${prefix}KEY=${key}`,
            ...(secret === '' ? [] : [`${prefix}SECRET=${secret}`]),
            `${prefix}AFFILIATE_ID=${affiliateId}`,
            ...(bookingUrl === undefined ? [] : [bookingUrl]),
          ];
        }),
        `STAYGATE_SIM_CONTROL_URL=http://127.0.0.1:${base + 4}`,
      ];
      assert.deepEqual(running.lines, expected, 'stdout holds exactly these lines, one per line');
      for (const line of running.lines.filter((l) => l.includes('_BOOKING_URL=')))
        assert.ok(line.includes(`=http://127.0.0.1:`), `a simulated booking page lives on its slot: ${line}`);

      // Exported as they are, they point a gateway's configuration at these suppliers.
      const env = Object.fromEntries(running.lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
      const config = readConfig(env);
      assert.deepEqual(
        SUPPLIER_IDS.map((id) => config.suppliers[id].url),
        SUPPLIER_IDS.map((_, i) => `http://127.0.0.1:${base + i}`),
      );

      for (const id of SUPPLIER_IDS) {
        const [feed, records, body] = FEEDS[id];
        const response: Response = await fetch(`${config.suppliers[id].url}${feed}`, {
          headers: signed(config.suppliers[id]),
          ...(body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) }),
        });
        assert.equal(response.status, 200, `${id} answers its content feed`);
        const json = (await response.json()) as Record<string, unknown[]>;
        if (records === null) assert.ok(Object.keys(json).length > 0, `${id} serves a page of records`);
        else if (body === undefined) assert.equal(json[records].length, 1, `${id} serves a page of one record`);
        else assert.ok(json[records].length >= 1 && json[records].length <= 10, `${id} serves a page of at most 10 records`);
      }
      const control = env.STAYGATE_SIM_CONTROL_URL;
      const faults = await fetch(`${control}/faults`);
      assert.equal(faults.status, 200, 'the control server answers');
      assert.deepEqual(await faults.json(), { supplier_a: null, supplier_b: null, supplier_c: null, supplier_d: null });
      const advanced = await fetch(`${control}/world/advance?days=2`, { method: 'POST' });
      assert.equal(advanced.status, 200, 'the control server moves the world');
      // The state lives where the embedded simulator keeps it: <data dir>/sim.
      const saved = JSON.parse(readFileSync(path.join(dir, 'sim', 'world.json'), 'utf8')) as { day: number; seed: number };
      assert.equal(saved.day, 2);
      assert.equal(saved.seed, 42, "the world of the gateway's default seed");
    } finally {
      running.kill('SIGTERM');
    }
    const { code, signal } = await running.exit;
    assert.equal(signal, null, `ended by its own exit, not killed by the signal: ${running.stderr()}`);
    assert.equal(code, 0, running.stderr());
    assert.match(running.stderr(), /SIGTERM: simulated suppliers closed/);
    assert.ok(await allFree(range(base)), 'every port is free again once it exited');
  });

  it('exits 1 naming the range when one of its ports is taken, and leaves none of the others listening', async () => {
    const base = await freeBase();
    const taken = await listenOn(base + 2);
    assert.ok(taken !== null, 'the port to occupy was free');
    const out: string[] = [];
    const err: string[] = [];
    try {
      const code = await main(
        ['sim', '--port', String(base)],
        { out: (l) => out.push(l), err: (l) => err.push(l) },
        { STAYGATE_DATA_DIR: dataDir(), STAYGATE_SIM_STAYS: '50' },
      );
      assert.equal(code, 1);
    } finally {
      await closeServer(taken);
    }
    assert.deepEqual(out, [], 'no URL lines: nothing to export');
    assert.match(err.join('\n'), new RegExp(`a port of ${base}\\.\\.${base + 4} is taken`));
    assert.ok(await allFree(range(base)), 'the servers that did start were closed');
  });

  it('refuses a --port that cannot hold five ports, and arguments it does not know, as wrong usage', async () => {
    for (const args of [['--port', 'abc'], ['--port', '65532'], ['--port', '-1'], ['extra'], ['--ports', '4000']]) {
      const err: string[] = [];
      const code = await main(['sim', ...args], { out: () => {}, err: (l) => err.push(l) }, { STAYGATE_DATA_DIR: dataDir() });
      assert.equal(code, 2, `${args.join(' ')}: ${err.join('\n')}`);
    }
  });
});
