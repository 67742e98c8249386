// The supplier slots a command talks to, and what it says when none answers.
import type { Config } from '../config.ts';
import { readSimulatorAddress } from '../compose/simulator-address.ts';
import { needsSimulator, resolveSupplierSlots, type SupplierSlot } from '../compose/supplier-slots.ts';

/** One line for a server that is not there: not four "fetch failed" lines. */
export const NO_SUPPLIERS =
  'staygate: no suppliers to ask: set STAYGATE_SUPPLIER_<A..D>_URL (and its credentials), or start the server (npm start) on this data folder';

/**
 * The slots a command talks to: the configured ones, and for a slot without a URL the simulator
 * the server started on this data folder (simulator.json); null when one is needed and none was
 * started (or it speaks another API than configured, the server not yet restarted).
 */
export function cliSupplierSlots(settings: Config['suppliers'], dataDir: string): SupplierSlot[] | null {
  const simulator = needsSimulator(settings) ? readSimulatorAddress(dataDir) : null;
  if (needsSimulator(settings) && simulator === null) return null;
  try {
    return resolveSupplierSlots(settings, simulator?.slots ?? null);
  } catch {
    return null;
  }
}

export function unreachableMessage(slots: readonly SupplierSlot[], dataDir: string, fromSimulator: boolean): string {
  const where = [...new Set(slots.map((slot) => new URL(slot.baseUrl).host))].join(', ');
  return fromSimulator
    ? `staygate: no supplier answered at ${where}: the simulated suppliers run with the server. Is it running (npm start) on ${dataDir}?`
    : `staygate: no supplier answered at ${where} (STAYGATE_SUPPLIER_<A..D>_URL): are they up and reachable from here?`;
}
