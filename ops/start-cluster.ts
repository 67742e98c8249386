// The scale-out topology on one machine, without containers: the standalone simulator
// (`staygate sim --port`), N gateway processes on one PostgreSQL database and one Redis, and
// optionally nginx in front. Used by `npm run cluster`, the multi-process test and
// `npm run bench -- scale-out`; compose.yaml describes the same topology in containers.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderNginxConf } from './nginx-conf.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface ClusterOptions {
  /** postgres://... shared by every gateway. */
  databaseUrl: string;
  /** redis://... shared by every gateway. */
  redisUrl: string;
  /** Key prefix of this cluster in Redis (STAYGATE_REDIS_PREFIX), so clusters on one Redis stay apart. */
  redisPrefix?: string;
  gateways?: number;
  /** Where each process keeps what is genuinely local (sim state, per-gateway folders, nginx's files). */
  workDir: string;
  /** Put nginx in front (`nginxUrl`). */
  nginx?: boolean;
  /** Extra environment of every gateway (STAYGATE_CONTENT_REFRESH_MS, LOG_LEVEL, ...). */
  gatewayEnv?: NodeJS.ProcessEnv;
  /** Environment of the simulator (STAYGATE_SIM_STAYS, STAYGATE_SIM_SEED, STAYGATE_SIM_LATENCY_MS, ...). */
  simEnv?: NodeJS.ProcessEnv;
  /** Where the processes' output goes (default: files in workDir). */
  onOutput?: (name: string, chunk: string) => void;
}

export interface Cluster {
  gatewayUrls: string[];
  /** nginx in front of every gateway; null without nginx. */
  nginxUrl: string | null;
  controlUrl: string;
  /** The environment a CLI or a gateway needs to join this cluster (suppliers, DATABASE_URL, REDIS_URL). */
  env: NodeJS.ProcessEnv;
  /** Runs `staygate <args>` against the cluster; resolves with its exit code and output. */
  cli(args: string[], env?: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }>;
  /** Signals gateway i and waits for its exit. */
  kill(i: number, signal: NodeJS.Signals): Promise<void>;
  /** Starts gateway i again on its port; resolves when its /health answers 200. */
  restart(i: number): Promise<void>;
  stop(): Promise<void>;
}

/** A free TCP port on loopback, or the base of `count` consecutive free ports. */
export async function freePorts(count = 1): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = count === 1 ? await ephemeralPort() : 20_000 + Math.floor(Math.random() * 30_000);
    const all = await Promise.all(Array.from({ length: count }, (_, i) => portFree(base + i)));
    if (all.every(Boolean)) return base;
  }
  throw new Error(`no ${count} consecutive free ports found`);
}

function ephemeralPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net
      .createServer()
      .once('error', reject)
      .listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
  });
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net
      .createServer()
      .once('error', () => resolve(false))
      .listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Waits for `url` to answer 200, polling; rejects when `child` exits first or after `timeoutMs`. */
export async function waitForOk(url: string, child: ChildProcess | null, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child !== null && (child.exitCode !== null || child.signalCode !== null))
      throw new Error(`${url}: the process exited (${child.exitCode ?? child.signalCode})`);
    const status = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms (last: ${status})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

async function stopProcess(child: ChildProcess | null): Promise<void> {
  if (child === null) return;
  const done = exited(child);
  child.kill('SIGTERM');
  const forced = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await done;
  clearTimeout(forced);
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const count = options.gateways ?? 2;
  mkdirSync(options.workDir, { recursive: true });
  const output = (name: string) => {
    if (options.onOutput) return (chunk: Buffer) => options.onOutput!(name, chunk.toString());
    const file = path.join(options.workDir, `${name}.log`);
    writeFileSync(file, '');
    return (chunk: Buffer) => writeFileSync(file, chunk, { flag: 'a' });
  };
  const children: (ChildProcess | null)[] = [];
  let sim: ChildProcess | null = null;
  let nginx: ChildProcess | null = null;
  const stop = async () => {
    await stopProcess(nginx);
    await Promise.all(children.map(stopProcess));
    await stopProcess(sim);
  };
  try {
    // The simulator alone, its state in its own folder; it prints the variables to export.
    const simPort = await freePorts(5);
    sim = spawn(process.execPath, [path.join(ROOT, 'bin/staygate.js'), 'sim', '--port', String(simPort)], {
      cwd: ROOT,
      env: { ...process.env, ...options.simEnv, STAYGATE_DATA_DIR: path.join(options.workDir, 'sim') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    sim.stderr!.on('data', output('sim'));
    const simVars = await readSimVariables(sim);
    const env: NodeJS.ProcessEnv = {
      ...simVars,
      DATABASE_URL: options.databaseUrl,
      REDIS_URL: options.redisUrl,
      ...(options.redisPrefix ? { STAYGATE_REDIS_PREFIX: options.redisPrefix } : {}),
    };
    const ports = await Promise.all(Array.from({ length: count }, () => freePorts(1)));
    const gatewayUrls = ports.map((port) => `http://127.0.0.1:${port}`);
    const startGateway = async (i: number) => {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/server.ts')], {
        cwd: ROOT,
        env: {
          ...process.env,
          LOG_LEVEL: 'warn',
          ...options.gatewayEnv,
          ...env,
          PORT: String(ports[i]),
          HOST: '127.0.0.1',
          STAYGATE_DATA_DIR: path.join(options.workDir, `gateway-${i + 1}`),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children[i] = child;
      child.stdout!.on('data', output(`gateway-${i + 1}`));
      child.stderr!.on('data', output(`gateway-${i + 1}`));
      await waitForOk(`${gatewayUrls[i]}/health`, child, 180_000);
    };
    // One after the other: the first ingests the content under its lease, the next finds it published.
    for (let i = 0; i < count; i++) await startGateway(i);
    let nginxUrl: string | null = null;
    if (options.nginx) {
      const port = await freePorts(1);
      const prefix = path.join(options.workDir, 'nginx');
      mkdirSync(path.join(prefix, 'logs'), { recursive: true });
      writeFileSync(
        path.join(prefix, 'nginx.conf'),
        renderNginxConf({ port, upstreams: gatewayUrls.map((url) => new URL(url).host), prefix }),
      );
      nginx = spawn('nginx', ['-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-g', 'daemon off;'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      nginx.stderr!.on('data', output('nginx'));
      nginxUrl = `http://127.0.0.1:${port}`;
      await waitForOk(`${nginxUrl}/health/live`, nginx, 10_000);
    }
    return {
      gatewayUrls,
      nginxUrl,
      controlUrl: simVars.STAYGATE_SIM_CONTROL_URL!,
      env,
      cli: (args, extra) => runCli(args, { ...process.env, ...env, STAYGATE_DATA_DIR: path.join(options.workDir, 'cli'), ...extra }),
      kill: async (i, signal) => {
        const child = children[i];
        if (!child) return;
        const done = exited(child);
        child.kill(signal);
        await done;
      },
      restart: (i) => startGateway(i),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Reads the simulator's `NAME=value` lines until the control URL, the last of them, has come. */
function readSimVariables(sim: ChildProcess): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const vars: Record<string, string> = {};
    let buffered = '';
    sim.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline).trim();
        buffered = buffered.slice(newline + 1);
        const match = /^(STAYGATE_[A-Z_]+)=(\S+)$/.exec(line);
        if (match) vars[match[1]] = match[2];
        if (vars.STAYGATE_SIM_CONTROL_URL && vars.STAYGATE_SUPPLIER_D_URL) resolve(vars);
      }
    });
    sim.once('exit', (code) => reject(new Error(`staygate sim exited with code ${code} before printing its addresses`)));
  });
}

function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/staygate.js'), ...args], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}
