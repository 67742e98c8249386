// Reads the configuration, starts the simulated suppliers when no real ones are configured,
// builds the app and listens; on SIGTERM or SIGINT shuts all of it down cleanly. Nothing else lives here.
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { simHeapLimitMb } from '@staygate/sim';
import { createApp, type App } from './app.ts';
import { ConfigError, logOptions, readConfig } from './config.ts';
import { openStores } from './compose/open-stores.ts';
import { readSimulatorAddress, writeSimulatorAddress } from './compose/simulator-address.ts';
import { bookingPageProblem, needsSimulator, resolveSupplierSlots, simApisVariable, type SimulatedSlot } from './compose/supplier-slots.ts';
import { SUPPLIER_IDS, type SupplierId } from './types.ts';

const config = configOrExit();

/**
 * The configuration, or exit 1 with what is wrong in it, a line per mistake and no stack trace: a
 * refused variable, or a real slot with nowhere to send a traveller (docs/decisions.md 146).
 */
function configOrExit() {
  let problems: string[];
  try {
    const read = readConfig();
    problems = SUPPLIER_IDS.map((id) => bookingPageProblem(id, read.suppliers[id])).filter((problem) => problem !== null);
    if (problems.length === 0) return read;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems = [error.message];
  }
  process.stderr.write(problems.map((problem) => `staygate: ${problem}\n`).join(''));
  process.exit(1);
}

/**
 * The simulated suppliers run in their own process: they are upstream services, and their work
 * (feeds, latency timers) must not share the gateway's event loop or skew its measurements.
 */
interface SimulatorUrls {
  /** Each slot's API, URL, the credentials it accepts and its booking page. */
  slots: Record<SupplierId, SimulatedSlot>;
  /** The simulator's control server (faults, the world's days; loopback only). */
  controlUrl: string;
}

let simulatorChild: ChildProcess | null = null;
let app: App | null = null;
let stopping = false;

/** Stops the simulator and waits until it has exited: no process of the tree outlives the gateway. */
async function stopSimulator(): Promise<void> {
  const child = simulatorChild;
  if (child === null || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const forced = setTimeout(() => child.kill('SIGKILL'), config.settings.shutdownGraceMs);
  await exited;
  clearTimeout(forced);
}

/**
 * A container runtime signals only the process it started (node itself, Dockerfile), a process
 * manager the `npm start` process, which relays it to us (the start script execs node): stop
 * accepting connections, let requests in flight finish (at most settings.shutdownGraceMs), stop the
 * schedules, close the stores and Redis, stop the simulator, exit 0.
 */
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  const log = app?.http.log;
  // Before the gateway's logger exists (a signal during the simulator's start), a line of the same format.
  const say = (message: string) =>
    log
      ? log.info(message)
      : process.stderr.write(`${config.logFormat === 'json' ? JSON.stringify({ level: 30, time: Date.now(), msg: message }) : message}\n`);
  say(`${signal} received: shutting down (requests in flight get up to ${config.settings.shutdownGraceMs / 1_000} s)`);
  const started = performance.now();
  // Requests still running when the grace ends are cut: the exit must not wait on a stuck client.
  const grace = setTimeout(() => {
    log?.warn('requests still in flight after the grace period: closing their connections');
    app?.http.server.closeAllConnections();
  }, config.settings.shutdownGraceMs);
  let code = 0;
  try {
    await app?.close();
  } catch (error) {
    log?.error({ err: error }, 'closing the gateway failed');
    code = 1;
  } finally {
    clearTimeout(grace);
  }
  await stopSimulator();
  say(`shut down in ${Math.round(performance.now() - started)} ms`);
  process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void shutdown(signal));
// Whatever else ends this process, the simulator must not be left holding its ports.
process.once('exit', () => simulatorChild?.kill());

async function startSimulator(): Promise<SimulatorUrls> {
  // Back on the previous run's ports when they are free: the store holds the media URLs the
  // simulated feeds named, with those ports (STAYGATE_SIM_PORTS, packages/sim/README.md).
  const previous = readSimulatorAddress(config.dataDir);
  const ports =
    previous === null
      ? ''
      : Object.entries(previous.slots)
          .map(([id, slot]) => `${id}=${new URL(slot.url).port}`)
          .join(',');
  // A world beyond the default heap (about 4M stays) is given the heap it needs (issue 22).
  const heapMb = simHeapLimitMb(config.settings.simStays);
  const child = fork(new URL(import.meta.resolve('@staygate/sim/main')), [], {
    execArgv: ['--import', 'tsx', ...(heapMb === null ? [] : [`--max-old-space-size=${heapMb}`])],
    env: {
      ...process.env,
      STAYGATE_SIM_SEED: String(config.settings.simSeed),
      STAYGATE_SIM_STAYS: String(config.settings.simStays),
      // The suppliers keep the clicks that reached them, and the world's current day, so their
      // bookings and content outlive a restart.
      STAYGATE_SIM_DATA_DIR: path.join(config.dataDir, 'sim'),
      STAYGATE_SIM_PORTS: ports,
      // A simulated slot speaks the API configured for it, as the real one would.
      STAYGATE_SIM_APIS: simApisVariable(config.suppliers),
    },
  });
  simulatorChild = child;
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve(message as SimulatorUrls));
    child.once('exit', (code) => reject(new Error(`the simulated suppliers exited with code ${code}`)));
  });
}

const started = performance.now();
// The simulator serves every slot without a URL of its own (slots are configured one by one).
const simulator = needsSimulator(config.suppliers) ? await startSimulator() : null;
// `staygate transactions sync` and `staygate content refresh` find the simulated suppliers here.
if (simulator !== null) writeSimulatorAddress(config.dataDir, simulator);
// The stores on DATABASE_URL (migrated now, under a lock) or the SQLite file of the data folder.
const stores = stopping ? null : await openStores(config);
if (stores !== null && stopping) await stores.close();
if (!stopping && stores !== null) {
  app = createApp({
    settings: config.settings,
    stores,
    suppliers: resolveSupplierSlots(config.suppliers, simulator?.slots ?? null),
    publicUrl: config.publicUrl,
    logger: logOptions(config.logLevel, config.logFormat),
    redisUrl: config.redisUrl,
    redisKeyPrefix: config.redisKeyPrefix,
    trustedProxies: config.trustedProxies,
    mapTilesUrl: config.mapTilesUrl,
    mapTilesAttribution: config.mapTilesAttribution,
    // The demo partner only ever meets the simulated suppliers: never real ones, so not when any slot is real.
    demo: !SUPPLIER_IDS.some((id) => config.suppliers[id].url !== null),
    simControlUrl: simulator?.controlUrl ?? null,
  });
  const running = app;
  // Said through the gateway's logger, so that in LOG_FORMAT=json every line is one JSON object.
  if (stores.migrated.length > 0)
    running.http.log.info({ migrations: stores.migrated }, `PostgreSQL migrations applied: ${stores.migrated.join(', ')}`);
  try {
    await running.http.listen({ port: config.port, host: config.host });
  } catch (error) {
    // A port taken or forbidden is the operator's to fix: said in one line, the simulator stopped, exit 1.
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'EADDRINUSE'
        ? 'is in use (another staygate, or another service): stop it or set PORT to a free port'
        : code === 'EACCES'
          ? 'needs privileges this user lacks: set PORT to 1024 or above'
          : (error as Error).message;
    running.http.log.fatal({ code }, `cannot listen: port ${config.port} on ${config.host} ${why}`);
    // Nothing was served; what the start wrote is transactional: stop the simulator and go.
    stopping = true;
    await stopSimulator();
    process.exit(1);
  }
  if (simulator !== null)
    running.http.log.info(
      { controlUrl: simulator.controlUrl },
      `simulated suppliers started; fault control at ${simulator.controlUrl}/faults`,
    );
  running.ready.then(
    () => running.http.log.info(`ready in ${Math.round(performance.now() - started)} ms on http://${config.host}:${config.port}`),
    (error: unknown) => {
      if (stopping) return; // the shutdown cancelled the first start
      running.http.log.fatal({ err: error }, 'failed to load the inventory');
      void stopSimulator().finally(() => process.exit(1));
    },
  );
}
