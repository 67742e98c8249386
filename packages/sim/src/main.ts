// Entry point of the simulator as its own process (server.ts forks it; the package exports it as
// `@staygate/sim/main`): generates the world from STAYGATE_SIM_SEED / STAYGATE_SIM_STAYS, starts the
// four suppliers (latency: STAYGATE_SIM_LATENCY_MS, faults: STAYGATE_SIM_FAULTS, landings kept in
// STAYGATE_SIM_DATA_DIR, back on STAYGATE_SIM_PORTS when free; sim-settings-from-env.ts) and sends
// their slots (API, URL, credentials, booking page) and the control server's URL to the parent.
import { simSettingsFromEnv } from './sim-settings-from-env.ts';
import { startSimulator } from './start-simulator.ts';

const sim = await startSimulator({ ...simSettingsFromEnv(process.env), newPortsIfTaken: true });

if (process.send) {
  process.send({ slots: sim.slots, controlUrl: sim.controlUrl });
  // The parent went away: an orphaned simulator would hold its ports forever.
  process.on('disconnect', () => void sim.close().finally(() => process.exit(0)));
} else {
  console.log(JSON.stringify({ slots: sim.slots, controlUrl: sim.controlUrl }));
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void sim.close().finally(() => process.exit(0)));
}
