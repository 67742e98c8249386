// `npm run cluster`: the scale-out topology on this machine without containers (compose.yaml has
// the same in containers): the standalone simulator, two gateways on one PostgreSQL database and
// one Redis, nginx in front; then a smoke check through nginx. `--smoke` stops after the check
// (exit 0 when it passed); otherwise it keeps running until Ctrl-C.
// DATABASE_URL (default postgres://postgres@127.0.0.1:5432/staygate_cluster, created if missing),
// REDIS_URL (default redis://127.0.0.1:6379), CLUSTER_GATEWAYS (2), STAYGATE_SIM_STAYS (the
// simulator's default world unless set).
import path from 'node:path';
import pg from 'pg';
import { exitUnlessNginx } from './nginx-check.ts';
import { smokeCheck } from './smoke-check.ts';
import { startCluster } from './start-cluster.ts';

const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/staygate_cluster';
const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const smokeOnly = process.argv.includes('--smoke');

exitUnlessNginx('npm run cluster puts it in front of the gateways');
await ensureDatabase(databaseUrl);
const workDir = path.resolve(process.env.CLUSTER_DIR || 'data/cluster');
console.log(`starting the simulator, ${process.env.CLUSTER_GATEWAYS || 2} gateways and nginx (logs in ${workDir}) ...`);
const cluster = await startCluster({
  databaseUrl,
  redisUrl,
  redisPrefix: 'staygate-cluster:',
  workDir,
  nginx: true,
  gateways: Number(process.env.CLUSTER_GATEWAYS || 2),
  gatewayEnv: { STAYGATE_TRUSTED_PROXIES: 'loopback' },
});
let stopping = false;
const stop = async (code: number) => {
  if (stopping) return;
  stopping = true;
  await cluster.stop();
  process.exit(code);
};
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
try {
  for (const line of await smokeCheck(cluster)) console.log(`ok  ${line}`);
} catch (error) {
  console.error(`smoke check failed: ${(error as Error).message}`);
  await stop(1);
}
console.log(`\nnginx:    ${cluster.nginxUrl}\ngateways: ${cluster.gatewayUrls.join(' ')}\nsimulator control: ${cluster.controlUrl}`);
if (smokeOnly) await stop(0);
else console.log('running; Ctrl-C stops every process');

/** Creates the cluster's database when it does not exist yet (the gateways migrate it). */
async function ensureDatabase(url: string): Promise<void> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}
