// The soak (`npm run soak`, SOAK_SECONDS, default 600): two gateway processes on one data folder,
// sharing rate limits through a Redis of our own, in front of the simulated suppliers, take mixed
// traffic from many keys and client IPs while suppliers are broken and repaired at random and
// Redis is killed, restarted empty, or frozen. Every rule below is checked on every answer, and
// the figures and any violations are printed at the end (exit 1 on a violation):
//   - no 5xx, except v1's documented 502/503/504 for a provider broken within the last 35 s
//     (and its documented 504 `busy`);
//   - every dated answer within the quote budget (1.5 s) plus SOAK_MARGIN_MS (default 500);
//   - per key (or client IP) and endpoint, accepted requests in any 60 s window <= 2 x the limit
//     (two processes: "N processes at most N times it");
//   - gateway RSS level: the last tenth of the run within SOAK_RSS_GROWTH_MB (default 100) of the
//     RSS after warm-up;
//   - no breaker opened on a supplier that had no fault within the preceding 35 s;
//   - nothing lost: every click answered 302 is a row of `clicks` once the gateways are killed,
//     and a final `staygate transactions sync` leaves at least the transactions held before.
// Loopback only: every process listens on 127.0.0.1 and the traffic goes nowhere else. Everything
// it starts is killed at the end (or on Ctrl-C: the first ends the traffic early and checks, a
// second stops at once), and its temporary folder is removed (SOAK_KEEP=1 keeps it, logs included).
import { execFile, fork, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync, type WriteStream } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { BOOKING_PAGES, SIM_CLICK_TIME_PARAM } from '@staygate/sim';
import { SUPPLIER_IDS, type SupplierId } from '../src/types.ts';
import { simEnvLines } from '../src/cli/sim-command.ts';
import type { SimulatedSlot } from '../src/compose/supplier-slots.ts';
import { faultNear, maxInWindow, median, percentile, Violations, type Accepted, type FaultSpan } from './soak-checks.ts';

const ROOT = path.resolve(new URL('..', import.meta.url).pathname);
const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const RATE = Number(process.env.SOAK_RATE ?? 40); // requests per second, on average
const STAYS = Number(process.env.SOAK_STAYS ?? 30_000);
const MARGIN_MS = Number(process.env.SOAK_MARGIN_MS ?? 500);
const RSS_GROWTH_MB = Number(process.env.SOAK_RSS_GROWTH_MB ?? 100);
const KEEP = process.env.SOAK_KEEP === '1';
const QUOTE_BUDGET_MS = 1_500; // defaults.quoteBudgetMs: the README's quote deadline per search
const WINDOW_MS = 60_000;
const GATEWAYS = 2;
const FAULT_LOOKBACK_MS = 35_000;
const MAX_IN_FLIGHT = 120;
const REQUEST_TIMEOUT_MS = 15_000;
const FAULT_MODES = ['down', 'timeout', 'error', 'malformed', 'slow'] as const;
const execFileAsync = promisify(execFile);

for (const [name, value] of Object.entries({ SOAK_SECONDS: SECONDS, SOAK_RATE: RATE, SOAK_STAYS: STAYS })) {
  if (!(Number.isFinite(value) && value > 0)) throw new Error(`${name} must be a positive number`);
}

// ---------------------------------------------------------------------------------------------
// Processes

const tmp = mkdtempSync(path.join(os.tmpdir(), 'staygate-soak-'));
const dataDir = path.join(tmp, 'data');
const children = new Set<ChildProcess>();
const random = (n: number) => Math.floor(Math.random() * n);
const pick = <T>(xs: readonly T[]): T => xs[random(xs.length)];
const between = (lo: number, hi: number) => lo + Math.random() * (hi - lo);
const log = (line: string) => console.log(`[soak ${((Date.now() - (startedAt || Date.now())) / 1000).toFixed(0).padStart(4)} s] ${line}`);
let startedAt = 0;
const loopDelay = monitorEventLoopDelay({ resolution: 10 });

function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

function killAll(): void {
  for (const child of children) child.kill('SIGKILL');
}
process.on('exit', killAll);

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** PING over a raw socket: resolves true on +PONG within `ms`. */
function redisPing(port: number, ms = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      socket.destroy();
      clearTimeout(timer);
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), ms);
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

class OwnRedis {
  process: ChildProcess | null = null;
  stopped = false;
  constructor(readonly port: number) {}

  async start(): Promise<void> {
    this.process = track(
      spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', tmp], {
        stdio: 'ignore',
      }),
    );
    this.stopped = false;
    for (let i = 0; i < 100; i++) {
      if (await redisPing(this.port)) return;
      await sleep(50);
    }
    throw new Error(`redis-server did not answer on port ${this.port}`);
  }

  kill(): void {
    this.process?.kill('SIGKILL');
    this.process = null;
  }

  signal(signal: 'SIGSTOP' | 'SIGCONT'): void {
    this.process?.kill(signal);
    this.stopped = signal === 'SIGSTOP';
  }
}

/** What the simulator's process sends once it listens (packages/sim/src/main.ts). */
interface Simulator {
  slots: Record<SupplierId, SimulatedSlot>;
  controlUrl: string;
}

async function startSimulator(): Promise<Simulator> {
  const child = track(
    fork(new URL(import.meta.resolve('@staygate/sim/main')), [], {
      execArgv: ['--import', 'tsx'],
      cwd: ROOT,
      env: { ...process.env, STAYGATE_SIM_STAYS: String(STAYS), STAYGATE_SIM_DATA_DIR: path.join(tmp, 'sim'), STAYGATE_SIM_FAULTS: '' },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    }),
  );
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve(m as Simulator));
    child.once('exit', (code) => reject(new Error(`the simulator exited with code ${code}`)));
  });
}

/** A gateway's JSON log line, as much of it as the soak reads. */
interface LogLine {
  time: number;
  level: number;
  msg?: string;
  supplier?: string;
  breaker?: string;
  cause?: string;
  /** A line that is not pino's JSON (a library writing to stderr). */
  text?: boolean;
}

interface Gateway {
  name: string;
  url: string;
  process: ChildProcess;
  logFile: WriteStream;
  lines: LogLine[];
}

function gatewayEnv(sim: Simulator, redisPort: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    STAYGATE_DATA_DIR: dataDir,
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    STAYGATE_TRUSTED_PROXIES: 'loopback',
    LOG_LEVEL: 'info',
    // Pulled every minute rather than every 5, so that syncs meet the broken suppliers too.
    STAYGATE_REPORT_SYNC_MS: '60000',
  };
  // Each slot configured as an operator configures a real account: API, URL, credentials, booking page.
  for (const line of simEnvLines(sim)) {
    const at = line.indexOf('=');
    env[line.slice(0, at)] = line.slice(at + 1);
  }
  delete env.STAYGATE_PUBLIC_URL;
  return env;
}

async function startGateway(name: string, env: NodeJS.ProcessEnv): Promise<Gateway> {
  const port = await freePort();
  const child = track(
    spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: ROOT,
      env: { ...env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const gateway: Gateway = {
    name,
    url: `http://127.0.0.1:${port}`,
    process: child,
    logFile: createWriteStream(path.join(tmp, `${name}.log`)),
    lines: [],
  };
  for (const stream of [child.stdout!, child.stderr!]) {
    createInterface({ input: stream }).on('line', (line) => {
      gateway.logFile.write(`${line}\n`);
      let parsed: LogLine;
      try {
        parsed = JSON.parse(line) as LogLine;
      } catch {
        parsed = { time: Date.now(), level: 0, msg: line, text: true };
      }
      if (parsed.text || parsed.breaker !== undefined || parsed.level >= 40 || /Redis/.test(parsed.msg ?? '')) gateway.lines.push(parsed);
    });
  }
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code, signal) =>
      reject(new Error(`${name} exited (${code ?? signal}) before it was ready; log: ${path.join(tmp, `${name}.log`)}`)),
    ),
  );
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    const ok = await Promise.race([
      exited,
      fetch(`${gateway.url}/health`).then(
        (r) => r.status === 200,
        () => false,
      ),
    ]);
    if (ok) return gateway;
    await sleep(250);
  }
  throw new Error(`${name} was not ready within 180 s`);
}

function rssMb(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match === null ? null : Number(match[1]) / 1024;
  } catch {
    return null;
  }
}

async function cli(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const { stdout } = await execFileAsync(process.execPath, [path.join(ROOT, 'bin/staygate.js'), ...args], {
    cwd: ROOT,
    env,
    timeout: 120_000,
  });
  return stdout;
}

// ---------------------------------------------------------------------------------------------
// Traffic

interface PartnerKey {
  name: string;
  key: string;
  aid: string;
  limit: number;
  weight: number;
}

type Endpoint = 'v1' | 'v2' | 'v3' | 'go-supplier' | 'go-id' | 'reporting' | 'health' | 'other';

interface Sent {
  kind: string;
  endpoint: Endpoint;
  gateway: string;
  /** `key:<name>`, `ip:<address>`, or null when the limit does not apply (invalid key, no route, /health). */
  subject: string | null;
  /** The limit of that subject on that endpoint (per process). */
  limit: number;
  dated: boolean;
  /** v1's provider. */
  provider?: SupplierId;
  /** A /go answered 302 whose click must be stored (HEAD counts none). */
  click?: boolean;
  sent: number;
  answered: number;
  status: number;
  /** The body's `code` on errors. */
  code?: string;
  error?: string;
}

const records: Sent[] = [];
const goLinks: string[] = [];
const clickIds = new Set<string>();
let landings = 0;
let landingFailures = 0;
let skipped = 0;
let inFlight = 0;

const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  'curl/8.5.0',
  '',
];
const ip = (net8: number, n: number) => `10.${net8}.${Math.floor(n / 250)}.${(n % 250) + 1}`;
/** Keyless searchers (5 a minute each per endpoint), travellers clicking, and key guessers. */
const SEARCH_IPS = Array.from({ length: 40 }, (_, i) => ip(1, i));
const CLICK_IPS = Array.from({ length: 300 }, (_, i) => ip(2, i));
const HOT_CLICK_IP = '10.2.200.1'; // one address clicking faster than its 60 a minute
const GUESS_IPS = Array.from({ length: 5 }, (_, i) => ip(3, i));
const PARTNER_IPS = Array.from({ length: 8 }, (_, i) => ip(4, i));

const PLACES = [
  'nelat=48.90&nelng=2.42&swlat=48.82&swlng=2.27', // Paris
  'nelat=51.56&nelng=0.05&swlat=51.45&swlng=-0.25', // London
  'nelat=41.45&nelng=2.23&swlat=41.35&swlng=2.10', // Barcelona
  'nelat=40.82&nelng=-73.90&swlat=40.68&swlng=-74.05', // New York
  'nelat=55&nelng=15&swlat=40&swlng=-10', // Western Europe
  'lat=41.90&lng=12.49&radius=8000', // Rome
  'lat=52.52&lng=13.40&radius=10000', // Berlin
  'lat=35.68&lng=139.69&radius=15000', // Tokyo
  'address=Paris',
  'address=Lisbon',
  'address=Amsterdam',
  'address=Madrid',
];
const EXTRAS = [
  '',
  '',
  '&pageSize=20',
  '&page=2',
  '&page=3&pageSize=5',
  '&type=hotel',
  '&minguestrating=7',
  '&cluster=auto',
  '&cluster=top',
  '&sort=price',
];

function dates(): string {
  const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
  const start = 2 + random(300);
  return `checkin=${day(start)}&checkout=${day(start + 1 + random(6))}`;
}

const MALFORMED = [
  '/v3/accommodations?checkin=2026-13-45&checkout=2026-14-01&address=Paris',
  '/v3/accommodations?nelat=abc&nelng=2&swlat=1&swlng=1',
  '/v3/accommodations?lat=48.8',
  '/v3/accommodations?nelat=90&nelng=180&swlat=-90&swlng=-180&precision=15',
  '/v3/accommodations?address=Paris&page=-5&pageSize=100000',
  '/v3/accommodations?address=Paris&aid=a%0Ab',
  '/v3/accommodations?address=Paris&adults=0&rooms=99',
  '/v2/accommodations?address=Paris&checkin=2020-01-01&checkout=2020-01-03',
  '/v2/accommodations?address=Nowhere%20Land%20Zzyzx&currency=XXXX',
  '/v1/accommodations?provider=nobody&address=Paris',
  '/v1/accommodations?provider=supplier_a&lat=500&lng=2',
  '/v3/accommodations?address=Paris&address=Rome',
  '/nope',
  '/go/supplier_x/123',
  '/go/not-a-stay',
  '/v1/reporting/transactions?thirdParty=soak-shop&startDate=2026-02-30',
];

function endpointOf(pathname: string, method: string): Endpoint {
  if (method !== 'GET' && method !== 'HEAD') return 'other';
  if (pathname === '/v3/accommodations') return 'v3';
  if (pathname === '/v2/accommodations') return 'v2';
  if (pathname === '/v1/accommodations') return 'v1';
  if (pathname === '/v1/reporting/transactions') return 'reporting';
  if (pathname === '/health') return 'health';
  if (/^\/go\/[^/]+\/[^/]+$/.test(pathname)) return 'go-supplier';
  if (/^\/go\/[^/]+$/.test(pathname)) return 'go-id';
  return 'other';
}

/** Every `/go` link in a search answer, rewritten onto whichever gateway will be clicked. */
function harvest(value: unknown): void {
  if (typeof value === 'string') {
    const at = value.indexOf('/go/');
    if (at >= 0 && value.startsWith('http://127.0.0.1:') && goLinks.length < 5_000) goLinks.push(value.slice(at));
    else if (at >= 0 && goLinks.length >= 5_000) goLinks[random(goLinks.length)] = value.slice(at);
    return;
  }
  if (Array.isArray(value)) for (const v of value) harvest(v);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) harvest(v);
}

interface Plan {
  kind: string;
  path: string;
  method?: string;
  headers: Record<string, string>;
  subject: string | null;
  limit: number;
  dated: boolean;
  provider?: SupplierId;
  follow?: boolean;
}

const keys: PartnerKey[] = [];
let reportKey: PartnerKey;
let gateways: Gateway[] = [];
let sim: Simulator;
let turn = 0;

function pickKey(): PartnerKey {
  const total = keys.reduce((a, k) => a + k.weight, 0);
  let r = Math.random() * total;
  for (const k of keys) if ((r -= k.weight) < 0) return k;
  return keys[0];
}

function keyed(kind: string, pathAndQuery: string, dated: boolean, provider?: SupplierId): Plan {
  const k = pickKey();
  return {
    kind,
    path: pathAndQuery,
    headers: { 'x-api-key': k.key, 'x-forwarded-for': pick(PARTNER_IPS) },
    subject: `key:${k.name}`,
    limit: k.limit,
    dated,
    provider,
  };
}

function keyless(kind: string, pathAndQuery: string, dated: boolean, provider?: SupplierId): Plan {
  const address = pick(SEARCH_IPS);
  return { kind, path: pathAndQuery, headers: { 'x-forwarded-for': address }, subject: `ip:${address}`, limit: 5, dated, provider };
}

/** One request of the mix, by weight. */
function plan(): Plan {
  const r = Math.random() * 100;
  const place = pick(PLACES);
  const extra = pick(EXTRAS);
  const provider = pick(SUPPLIER_IDS);
  if (r < 20) return keyed('v3 static', `/v3/accommodations?${place}${extra}`, false);
  if (r < 33)
    return keyed(
      'v3 dated',
      `/v3/accommodations?${place}&${dates()}${pick(['', '&adults=1', '&adults=3&children=1&childrenAges=7', '&currency=EUR'])}`,
      true,
    );
  if (r < 38) return keyed('v2 static', `/v2/accommodations?${place}${extra}`, false);
  if (r < 43) return keyed('v2 dated', `/v2/accommodations?${place}&${dates()}`, true);
  if (r < 49)
    return keyed('v1 dated', `/v1/accommodations?provider=${provider}&${place}&${dates()}&limit=${pick([5, 20, 50])}`, true, provider);
  if (r < 50) return keyed('v1 default dates', `/v1/accommodations?provider=${provider}&${place}`, true, provider);
  if (r < 53)
    return Math.random() < 0.3
      ? keyless('keyless v3 dated', `/v3/accommodations?${place}&${dates()}`, true)
      : keyless('keyless v3', `/v3/accommodations?${place}`, false);
  if (r < 55) return keyless('keyless v2', `/v2/accommodations?${place}`, false);
  if (r < 56) return keyless('keyless v1', `/v1/accommodations?provider=${provider}&${place}&${dates()}`, true, provider);
  if (r < 78 && goLinks.length > 0) {
    const address = Math.random() < 0.08 ? HOT_CLICK_IP : pick(CLICK_IPS);
    const link = pick(goLinks);
    const head = Math.random() < 0.03;
    const endpoint = endpointOf(new URL(link, 'http://x').pathname, 'GET');
    return {
      kind: head ? 'go HEAD' : endpoint === 'go-id' ? 'go/{id}' : 'go/{supplier}/{id}',
      path: link,
      method: head ? 'HEAD' : 'GET',
      headers: { 'x-forwarded-for': address, 'user-agent': pick(USER_AGENTS) },
      subject: `ip:${address}`,
      limit: 60,
      dated: false,
      follow: !head && Math.random() < 0.6,
    };
  }
  if (r < 81) {
    return {
      kind: 'reporting',
      path: `/v1/reporting/transactions?thirdParty=soak-shop&format=${pick(['json', 'csv'])}&limit=${pick([10, 100, 500])}`,
      headers: { 'x-api-key': reportKey.key, 'x-forwarded-for': pick(PARTNER_IPS) },
      subject: `key:${reportKey.name}`,
      limit: reportKey.limit,
      dated: false,
    };
  }
  if (r < 83) {
    const guesser = pick(GUESS_IPS);
    return {
      kind: 'invalid key',
      path: `/v3/accommodations?${place}`,
      headers: { 'x-api-key': `sg_guess${random(1e6)}_${'x'.repeat(43)}`, 'x-forwarded-for': guesser },
      subject: null,
      limit: 0,
      dated: false,
    };
  }
  if (r < 85) return { kind: 'health', path: '/health', headers: {}, subject: null, limit: 0, dated: false };
  if (r < 86)
    return {
      kind: 'bad method',
      path: `/v3/accommodations?${place}`,
      method: pick(['POST', 'DELETE', 'PUT']),
      headers: {},
      subject: null,
      limit: 0,
      dated: false,
    };
  const bad = pick(MALFORMED);
  const p = Math.random() < 0.5 ? keyed('malformed', bad, false) : keyless('malformed', bad, false);
  // A 400 still counts against the bucket of its route; an unknown route shares one bucket.
  if (endpointOf(new URL(bad, 'http://x').pathname, 'GET') === 'other') p.subject = null;
  return p;
}

async function send(p: Plan): Promise<void> {
  const gateway = gateways[turn++ % gateways.length];
  const method = p.method ?? 'GET';
  const url = `${gateway.url}${p.path}`;
  const record: Sent = {
    kind: p.kind,
    endpoint: endpointOf(new URL(url).pathname, method),
    gateway: gateway.name,
    subject: p.subject,
    limit: p.limit,
    dated: p.dated,
    provider: p.provider,
    sent: Date.now(),
    answered: 0,
    status: 0,
  };
  inFlight++;
  try {
    const res = await fetch(url, { method, headers: p.headers, redirect: 'manual', signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const text = await res.text();
    record.answered = Date.now();
    record.status = res.status;
    if (res.status >= 400) {
      try {
        record.code = (JSON.parse(text) as { code?: string }).code;
      } catch {
        record.code = '(not JSON)';
      }
    } else if (res.status === 200 && (record.endpoint === 'v3' || record.endpoint === 'v2' || record.endpoint === 'v1')) {
      harvest(JSON.parse(text));
    }
    if (res.status === 302 && method === 'GET') {
      record.click = true;
      const location = res.headers.get('location') ?? '';
      const target = new URL(location);
      const supplier = SUPPLIER_IDS.find((id) => sim.slots[id].url === target.origin);
      const clickId = supplier === undefined ? null : target.searchParams.get(BOOKING_PAGES[supplier].click);
      if (clickId === null) record.error = `302 to ${location}: no click id`;
      else clickIds.add(clickId);
      // A share of the travellers reach the booking page, where the supplier may book (and report it).
      if (p.follow && target.hostname === '127.0.0.1') {
        landings++;
        // A quarter land as if clicked up to 12 h ago (the simulator's simClickTime, as the demo
        // seeding uses): their bookings fall within the run, so the syncs have transactions to move.
        if (Math.random() < 0.25)
          target.searchParams.set(SIM_CLICK_TIME_PARAM, new Date(Date.now() - between(600_000, 12 * 3_600_000)).toISOString());
        await fetch(target, { signal: AbortSignal.timeout(5_000) }).then(
          (r) => r.arrayBuffer(),
          () => {
            landingFailures++;
          },
        );
      }
    }
  } catch (error) {
    record.answered = Date.now();
    record.error = (error as Error).message;
  } finally {
    inFlight--;
    records.push(record);
  }
}

// ---------------------------------------------------------------------------------------------
// Chaos

const faults: FaultSpan[] = [];
/** Redis unreachable (killed, or frozen), until a few seconds after it was back: the gateways retry every second. */
const outages: { from: number; to: number }[] = [];
const chaos: string[] = [];
let redis: OwnRedis;

async function setFault(supplier: SupplierId, mode: string): Promise<void> {
  const res = await fetch(`${sim.controlUrl}/faults?${supplier}=${mode}`, { method: 'PUT' });
  if (res.status !== 200) throw new Error(`the control server refused ${supplier}=${mode}: ${res.status} ${await res.text()}`);
}

async function breakSupplier(until: number): Promise<void> {
  const broken = new Set(faults.filter((f) => f.to === Infinity).map((f) => f.supplier));
  const healthy = SUPPLIER_IDS.filter((id) => !broken.has(id));
  if (healthy.length === 0 || broken.size >= 2) return;
  const supplier = pick(healthy);
  const base = pick(FAULT_MODES);
  const mode = base === 'slow' ? `slow:${pick([200, 600, 1200, 2500])}` : base;
  const span: FaultSpan = { supplier, mode, from: Date.now(), to: Infinity };
  faults.push(span);
  await setFault(supplier, mode);
  chaos.push(`${supplier}=${mode}`);
  log(`fault ${supplier}=${mode}`);
  const holdMs = between(10_000, 40_000);
  setTimeout(() => void repair(span), Math.min(holdMs, Math.max(0, until - Date.now()))).unref();
}

async function repair(span: FaultSpan): Promise<void> {
  if (span.to !== Infinity) return;
  await setFault(span.supplier as SupplierId, 'none');
  span.to = Date.now(); // the fault counts until the simulator confirmed it is gone
  log(`repaired ${span.supplier} (${span.mode})`);
}

async function redisChaos(): Promise<void> {
  if (Math.random() < 0.3) {
    const ms = between(5_000, 15_000);
    log(`Redis SIGSTOP for ${(ms / 1000).toFixed(0)} s`);
    chaos.push(`redis SIGSTOP ${(ms / 1000).toFixed(0)} s`);
    const outage = { from: Date.now(), to: Infinity };
    outages.push(outage);
    redis.signal('SIGSTOP');
    await sleep(ms);
    redis.signal('SIGCONT');
    outage.to = Date.now() + 3_000;
    log('Redis SIGCONT');
  } else {
    const ms = between(2_000, 6_000);
    log(`Redis SIGKILL, restarted empty in ${(ms / 1000).toFixed(0)} s`);
    chaos.push(`redis SIGKILL ${(ms / 1000).toFixed(0)} s`);
    const outage = { from: Date.now(), to: Infinity };
    outages.push(outage);
    redis.kill();
    await sleep(ms);
    await redis.start();
    outage.to = Date.now() + 3_000;
    log('Redis restarted (empty)');
  }
}

// ---------------------------------------------------------------------------------------------
// The run

let stopRequested = false;
let interrupts = 0;
process.on('SIGINT', () => {
  interrupts++;
  if (interrupts === 1) {
    stopRequested = true;
    log('SIGINT: ending the traffic now, then checking (Ctrl-C again to stop at once)');
  } else {
    killAll();
    if (!KEEP) rmSync(tmp, { recursive: true, force: true });
    process.exit(130);
  }
});

async function until(deadline: number): Promise<boolean> {
  while (Date.now() < deadline) {
    if (stopRequested) return false;
    await sleep(Math.min(250, deadline - Date.now()));
  }
  return !stopRequested;
}

interface RssSample {
  at: number;
  gateway: string;
  mb: number;
}

// The soak's script, in the order it happens (start Redis, the simulator, the gateways; drive load;
// kill and restart one; drain; check): long because each step waits on the one before and cleans
// up after itself in the one finally, which a split would spread over several functions.
async function main(): Promise<number> {
  log(`temporary folder ${tmp}; ${SECONDS} s at ~${RATE} req/s, ${STAYS} stays`);
  redis = new OwnRedis(await freePort());
  await redis.start();
  sim = await startSimulator();
  log(`simulator up: control ${sim.controlUrl}; Redis on port ${redis.port}`);
  const env = gatewayEnv(sim, redis.port);
  const first = await startGateway('gateway-1', env);
  log(`gateway-1 ready at ${first.url}`);
  // Keys before the second gateway: both then read them from the store at start.
  const plans = [
    { name: 'low-1', limit: 30, weight: 3 },
    { name: 'low-2', limit: 30, weight: 2 },
    { name: 'mid', limit: 100, weight: 3 },
    { name: 'default', limit: 150, weight: 4 },
    { name: 'high', limit: 600, weight: 4 },
  ];
  for (const k of plans) {
    const out = await cli(
      [
        'keys',
        'create',
        '--aid',
        `soak-${k.name}`,
        '--third-party',
        'soak-shop',
        ...(k.name === 'default' ? [] : ['--limit', String(k.limit)]),
      ],
      env,
    );
    keys.push({ ...k, aid: `soak-${k.name}`, key: out.trim().split('\n').pop()! });
  }
  const out = await cli(['keys', 'create', '--aid', 'soak-report', '--third-party', 'soak-shop', '--limit', '60'], env);
  reportKey = { name: 'report', aid: 'soak-report', limit: 60, weight: 0, key: out.trim().split('\n').pop()! };
  const second = await startGateway('gateway-2', env);
  log(`gateway-2 ready at ${second.url}`);
  gateways = [first, second];
  // Seed the pool of /go links from a few searches (not recorded).
  for (const place of PLACES.slice(0, 4)) {
    const res = await fetch(`${first.url}/v3/accommodations?${place}&pageSize=50`, { headers: { 'x-api-key': keys[4].key } });
    harvest(await res.json());
  }
  log(`${goLinks.length} /go links harvested; traffic starts`);

  // Our own event loop: a stall here would inflate every latency we measure.
  loopDelay.enable();
  startedAt = Date.now();
  const end = startedAt + SECONDS * 1000;
  const chaosEnd = end - Math.min(20_000, SECONDS * 100); // the last seconds run without new chaos
  const rss: RssSample[] = [];
  const sampler = setInterval(() => {
    for (const g of gateways) {
      const mb = rssMb(g.process.pid);
      if (mb !== null) rss.push({ at: Date.now(), gateway: g.name, mb });
    }
  }, 2_000);
  const progress = setInterval(() => {
    const recent = records.filter((r) => r.sent > Date.now() - 30_000);
    const by = new Map<number, number>();
    for (const r of recent) by.set(r.status, (by.get(r.status) ?? 0) + 1);
    log(
      `${(recent.length / 30).toFixed(1)} req/s, in flight ${inFlight}, statuses ${[...by]
        .sort((a, b) => a[0] - b[0])
        .map(([s, n]) => `${s}:${n}`)
        .join(' ')}; ` + `RSS ${gateways.map((g) => `${(rssMb(g.process.pid) ?? 0).toFixed(0)} MB`).join(' / ')}`,
    );
  }, 30_000);

  const traffic = (async () => {
    const pending = new Set<Promise<void>>();
    let next = Date.now();
    while (Date.now() < end && !stopRequested) {
      next += -Math.log(1 - Math.random()) * (1000 / RATE); // Poisson arrivals
      const wait = next - Date.now();
      if (wait > 0) await sleep(wait);
      if (inFlight >= MAX_IN_FLIGHT) {
        skipped++;
        continue;
      }
      const promise = send(plan());
      pending.add(promise);
      void promise.finally(() => pending.delete(promise));
    }
    await Promise.all(pending);
  })();

  const faultLoop = (async () => {
    while (await until(Math.min(chaosEnd, Date.now() + between(15_000, 30_000)))) {
      if (Date.now() >= chaosEnd) break;
      await breakSupplier(chaosEnd);
    }
  })();
  const redisLoop = (async () => {
    while (await until(Math.min(chaosEnd, Date.now() + between(60_000, 90_000) * Math.min(1, SECONDS / 600)))) {
      if (Date.now() >= chaosEnd) break;
      await redisChaos();
    }
  })();

  await Promise.all([traffic, faultLoop, redisLoop]);
  clearInterval(sampler);
  clearInterval(progress);
  const runEnd = Date.now();
  if (redis.stopped) redis.signal('SIGCONT');
  if (redis.process === null) await redis.start();
  for (const span of faults) await repair(span);
  log(`traffic over: ${records.length} requests`);

  // Nothing lost: every click the gateways answered 302 is on disk even after a SIGKILL of both.
  const txBeforeKill = countTransactions();
  for (const g of gateways) g.process.kill('SIGKILL');
  await Promise.all(
    gateways.map(
      (g) =>
        new Promise((resolve) =>
          g.process.exitCode !== null || g.process.signalCode !== null ? resolve(null) : g.process.once('exit', resolve),
        ),
    ),
  );
  await Promise.all(gateways.map((g) => new Promise((resolve) => g.logFile.end(resolve))));
  const db = new Database(path.join(dataDir, 'staygate.sqlite'), { readonly: true });
  const storedIds = new Set(db.prepare('SELECT id FROM clicks').pluck().all() as string[]);
  const txBefore = db.prepare('SELECT COUNT(*) FROM transactions').pluck().get() as number;
  db.close();
  log(`gateways killed; ${storedIds.size} clicks stored; ${txBefore} transactions held; final sync`);
  let syncOut: string;
  try {
    syncOut = await cli(['transactions', 'sync'], env);
  } catch (error) {
    syncOut = `FAILED: ${(error as Error).message}`;
  }
  const db2 = new Database(path.join(dataDir, 'staygate.sqlite'), { readonly: true });
  const txAfter = db2.prepare('SELECT COUNT(*) FROM transactions').pluck().get() as number;
  const txUnknownClick = db2
    .prepare('SELECT COUNT(*) FROM transactions t WHERE t.click_id IS NULL OR NOT EXISTS (SELECT 1 FROM clicks c WHERE c.id = t.click_id)')
    .pluck()
    .get() as number;
  const txByPartner = db2
    .prepare("SELECT COALESCE(partner_id, '(none)') AS partner, COUNT(*) AS n FROM transactions GROUP BY partner ORDER BY partner")
    .all() as { partner: string; n: number }[];
  db2.close();

  writeFileSync(path.join(tmp, 'requests.jsonl'), records.map((r) => JSON.stringify(r)).join('\n'));
  return report({ runEnd, rss, storedIds, txBeforeKill, txBefore, txAfter, txUnknownClick, txByPartner, syncOut });

  function countTransactions(): number {
    const d = new Database(path.join(dataDir, 'staygate.sqlite'), { readonly: true });
    try {
      return d.prepare('SELECT COUNT(*) FROM transactions').pluck().get() as number;
    } finally {
      d.close();
    }
  }
}

interface Outcome {
  runEnd: number;
  rss: RssSample[];
  storedIds: Set<string>;
  txBeforeKill: number;
  txBefore: number;
  txAfter: number;
  txUnknownClick: number;
  txByPartner: { partner: string; n: number }[];
  syncOut: string;
}

// One long function on purpose: the report reads top to bottom in the order it prints (each block a
// section of the output with the checks it makes), and every block uses the same outcome, clock
// and list of violations; split, the sections would pass those around without saying more.
function report(o: Outcome): number {
  const v = new Violations();
  const at = (t: number) => `${((t - startedAt) / 1000).toFixed(1)} s`;
  const out: string[] = [];
  const seconds = (o.runEnd - startedAt) / 1000;
  out.push(
    '',
    `=== staygate soak: ${seconds.toFixed(0)} s, ${records.length} requests (${(records.length / seconds).toFixed(1)}/s), ${GATEWAYS} gateways, ${STAYS} stays ===`,
  );

  // Answers: no 5xx but v1's documented ones, no transport failure or hang.
  for (const r of records) {
    const what = `${r.kind} on ${r.gateway} at ${at(r.sent)}`;
    if (r.error !== undefined) v.add('request failed (no answer, hang or bad redirect)', `${what}: ${r.error}`);
    if (r.status >= 500) {
      const documented =
        r.endpoint === 'v1' &&
        [502, 503, 504].includes(r.status) &&
        r.provider !== undefined &&
        // Judged at the answer: a request sent an instant before a fault began meets it at the
        // supplier (the 502 at 84.7 s of a run whose supplier_a went down at 84.8 s was counted).
        (faultNear(faults, r.provider, r.answered, FAULT_LOOKBACK_MS) !== null || r.code === 'UPSTREAM_TIMEOUT');
      if (!documented) v.add('unexpected 5xx', `${what}: ${r.status} ${r.code ?? ''}`);
    }
    if (r.code === '(not JSON)') v.add('error without the JSON body', `${what}: ${r.status}`);
  }
  const table = new Map<string, Map<number, number>>();
  for (const r of records) {
    const row = table.get(r.kind) ?? new Map<number, number>();
    row.set(r.status, (row.get(r.status) ?? 0) + 1);
    table.set(r.kind, row);
  }
  out.push('', 'requests by kind and status (0 = no answer):');
  for (const [kind, row] of [...table].sort()) {
    const n = [...row.values()].reduce((a, b) => a + b, 0);
    out.push(
      `  ${kind.padEnd(20)} ${String(n).padStart(6)}  ${[...row]
        .sort((a, b) => a[0] - b[0])
        .map(([s, c]) => `${s}:${c}`)
        .join(' ')}`,
    );
  }
  const v1Busy = records.filter(
    (r) =>
      r.endpoint === 'v1' &&
      r.status === 504 &&
      r.provider !== undefined &&
      faultNear(faults, r.provider, r.sent, FAULT_LOOKBACK_MS) === null,
  ).length;
  out.push(`  v1 5xx while its provider was healthy: ${v1Busy} (504 UPSTREAM_TIMEOUT "busy" only; docs/decisions.md 27)`);

  // Latency: dated answers within the budget.
  const answered = records.filter((r) => r.status === 200 && r.error === undefined);
  const datedWork = records.filter((r) => r.dated && r.error === undefined && (r.status === 200 || r.status >= 500));
  for (const r of datedWork) {
    const ms = r.answered - r.sent;
    if (ms > QUOTE_BUDGET_MS + MARGIN_MS)
      v.add(`dated answer over ${QUOTE_BUDGET_MS} + ${MARGIN_MS} ms`, `${r.kind} on ${r.gateway} at ${at(r.sent)}: ${ms} ms (${r.status})`);
  }
  const lat = (rs: Sent[]) => rs.map((r) => r.answered - r.sent);
  const staticMs = lat(answered.filter((r) => !r.dated && ['v2', 'v3'].includes(r.endpoint)));
  const datedMs = lat(datedWork);
  const goMs = lat(records.filter((r) => r.status === 302));
  const healthMs = lat(records.filter((r) => r.kind === 'health' && r.status === 200));
  out.push('', 'latency (ms, as seen by the client):');
  out.push(
    `  static v2/v3 200   n=${staticMs.length} p50 ${median(staticMs)} p99 ${percentile(staticMs, 99)} max ${Math.max(...staticMs)}`,
  );
  out.push(
    `  dated v1/v2/v3     n=${datedMs.length} p50 ${median(datedMs)} p99 ${percentile(datedMs, 99)} max ${Math.max(...datedMs)} (bound ${QUOTE_BUDGET_MS} + ${MARGIN_MS})`,
  );
  out.push(
    `  the soak's own event loop: delay p99 ${(loopDelay.percentile(99) / 1e6).toFixed(0)} ms, max ${(loopDelay.max / 1e6).toFixed(0)} ms`,
  );
  out.push(
    `  /health 200        n=${healthMs.length} p50 ${median(healthMs)} p99 ${percentile(healthMs, 99)} max ${Math.max(...healthMs)}`,
  );
  out.push(`  /go 302            n=${goMs.length} p50 ${median(goMs)} p99 ${percentile(goMs, 99)} max ${Math.max(...goMs)}`);

  // Limits: per subject and endpoint, at most GATEWAYS x the limit in any 60 s window.
  const buckets = new Map<string, { limit: number; accepted: Accepted[]; refused: number }>();
  for (const r of records) {
    if (r.subject === null || r.endpoint === 'other' || r.endpoint === 'health' || r.error !== undefined) continue;
    const id = `${r.endpoint} ${r.subject}`;
    const b = buckets.get(id) ?? { limit: r.limit, accepted: [], refused: 0 };
    if (r.status === 429) b.refused++;
    else if (r.status !== 401) b.accepted.push({ sent: r.sent, answered: r.answered });
    buckets.set(id, b);
  }
  out.push(
    '',
    `rate limits (most accepted in one 60 s window vs the limit; bound ${GATEWAYS} x limit; "shared": in windows clear of any Redis outage, where the limit is one for all):`,
  );
  const groups = new Map<string, { limit: number; max: number; shared: number; worst: string; refused: number; buckets: number }>();
  // Outages as the gateways saw them too: a Redis call past its 250 ms timeout (a loaded machine)
  // degrades a gateway with no chaos of ours.
  const seen: { from: number; to: number }[] = [];
  for (const g of gateways) {
    let from: number | null = null;
    for (const l of g.lines) {
      if (/unreachable/.test(l.msg ?? '') && from === null) from = l.time;
      else if (/answers again/.test(l.msg ?? '') && from !== null) {
        seen.push({ from, to: l.time + 1_000 });
        from = null;
      }
    }
    if (from !== null) seen.push({ from, to: Infinity });
  }
  const clear = (start: number, end: number) => [...outages, ...seen].every((o) => o.to <= start || o.from >= end);
  for (const [id, b] of buckets) {
    const max = maxInWindow(b.accepted, WINDOW_MS);
    const shared = maxInWindow(b.accepted, WINDOW_MS, clear);
    if (max > GATEWAYS * b.limit)
      v.add(`limit exceeded (over ${GATEWAYS} x the limit in 60 s)`, `${id}: ${max} accepted, limit ${b.limit}`);
    const [endpoint, subject] = id.split(' ');
    const group = `${endpoint} ${subject.startsWith('key:') ? subject : subject === `ip:${HOT_CLICK_IP}` ? 'hot click IP' : 'per IP'}`;
    const g = groups.get(group) ?? { limit: b.limit, max: 0, shared: 0, worst: '', refused: 0, buckets: 0 };
    g.buckets++;
    g.refused += b.refused;
    g.shared = Math.max(g.shared, shared);
    if (max > g.max) {
      g.max = max;
      g.worst = subject;
    }
    groups.set(group, g);
  }
  let quiet = 0;
  for (const [group, g] of [...groups].sort()) {
    if (g.refused === 0 && g.max < g.limit / 2) {
      quiet++;
      continue;
    }
    out.push(
      `  ${group.padEnd(24)} limit ${String(g.limit).padStart(3)}  max ${String(g.max).padStart(4)} (${(g.max / g.limit).toFixed(2)} x), shared ${String(g.shared).padStart(4)} (${(g.shared / g.limit).toFixed(2)} x)  429s ${g.refused}${g.buckets > 1 ? `  over ${g.buckets} buckets` : ''}`,
    );
  }
  out.push(`  (${quiet} more endpoint/subject groups never refused and stayed under half their limit)`);
  out.push(`  Redis outages: ${outages.map((o) => `${at(o.from)}..${at(o.to)}`).join(', ') || 'none'}`);
  const unforced = seen.filter((s) => outages.every((o) => s.from > o.to || s.to < o.from));
  out.push(`  degradations a gateway logged with Redis running: ${unforced.map((o) => `${at(o.from)}..${at(o.to)}`).join(', ') || 'none'}`);

  // RSS: level after warm-up.
  out.push('', `gateway RSS (MB; bound: the last tenth of the run within ${RSS_GROWTH_MB} MB of the level after warm-up):`);
  const warm = startedAt + Math.min(60_000, (o.runEnd - startedAt) / 5);
  for (const g of gateways) {
    const samples = o.rss.filter((s) => s.gateway === g.name);
    if (samples.length === 0) continue;
    const settled = median(samples.filter((s) => s.at >= warm && s.at < warm + 30_000).map((s) => s.mb));
    const last = median(samples.filter((s) => s.at >= o.runEnd - (o.runEnd - startedAt) / 10).map((s) => s.mb));
    const max = Math.max(...samples.map((s) => s.mb));
    out.push(
      `  ${g.name}: start ${samples[0].mb.toFixed(0)}, after warm-up ${settled.toFixed(0)}, max ${max.toFixed(0)}, end ${last.toFixed(0)} (${last - settled >= 0 ? '+' : ''}${(last - settled).toFixed(0)})`,
    );
    if (last - settled > RSS_GROWTH_MB)
      v.add('RSS growth', `${g.name}: ${settled.toFixed(0)} MB after warm-up, ${last.toFixed(0)} MB at the end`);
  }

  // Breakers: each opening had a fault behind it.
  out.push('', `chaos: ${faults.length} faults (${chaos.filter((c) => c.startsWith('supplier')).join(', ')})`);
  out.push(`       Redis: ${chaos.filter((c) => c.startsWith('redis')).join(', ') || 'none'}`);
  out.push('breaker transitions (open justified = a fault on that supplier within the preceding 35 s):');
  for (const g of gateways) {
    const counts = new Map<string, number>();
    let unjustified = 0;
    for (const line of g.lines.filter((l) => l.breaker !== undefined)) {
      const label = `${line.supplier} ${line.breaker}`;
      counts.set(label, (counts.get(label) ?? 0) + 1);
      if (line.breaker === 'open' && faultNear(faults, line.supplier ?? '', line.time, FAULT_LOOKBACK_MS) === null) {
        unjustified++;
        v.add('breaker opened on a healthy supplier', `${g.name} ${line.supplier} at ${at(line.time)}: ${line.cause}`);
      }
    }
    out.push(
      `  ${g.name}: ${
        [...counts]
          .sort()
          .map(([l, n]) => `${l} x${n}`)
          .join(', ') || 'none'
      }; unjustified openings ${unjustified}`,
    );
    const redisLines = g.lines.filter((l) => /Redis/.test(l.msg ?? ''));
    const degraded = redisLines.filter((l) => /unreachable/.test(l.msg ?? '')).length;
    const recovered = redisLines
      .filter((l) => /answers again/.test(l.msg ?? ''))
      .map((l) => /\((\d+) requests/.exec(l.msg ?? '')?.[1] ?? '?');
    out.push(
      `  ${g.name}: Redis outages logged ${degraded}, recoveries ${recovered.length} (requests put back: ${recovered.join(', ') || '-'})`,
    );
    const texts = g.lines.filter((l) => l.text);
    if (texts.length > 0)
      out.push(
        `  ${g.name}: ${texts.length} lines that are not JSON logs, e.g. ${[...new Set(texts.map((l) => l.msg))].slice(0, 2).join(' | ')}`,
      );
    const errors = g.lines.filter((l) => l.level >= 50 && !/Redis/.test(l.msg ?? ''));
    if (errors.length > 0) {
      out.push(
        `  ${g.name}: ${errors.length} other error log lines, e.g. ${errors
          .slice(0, 3)
          .map((l) => l.msg)
          .join(' | ')}`,
      );
      for (const l of errors) if (l.level >= 60) v.add('fatal log line', `${g.name} at ${at(l.time)}: ${l.msg}`);
    }
  }

  // Nothing lost.
  const clicks302 = records.filter((r) => r.click === true).length;
  let missing = 0;
  for (const id of clickIds) {
    if (!o.storedIds.has(id)) {
      missing++;
      v.add('click answered 302 but not stored', id);
    }
  }
  out.push(
    '',
    `clicks: ${clicks302} answered 302 (${clickIds.size} click ids), ${o.storedIds.size} rows stored after SIGKILL of both gateways, missing ${missing}; ` +
      `${landings} followed to the booking page (${landingFailures} failed)`,
  );
  if (o.storedIds.size < clickIds.size) v.add('fewer clicks stored than answered', `${o.storedIds.size} < ${clickIds.size}`);
  out.push(
    `transactions: ${o.txBeforeKill} held at the end of the traffic, ${o.txBefore} after the kill, ${o.txAfter} after the final sync; ` +
      `with a click the gateway does not know: ${o.txUnknownClick}; by partner: ${o.txByPartner.map((p) => `${p.partner} ${p.n}`).join(', ') || '-'}`,
  );
  for (const line of o.syncOut.trim().split('\n')) out.push(`  sync: ${line}`);
  if (o.txAfter < o.txBefore) v.add('transactions lost', `${o.txBefore} before the final sync, ${o.txAfter} after`);
  if (o.txBefore < o.txBeforeKill) v.add('transactions lost', `${o.txBeforeKill} before the kill, ${o.txBefore} after`);
  if (o.syncOut.startsWith('FAILED')) v.add('final sync failed', o.syncOut);
  if (o.txUnknownClick > 0) v.add('transaction of a click the gateway does not know', `${o.txUnknownClick} rows`);
  out.push(`skipped arrivals (over ${MAX_IN_FLIGHT} in flight): ${skipped}`);

  out.push('', v.total === 0 ? 'INVARIANTS: all held' : `INVARIANTS: ${v.total} violations`, ...v.lines());
  console.log(out.join('\n'));
  return v.total === 0 ? 0 : 1;
}

let code = 1;
try {
  code = await main();
} catch (error) {
  console.error(`soak aborted: ${(error as Error).stack ?? error}`);
} finally {
  killAll();
  await sleep(200);
  if (KEEP) console.log(`kept ${tmp}`);
  else rmSync(tmp, { recursive: true, force: true });
}
process.exit(code);
