// The gateway as `npm start` runs it by default (the seeded 160,000-stay world, its simulated
// suppliers in a process of their own), on a bench-only data folder that later runs reuse, with a
// partner key: what the HTTP benchmarks measure. Imported lazily by their child processes only.
import { fork } from 'node:child_process';
import path from 'node:path';
import type { App, AppOptions } from '../src/app.ts';
import { simulatedSlots, type SimulatedSlot } from '../src/compose/supplier-slots.ts';
import type { Settings, SupplierId } from '../src/types.ts';
import { createBenchKey } from './bench-key.ts';

export async function startDefaultGateway(
  options: Partial<Omit<AppOptions, 'settings'>> = {},
  settings: Partial<Settings> = {},
): Promise<{ app: App; key: string }> {
  const { createApp } = await import('../src/app.ts');
  const { defaults } = await import('../src/defaults.ts');
  const dataDir = path.resolve('.bench', `data-${defaults.simSeed}-${defaults.simStays}`);
  // As server.ts does: the simulator's world (~200 MB of heap for 160,000 stays) and its work are
  // not the gateway's, and in the gateway's process they lengthened every garbage collection the
  // benchmarks measured. It exits when this process does (its IPC channel closes).
  const sim = fork(new URL(import.meta.resolve('@staygate/sim/main')), [], {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      STAYGATE_SIM_SEED: String(defaults.simSeed),
      STAYGATE_SIM_STAYS: String(defaults.simStays),
    },
  });
  const { slots } = await new Promise<{ slots: Record<SupplierId, SimulatedSlot> }>((resolve, reject) => {
    sim.once('message', (message) => resolve(message as { slots: Record<SupplierId, SimulatedSlot> }));
    sim.once('exit', (code) => reject(new Error(`the simulated suppliers exited with code ${code}`)));
  });
  const app = createApp({ settings: { ...defaults, dataDir, ...settings }, suppliers: simulatedSlots(slots), ...options });
  await app.ready;
  return { app, key: await createBenchKey(dataDir) };
}
