// The gateway as `npm start` runs it by default (the seeded 160,000-stay world, its simulated
// suppliers), on a bench-only data folder that later runs reuse, with a partner key: what the
// HTTP benchmarks measure. Imported lazily by their child processes only.
import path from 'node:path';
import type { App, AppOptions } from '../src/app.ts';
import { createBenchKey } from './bench-key.ts';

export async function startDefaultGateway(options: Partial<AppOptions> = {}): Promise<{ app: App; key: string }> {
  const { createApp } = await import('../src/app.ts');
  const { defaults } = await import('../src/defaults.ts');
  const { generateWorld, startSimSuppliers } = await import('@staygate/sim');
  const world = generateWorld({ seed: defaults.simSeed, stays: defaults.simStays });
  const sim = await startSimSuppliers({ world });
  const dataDir = path.resolve('.bench', `data-${defaults.simSeed}-${defaults.simStays}`);
  const app = createApp({ dataDir, supplierUrls: sim.urls, ...options });
  await app.ready;
  return { app, key: await createBenchKey(dataDir) };
}
