// `staygate sim [--port <p>]`: the simulated suppliers and their control server on their own, for
// gateways that are not to start their own (docs/decisions.md 64). Stdout carries only the
// `STAYGATE_SUPPLIER_<X>_API/_URL/_KEY/...` lines a gateway reads (config.ts), one per line, ready to export; the
// rest goes to stderr. It runs until SIGTERM or SIGINT, then closes every server and exits 0.
import path from 'node:path';
import { simSettingsFromEnv, startSimulator, SUPPLIER_IDS, type SimSuppliers, type SupplierId } from '@staygate/sim';
import { count } from '../text/plural.ts';
import type { CliIo } from './cli-io.ts';

/** Suppliers a..d listen on port..port+3, the control server on port+4. */
export const SIM_PORTS = SUPPLIER_IDS.length + 1;

export interface SimCommandOptions {
  /** The first of SIM_PORTS consecutive ports; 0: every server on an ephemeral port. */
  port: number;
  /** The data folder (STAYGATE_DATA_DIR): the simulator keeps its state in <dataDir>/sim, as the embedded one does. */
  dataDir: string;
  /** The world (the gateway's configuration: STAYGATE_SIM_SEED, STAYGATE_SIM_STAYS, defaults.ts). */
  seed: number;
  stays: number;
  /** The other STAYGATE_SIM_* knobs (host, latency, faults) are read from here, as for the embedded simulator. */
  env: NodeJS.ProcessEnv;
  io: CliIo;
}

/** The lines `staygate sim` prints: what a gateway reads to use these suppliers instead of its own. */
export function simEnvLines(sim: Pick<SimSuppliers, 'slots' | 'controlUrl'>): string[] {
  // A slot's whole configuration, as an operator would write it for a real account.
  const slotLines = (id: SupplierId): string[] => {
    const prefix = `STAYGATE_${id.toUpperCase()}_`;
    const { api, url, key, secret, affiliateId, bookingUrl } = sim.slots[id];
    const values: [string, string | null][] = [
      ['API', api],
      ['URL', url],
      ['KEY', key],
      ['SECRET', secret || null],
      ['AFFILIATE_ID', affiliateId],
      ['BOOKING_URL', bookingUrl],
    ];
    return values.filter(([, value]) => value !== null).map(([name, value]) => `${prefix}${name}=${value}`);
  };
  return [...SUPPLIER_IDS.flatMap(slotLines), `STAYGATE_SIM_CONTROL_URL=${sim.controlUrl}`];
}

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/** The first SIGTERM or SIGINT, heard from now on; `stopListening` gives the signals back to the process. */
function signalled(): { signal: Promise<string>; stopListening(): void } {
  let on = (_signal: NodeJS.Signals): void => {};
  const signal = new Promise<string>((resolve) => {
    on = (received) => resolve(received);
  });
  for (const s of SIGNALS) process.on(s, on);
  return {
    signal,
    stopListening: () => {
      for (const s of SIGNALS) process.off(s, on);
    },
  };
}

/** Resolves with the exit code once the simulator was stopped (0), or could not start (1: a port taken). */
export async function runSimCommand(options: SimCommandOptions): Promise<number> {
  // Listening first: a signal while the world is generated still ends in a clean exit 0.
  const signals = signalled();
  try {
    return await run(options, signals.signal);
  } finally {
    signals.stopListening();
  }
}

async function run({ port, dataDir, seed, stays, env, io }: SimCommandOptions, stopped: Promise<string>): Promise<number> {
  let early: string | null = null;
  void stopped.then((reason) => (early = reason));
  const ports = port === 0 ? {} : Object.fromEntries(SUPPLIER_IDS.map((id, i) => [id, port + i]));
  const stateDir = path.join(dataDir, 'sim');
  let sim: SimSuppliers;
  try {
    sim = await startSimulator({
      ...simSettingsFromEnv(env),
      seed,
      stays,
      dataDir: stateDir,
      ports,
      controlPort: port === 0 ? 0 : port + SUPPLIER_IDS.length,
      // The ports were asked for: URLs other than those printed would surprise whoever exports them.
      newPortsIfTaken: false,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    io.err(`staygate: a port of ${port}..${port + SIM_PORTS - 1} is taken (${(error as Error).message}): choose another --port`);
    return 1;
  }
  // Stopped while starting: nothing to export any more.
  if (early === null) {
    for (const line of simEnvLines(sim)) io.out(line);
    io.err(
      `staygate: simulated suppliers of seed ${seed} (${count(stays, 'stay')}) running, state in ${stateDir}; SIGTERM or Ctrl-C stops them`,
    );
  }
  const reason = await stopped;
  await sim.close();
  io.err(`staygate: ${reason}: simulated suppliers closed`);
  return 0;
}
