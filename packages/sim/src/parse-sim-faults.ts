// The fault settings of the simulated suppliers: STAYGATE_SIM_FAULTS at start
// ("supplier_b=down,supplier_c=slow:1500"), the control endpoint and setFault at run time.
import { isSupplierId, type SupplierId } from './types.ts';

/**
 * - `down`: connection refused (the supplier's server stops listening);
 * - `timeout`: accepts the request and never answers;
 * - `error`: HTTP 500 with a JSON error body;
 * - `malformed`: HTTP 200 whose body is not valid JSON;
 * - `slow:<ms>`: answers correctly after an extra delay of <ms>.
 */
export type FaultMode = 'down' | 'timeout' | 'error' | 'malformed' | `slow:${number}`;

/** Longest `slow:<ms>` delay: ten minutes is already "never" for any caller. */
export const MAX_SLOW_MS = 600_000;

/** The word that clears a supplier's fault (the control endpoint and STAYGATE_SIM_FAULTS). */
export const NO_FAULT = 'none';

/**
 * A fault mode in its canonical spelling ("slow:0100" -> "slow:100"), null for `none`, or an Error
 * saying what is accepted.
 */
export function parseFaultMode(text: string): FaultMode | null {
  if (text === NO_FAULT) return null;
  if (text === 'down' || text === 'timeout' || text === 'error' || text === 'malformed') return text;
  const slow = /^slow:(\d{1,7})$/.exec(text);
  if (slow && Number(slow[1]) <= MAX_SLOW_MS) return `slow:${Number(slow[1])}`;
  throw new Error(`"${text}" is not a fault mode: use down, timeout, error, malformed, slow:<ms> (0-${MAX_SLOW_MS}) or ${NO_FAULT}`);
}

/** Extra delay of a `slow:<ms>` mode, 0 for any other. */
export function slowDelayMs(mode: FaultMode | null): number {
  return mode !== null && mode.startsWith('slow:') ? Number(mode.slice(5)) : 0;
}

/**
 * Parses "supplier_b=down,supplier_c=slow:1500" (spaces around items ignored; empty: no fault).
 * `<supplier>=none` is allowed and sets nothing. Throws an Error naming the bad item.
 */
export function parseSimFaults(text: string): Partial<Record<SupplierId, FaultMode | null>> {
  const faults: Partial<Record<SupplierId, FaultMode | null>> = {};
  for (const item of text.split(',').map((s) => s.trim())) {
    if (item === '') continue;
    const eq = item.indexOf('=');
    const supplier = eq < 0 ? item : item.slice(0, eq).trim();
    const mode = eq < 0 ? '' : item.slice(eq + 1).trim();
    const where = `STAYGATE_SIM_FAULTS item "${item}"`;
    if (eq < 0) throw new Error(`${where}: expected <supplier>=<mode>, e.g. supplier_b=down`);
    if (!isSupplierId(supplier)) throw new Error(`${where}: unknown supplier "${supplier}"`);
    if (supplier in faults) throw new Error(`${where}: ${supplier} is given twice`);
    try {
      faults[supplier] = parseFaultMode(mode);
    } catch (error) {
      throw new Error(`${where}: ${(error as Error).message}`, { cause: error });
    }
  }
  return faults;
}
