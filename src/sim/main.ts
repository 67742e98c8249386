// Entry point of the simulator as its own process (server.ts forks it): generates the world from
// STAYGATE_SIM_SEED / STAYGATE_SIM_STAYS, starts the four suppliers (latency: STAYGATE_SIM_LATENCY_MS,
// faults: STAYGATE_SIM_FAULTS, landings kept in STAYGATE_SIM_DATA_DIR) and sends their URLs and the
// control server's URL to the parent.
import { generateWorld } from './generate-world.ts';
import { startSimSuppliers, type StartSimSuppliersOptions } from './start-sim-suppliers.ts';

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

// sim/ does not import the gateway's defaults; server.ts always passes both. These equal
// defaults.simSeed and defaults.simStays, for running the simulator by hand.
const world = generateWorld({
  seed: intFromEnv('STAYGATE_SIM_SEED', 42),
  stays: intFromEnv('STAYGATE_SIM_STAYS', 160_000),
});
const latencyText = process.env.STAYGATE_SIM_LATENCY_MS;

/**
 * STAYGATE_SIM_PORTS (`supplier_a=41234,supplier_b=...`): the ports of the previous run, which
 * server.ts passes so that the suppliers come back where they were: the gateway's store keeps the
 * media URLs their feeds named, with those ports. A port taken meanwhile: every supplier starts on
 * an ephemeral port instead (and those stored URLs go stale until the data folder is re-ingested).
 */
function portsFromEnv(): Record<string, number> {
  const ports: Record<string, number> = {};
  for (const item of (process.env.STAYGATE_SIM_PORTS ?? '').split(',')) {
    const [name, port] = item.split('=');
    if (name && port && /^\d{1,5}$/.test(port)) ports[name.trim()] = Number(port);
  }
  return ports;
}

async function start(options: StartSimSuppliersOptions) {
  try {
    return await startSimSuppliers(options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || Object.keys(options.ports ?? {}).length === 0) throw error;
    console.error(`the simulated suppliers' previous ports are taken (${(error as Error).message}); starting on new ports`);
    return startSimSuppliers({ ...options, ports: {} });
  }
}

const sim = await start({
  ports: portsFromEnv(),
  world,
  host: process.env.STAYGATE_SIM_HOST || '127.0.0.1',
  // Unset: each supplier's own realistic range; set: one fixed latency for all (0 for load tests).
  latencyMs: latencyText === undefined || latencyText === '' ? undefined : intFromEnv('STAYGATE_SIM_LATENCY_MS', 0),
  faults: process.env.STAYGATE_SIM_FAULTS ?? '',
  // Where the suppliers keep the clicks that landed on their booking pages, so that bookings and
  // their reports outlive a restart (server.ts passes <data dir>/sim); unset: memory only.
  dataDir: process.env.STAYGATE_SIM_DATA_DIR || null,
});

if (process.send) {
  process.send({ urls: sim.urls, controlUrl: sim.controlUrl });
  // The parent went away: an orphaned simulator would hold its ports forever.
  process.on('disconnect', () => void sim.close().finally(() => process.exit(0)));
} else {
  console.log(JSON.stringify({ urls: sim.urls, controlUrl: sim.controlUrl }));
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void sim.close().finally(() => process.exit(0)));
}
