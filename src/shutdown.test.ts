// Clean shutdown (issue 12): the real `npm start` command line (package.json, exec node --import
// tsx src/server.ts) with its real simulator child, a real SIGTERM while a request is in flight. The
// request completes, the process exits 0, the simulator is gone and the port is free. (The start
// command is node itself, never the tsx CLI: tsx relays a signal and SIGKILLs its child when the
// child has not acknowledged it within 30 ms, which a busy gateway can miss.) Then the same signal
// to the pid of `npm start` itself, what a process manager or a shell's `kill %1` holds (issue 25).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freePort } from './test-support/free-port.ts';
import { daysAhead } from './test-support/days-ahead.ts';

/** The in-flight search's dates, ahead of the real clock the gateway runs on. */
const CHECKIN = daysAhead(100);
const CHECKOUT = daysAhead(102);

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const START_SCRIPT = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
// npm runs a script through `sh -c`, which would stay between npm and node: `exec` makes the shell
// become node, so the signal npm forwards to its child reaches the server (the last test). Only
// environment settings come before it.
assert.match(START_SCRIPT, /^(\w+=\S+ )*exec node /, 'npm start execs node itself, which receives the signal');
const START = START_SCRIPT.slice(START_SCRIPT.indexOf('exec node ') + 'exec '.length).split(' ');

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The gateway as `npm start` runs it, on a port of its own; `ready` says whether it got there or exited first. */
async function startGateway(dataDir: string) {
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
  const watchers: (() => void)[] = [];
  for (const stream of [child.stdout, child.stderr])
    stream.on('data', (chunk: Buffer) => {
      log += chunk;
      for (const watch of watchers) watch();
    });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  /** Resolves once the log says `pattern`; rejects, with the log, when the gateway exits first. */
  const seen = (pattern: RegExp) =>
    Promise.race([
      new Promise<void>((resolve) => {
        const check = () => pattern.test(log) && resolve();
        watchers.push(check);
        check();
      }),
      exited.then((code) => {
        // The exit event can come before the last output: read what is there, then decide.
        if (!pattern.test(log)) throw new Error(`the gateway exited (${code}) before logging ${pattern}:\n${log}`);
      }),
    ]);
  const ready = seen(/"msg":"ready in/).then(
    () => true,
    () => false,
  );
  return { child, port, exited, seen, ready, log: () => log };
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(
    `${signal} lets the request in flight finish, stops the simulator and exits 0 with the port free`,
    {
      timeout: 180_000,
    },
    async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'staygate-shutdown-'));
      let gateway = await startGateway(dataDir);
      // freePort's port can be taken by another process before the gateway binds it (a loaded
      // suite): the gateway then says so and exits 1, and the test takes another port.
      for (let attempt = 1; !(await gateway.ready); attempt++) {
        assert.ok(attempt < 3 && /is in use/.test(gateway.log()), `the gateway exited before it was ready:\n${gateway.log()}`);
        gateway = await startGateway(dataDir);
      }
      const { child, port, exited, seen } = gateway;
      const log = gateway.log;
      try {
        const base = `http://127.0.0.1:${port}`;
        assert.equal((await fetch(`${base}/health`)).status, 200);
        const simulator = JSON.parse(readFileSync(path.join(dataDir, 'simulator.json'), 'utf8')) as { controlUrl: string };
        const simPort = Number(new URL(simulator.controlUrl).port);

        // The dated search is in flight once the gateway logged it as incoming.
        const inFlight = fetch(
          `${base}/v3/accommodations?nelat=90&nelng=180&swlat=-90&swlng=-180&checkin=${CHECKIN}&checkout=${CHECKOUT}&pageSize=5`,
        );
        await seen(new RegExp(`incoming request[^\\n]*checkin=${CHECKIN}|checkin=${CHECKIN}[^\\n]*incoming request`));
        child.kill(signal);
        const res = await inFlight;
        assert.equal(res.status, 200, 'the request in flight got its answer');
        assert.equal(await exited, 0);
        assert.match(log(), new RegExp(`${signal} received: shutting down`));
        assert.match(log(), /shut down in \d+ ms/);
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

test('a port already taken: one line saying so, exit 1, no stack trace, no simulator left', { timeout: 180_000 }, async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'staygate-port-taken-'));
  const taken = net.createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const port = (taken.address() as net.AddressInfo).port;
  try {
    const child = spawn(process.execPath, START.slice(1), {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), STAYGATE_DATA_DIR: dataDir, STAYGATE_SIM_STAYS: '300', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => (log += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', (exit) => resolve(exit)));
    assert.equal(code, 1, log);
    assert.match(
      log,
      new RegExp(`"msg":"cannot listen: port ${port} on 127\\.0\\.0\\.1 is in use \\(another staygate, or another service\\)`),
    );
    assert.doesNotMatch(log, /\n\s+at |node:net/, 'no stack trace');
    // The simulator had started before the listen: it is gone too.
    const simulator = JSON.parse(readFileSync(path.join(dataDir, 'simulator.json'), 'utf8')) as { controlUrl: string };
    await assert.rejects(fetch(`${simulator.controlUrl}/faults`));
  } finally {
    await new Promise((resolve) => taken.close(resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
});

/** The pids of a process's children, from /proc (Linux, where the gateway runs; every thread's: a child belongs to the thread that forked it). */
function childrenOf(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
  );
}

const commandLine = (pid: number): string => readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');

test('SIGTERM to the pid of `npm start` stops the gateway and the simulator, and npm exits 0', { timeout: 240_000 }, async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'staygate-npm-start-'));
  const port = await freePort();
  // `npm start` as an operator types it (its prestart build included), the npm of this machine.
  const npm = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), STAYGATE_DATA_DIR: dataDir, STAYGATE_SIM_STAYS: '300', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const onLog: (() => void)[] = [];
  for (const stream of [npm.stdout, npm.stderr]) {
    stream.on('data', (chunk: Buffer) => {
      log += chunk;
      for (const watch of onLog) watch();
    });
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    npm.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const ready = new Promise<void>((resolve) => {
    const check = () => /"msg":"ready in/.test(log) && resolve();
    onLog.push(check);
    check();
  });
  let gateway: number | null = null;
  let simulator: number | null = null;
  try {
    await ready;
    // The gateway is the node process that logged "ready" (below npm, through whatever runs the
    // script); the simulator is its child running @staygate/sim.
    gateway = Number(/"pid":(\d+)[^\n]*"msg":"ready in/.exec(log)![1]);
    simulator = childrenOf(gateway).find((pid) => commandLine(pid).includes('packages/sim/')) ?? null;
    assert.ok(simulator !== null, `the gateway ${gateway} has a simulator child`);
    assert.ok(alive(gateway) && alive(simulator), 'both run before the signal');
    // glibc's malloc set to give back what a content refresh used (docs/decisions.md 205).
    const environ = readFileSync(`/proc/${gateway}/environ`, 'utf8').split('\0');
    for (const setting of ['MALLOC_ARENA_MAX=2', 'MALLOC_MMAP_THRESHOLD_=131072', 'MALLOC_TRIM_THRESHOLD_=131072'])
      assert.ok(environ.includes(setting), `the gateway runs with ${setting}`);

    process.kill(npm.pid!, 'SIGTERM');
    assert.deepEqual(await exited, { code: 0, signal: null }, `npm start exits 0\n${log}`);
    assert.match(log, /SIGTERM received: shutting down/, 'the gateway got the signal');
    assert.ok(!alive(gateway), `no gateway left (pid ${gateway})`);
    assert.ok(!alive(simulator), `no simulator left (pid ${simulator})`);
  } finally {
    if (npm.exitCode === null && npm.signalCode === null) npm.kill('SIGKILL');
    for (const pid of [simulator, gateway]) if (pid !== null && alive(pid)) process.kill(pid, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
});
