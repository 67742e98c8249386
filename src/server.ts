// Reads the configuration, starts the simulated suppliers when no real ones are configured,
// builds the app and listens. Nothing else lives here.
import { fork } from 'node:child_process';
import path from 'node:path';
import { createApp } from './app.ts';
import { readConfig } from './config.ts';
import { logOptions } from './log-options.ts';
import { readSimulatorAddress, writeSimulatorAddress } from './simulator-address.ts';
import type { SupplierId } from './types.ts';

const config = readConfig();

/**
 * The simulated suppliers run in their own process: they are upstream services, and their work
 * (feeds, latency timers) must not share the gateway's event loop or skew its measurements.
 */
interface SimulatorUrls {
  urls: Record<SupplierId, string>;
  /** The simulator's fault-injection control server (loopback only). */
  controlUrl: string;
}

async function startSimulator(): Promise<SimulatorUrls> {
  // Back on the previous run's ports when they are free: the store holds the media URLs the
  // simulated feeds named, with those ports (sim/main.ts).
  const previous = readSimulatorAddress(config.dataDir);
  const ports = previous === null ? '' : Object.entries(previous.urls).map(([id, url]) => `${id}=${new URL(url).port}`).join(',');
  const child = fork(new URL('./sim/main.ts', import.meta.url), [], {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env, STAYGATE_SIM_SEED: String(config.sim.seed), STAYGATE_SIM_STAYS: String(config.sim.stays),
      // The suppliers keep the clicks that reached them, so their bookings outlive a restart.
      STAYGATE_SIM_DATA_DIR: path.join(config.dataDir, 'sim'),
      STAYGATE_SIM_PORTS: ports,
    },
  });
  const stop = () => child.kill();
  process.once('exit', stop);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => { stop(); process.exit(0); });
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve(message as SimulatorUrls));
    child.once('exit', (code) => reject(new Error(`the simulated suppliers exited with code ${code}`)));
  });
}

const started = performance.now();
const simulator = config.supplierUrls === null ? await startSimulator() : null;
// `staygate transactions sync` finds the simulated suppliers here.
if (simulator !== null) writeSimulatorAddress(config.dataDir, simulator);
const app = createApp({
  dataDir: config.dataDir,
  supplierUrls: config.supplierUrls ?? simulator!.urls,
  publicUrl: config.publicUrl,
  logger: logOptions(config.logLevel, config.logFormat),
  corsOrigins: config.corsOrigins,
  metricsAllow: config.metricsAllow,
  redisUrl: config.redisUrl,
  trustedProxies: config.trustedProxies,
  bookingUrlTemplates: config.bookingUrlTemplates,
  reportSyncIntervalMs: config.reportSyncIntervalMs,
  reportSyncOverlapMs: config.reportSyncOverlapMs,
  reportReconcileIntervalMs: config.reportReconcileIntervalMs,
  reportReconcileDays: config.reportReconcileDays,
  mapTilesUrl: config.mapTilesUrl,
  mapTilesAttribution: config.mapTilesAttribution,
  // The demo partner only ever meets the simulated suppliers: never real ones.
  demo: simulator !== null,
});
await app.http.listen({ port: config.port, host: config.host });
if (simulator !== null) app.http.log.info({ controlUrl: simulator.controlUrl }, `simulated suppliers started; fault control at ${simulator.controlUrl}/faults`);
app.ready.then(
  () => app.http.log.info(`ready in ${Math.round(performance.now() - started)} ms on http://${config.host}:${config.port}`),
  (error: unknown) => {
    app.http.log.fatal({ err: error }, 'failed to load the inventory');
    process.exit(1);
  },
);
