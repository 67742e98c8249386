// Entry point of the simulator as its own process (server.ts forks it): generates the world from
// STAYGATE_SIM_SEED / STAYGATE_SIM_STAYS, starts the four suppliers (latency: STAYGATE_SIM_LATENCY_MS,
// faults: STAYGATE_SIM_FAULTS, landings kept in STAYGATE_SIM_DATA_DIR) and sends their URLs and the
// control server's URL to the parent.
import { generateWorld } from './generate-world.ts';
import { startSimSuppliers } from './start-sim-suppliers.ts';

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
const sim = await startSimSuppliers({
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
