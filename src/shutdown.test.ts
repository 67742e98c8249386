// Clean shutdown (issue 12): the real `npm start` command line (package.json, node --import tsx
// src/server.ts) with its real simulator child, a real SIGTERM while a request is in flight. The
// request completes, the process exits 0, the simulator is gone and the port is free. (The start
// command is node itself, never the tsx CLI: tsx relays a signal and SIGKILLs its child when the
// child has not acknowledged it within 30 ms, which a busy gateway can miss.)
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const START = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start.split(
  ' ',
);
assert.equal(START[0], 'node', 'npm start runs node itself, which receives the signal');

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(
    `${signal} lets the request in flight finish, stops the simulator and exits 0 with the port free`,
    {
      timeout: 180_000,
    },
    async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'staygate-shutdown-'));
      const port = await freePort();
      const child = spawn(process.execPath, START.slice(1), {
        cwd: ROOT,
        env: {
          ...process.env,
          PORT: String(port),
          STAYGATE_DATA_DIR: dataDir,
          STAYGATE_SIM_STAYS: '1500',
          // Quotes take 700 ms: a dated search is in flight long enough to be caught by the signal.
          STAYGATE_SIM_LATENCY_MS: '700',
          LOG_LEVEL: 'info',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let log = '';
      const lines: ((line: string) => void)[] = [];
      child.stdout.on('data', (chunk: Buffer) => {
        log += chunk;
        for (const watch of lines) watch(String(chunk));
      });
      child.stderr.on('data', (chunk: Buffer) => {
        log += chunk;
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      const seen = (pattern: RegExp) =>
        new Promise<void>((resolve) => {
          if (pattern.test(log)) return resolve();
          lines.push(() => {
            if (pattern.test(log)) resolve();
          });
        });
      try {
        await seen(/"msg":"ready in/);
        const base = `http://127.0.0.1:${port}`;
        assert.equal((await fetch(`${base}/health`)).status, 200);
        const simulator = JSON.parse(readFileSync(path.join(dataDir, 'simulator.json'), 'utf8')) as { controlUrl: string };
        const simPort = Number(new URL(simulator.controlUrl).port);

        // The dated search is in flight once the gateway logged it as incoming.
        const inFlight = fetch(
          `${base}/v3/accommodations?nelat=90&nelng=180&swlat=-90&swlng=-180&checkin=2027-03-10&checkout=2027-03-12&pageSize=5`,
        );
        await seen(/incoming request[^\n]*checkin=2027-03-10|checkin=2027-03-10[^\n]*incoming request/);
        child.kill(signal);
        const res = await inFlight;
        assert.equal(res.status, 200, 'the request in flight got its answer');
        assert.equal(await exited, 0);
        assert.match(log, new RegExp(`${signal} received: shutting down`));
        assert.match(log, /shut down in \d+ ms/);
        // Nothing of the tree outlives it: the port is free, the simulator's control server gone.
        await new Promise<void>((resolve, reject) => {
          const server = net
            .createServer()
            .once('error', reject)
            .listen(port, '127.0.0.1', () => server.close(() => resolve()));
        });
        await assert.rejects(fetch(`http://127.0.0.1:${simPort}/faults`));
        assert.ok(child.pid !== undefined && !alive(child.pid), 'child.pid !== undefined && !alive(child.pid)');
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
}
