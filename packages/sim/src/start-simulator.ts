// The whole simulator from its settings: generates the world and starts the four suppliers and the
// control server on it. What main.ts (the process the gateway forks) and `staygate sim` run.
import { generateWorld } from './generate-world.ts';
import type { SimSettings } from './sim-settings-from-env.ts';
import { startSimSuppliers, type SimSuppliers } from './start-sim-suppliers.ts';

export interface StartSimulatorOptions extends SimSettings {
  /** The control server's port; 0 or absent: an ephemeral port. */
  controlPort?: number;
  /**
   * When a port asked for is taken: start every server on an ephemeral port instead (true: what the
   * gateway's embedded simulator does, the ports being only the previous run's), or fail (false).
   */
  newPortsIfTaken?: boolean;
  /** Hears why the asked ports were given up (default: stderr). */
  warn?: (message: string) => void;
}

export async function startSimulator(options: StartSimulatorOptions): Promise<SimSuppliers> {
  const { seed, stays, host, latencyMs, faults, dataDir, ports, apis, controlPort = 0, newPortsIfTaken = false } = options;
  const warn = options.warn ?? ((message: string) => console.error(message));
  const world = generateWorld({ seed, stays });
  const start = (asked: SimSettings['ports'], askedControl: number) =>
    startSimSuppliers({ world, host, ports: asked, controlPort: askedControl, latencyMs, faults, dataDir, apis });
  try {
    return await start(ports, controlPort);
  } catch (error) {
    const asked = Object.keys(ports).length > 0 || controlPort !== 0;
    if (!newPortsIfTaken || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || !asked) throw error;
    warn(`the simulated suppliers' previous ports are taken (${(error as Error).message}); starting on new ports`);
    return start({}, 0);
  }
}
