// Scale-out (issue 14), the gateways' side, on the topology of `npm run cluster` (ops/): the
// standalone simulator, two gateways on one PostgreSQL database and one Redis, nginx in front,
// and beside them one gateway on SQLite (its own data folder, the same suppliers).
// 1. Clicks recorded per second through /go (each one a row written before the 302): the
//    PostgreSQL gateway vs the SQLite one.
// 2. Static-search throughput: two gateway processes behind nginx vs one gateway alone.
// autocannon on loopback, 10 s a measurement, alternated three rounds; medians and ratios.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePorts, startCluster, waitForOk } from '../ops/start-cluster.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const PG_BASE = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = 'bench_scale_out_gateways';
const STAYS = process.env.STAYGATE_SIM_STAYS ?? '50000';

async function rate(url: string, ok: number): Promise<number> {
  const result = await autocannon({ url, connections: 16, duration: SECONDS });
  const good = result.statusCodeStats?.[String(ok) as '200']?.count ?? 0;
  return good / SECONDS;
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const admin = new pg.Client({ connectionString: PG_BASE });
await admin.connect();
await admin.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE; CREATE SCHEMA ${SCHEMA}`);
await admin.end();
const databaseUrl = new URL(PG_BASE);
databaseUrl.searchParams.set('options', `-c search_path=${SCHEMA}`);
const workDir = mkdtempSync(path.join(tmpdir(), 'staygate-bench-scale-out-'));
console.log(`starting the simulator (${STAYS} stays), two gateways on PostgreSQL and Redis, nginx ...`);
const started = performance.now();
const cluster = await startCluster({
  databaseUrl: databaseUrl.toString(),
  redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
  redisPrefix: `bench-scale-out:${process.pid}:`,
  workDir,
  gateways: 2,
  nginx: true,
  simEnv: { STAYGATE_SIM_STAYS: STAYS, STAYGATE_SIM_LATENCY_MS: '0' },
  gatewayEnv: { STAYGATE_CONTENT_REFRESH_MS: '0', STAYGATE_REPORT_SYNC_MS: '0', STAYGATE_REPORT_RECONCILE_MS: '0' },
});
console.log(`cluster ready in ${((performance.now() - started) / 1_000).toFixed(1)} s`);
// The SQLite gateway: the same suppliers, no DATABASE_URL or REDIS_URL.
const sqliteDir = path.join(workDir, 'sqlite-gateway');
const sqlitePort = await freePorts(1);
const sqliteEnv = {
  ...process.env,
  ...cluster.env,
  DATABASE_URL: '',
  REDIS_URL: '',
  STAYGATE_REDIS_PREFIX: '',
  PORT: String(sqlitePort),
  STAYGATE_DATA_DIR: sqliteDir,
  LOG_LEVEL: 'warn',
  STAYGATE_REPORT_SYNC_MS: '0',
};
const sqliteGateway = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { env: sqliteEnv, stdio: 'ignore' });
const sqliteUrl = `http://127.0.0.1:${sqlitePort}`;
try {
  await waitForOk(`${sqliteUrl}/health`, sqliteGateway, 300_000);
  const keyOf = async (env?: NodeJS.ProcessEnv) => {
    const made = await cluster.cli(['keys', 'create', '--aid', 'bench', '--limit', '1000000'], env);
    if (made.code !== 0) throw new Error(made.stderr);
    return made.stdout.trim().split('\n').at(-1)!;
  };
  const pgKey = await keyOf();
  const sqliteKey = await keyOf({ DATABASE_URL: '', STAYGATE_DATA_DIR: sqliteDir });
  const searchPath = (key: string) => `/v2/accommodations?lat=48.8566&lng=2.3522&radius=5000&limit=10&key=${key}`;
  // Keys reach a gateway within its poll: wait for both.
  await waitForOk(`${cluster.gatewayUrls[0]}${searchPath(pgKey)}`, null, 10_000);
  await waitForOk(`${cluster.gatewayUrls[1]}${searchPath(pgKey)}`, null, 10_000);
  await waitForOk(`${sqliteUrl}${searchPath(sqliteKey)}`, null, 10_000);
  const stay = ((await (await fetch(`${cluster.gatewayUrls[0]}${searchPath(pgKey)}`)).json()) as { results: { id: string }[] }).results[0]
    .id;

  const clicks = { postgres: [] as number[], sqlite: [] as number[] };
  const searches = { one: [] as number[], two: [] as number[] };
  for (let round = 1; round <= 3; round++) {
    clicks.sqlite.push(await rate(`${sqliteUrl}/go/${stay}?key=${sqliteKey}`, 302));
    clicks.postgres.push(await rate(`${cluster.gatewayUrls[0]}/go/${stay}?key=${pgKey}`, 302));
    searches.one.push(await rate(`${cluster.gatewayUrls[0]}${searchPath(pgKey)}`, 200));
    searches.two.push(await rate(`${cluster.nginxUrl}${searchPath(pgKey)}`, 200));
    console.log(
      `round ${round}: clicks/s SQLite ${clicks.sqlite.at(-1)!.toFixed(0)}, PostgreSQL ${clicks.postgres.at(-1)!.toFixed(0)}; ` +
        `searches/s one gateway ${searches.one.at(-1)!.toFixed(0)}, two behind nginx ${searches.two.at(-1)!.toFixed(0)}`,
    );
  }
  const [cs, cp, s1, s2] = [median(clicks.sqlite), median(clicks.postgres), median(searches.one), median(searches.two)];
  console.log(
    `clicks recorded per second through /go (median of 3): PostgreSQL ${cp.toFixed(0)} vs SQLite ${cs.toFixed(0)}: ratio ${(cp / cs).toFixed(2)}`,
  );
  console.log(
    `static search (Paris, 10 results) per second (median of 3): two gateways behind nginx ${s2.toFixed(0)} vs one gateway ${s1.toFixed(0)}: ratio ${(s2 / s1).toFixed(2)} ` +
      `(${process.env.BENCH_CORES ?? "this machine's"} cores are shared by nginx, both gateways, the simulator and autocannon)`,
  );
  const restart = performance.now();
  await cluster.kill(1, 'SIGKILL');
  await cluster.restart(1);
  console.log(
    `warm start of a gateway on PostgreSQL after SIGKILL (process start to /health 200): ${((performance.now() - restart) / 1_000).toFixed(1)} s (target < 20 s)`,
  );
} finally {
  sqliteGateway.kill('SIGTERM');
  await new Promise((resolve) => sqliteGateway.once('exit', resolve));
  await cluster.stop();
  rmSync(workDir, { recursive: true, force: true });
}
