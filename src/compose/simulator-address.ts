// Where the running simulated suppliers listen, for the other processes that need them: the
// server starts the simulator on ephemeral ports and writes its address here, in the data folder;
// `staygate transactions sync` reads it when no real supplier URLs are configured.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SimulatedSlot } from './supplier-slots.ts';
import { SUPPLIER_IDS, type SupplierId } from '../types.ts';

export interface SimulatorAddress {
  /** Each slot's API, URL, the credentials it accepts and its booking page. */
  slots: Record<SupplierId, SimulatedSlot>;
  controlUrl: string;
}

const FILE = 'simulator.json';

export function writeSimulatorAddress(dataDir: string, address: SimulatorAddress): void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, FILE);
  writeFileSync(`${file}.tmp`, `${JSON.stringify({ slots: address.slots, controlUrl: address.controlUrl }, null, 2)}\n`);
  renameSync(`${file}.tmp`, file); // never half a file for a reader
}

/** The address the last server wrote, or null (none started here yet). It may be stale: the server may have stopped. */
export function readSimulatorAddress(dataDir: string): SimulatorAddress | null {
  let text: string;
  try {
    text = readFileSync(path.join(dataDir, FILE), 'utf8');
  } catch {
    return null;
  }
  const parsed = JSON.parse(text) as Partial<SimulatorAddress>;
  // A file of an older version (before slots) is as good as none: the server writes a new one at start.
  if (parsed.slots === undefined || !SUPPLIER_IDS.every((id) => typeof parsed.slots![id]?.url === 'string')) return null;
  return { slots: parsed.slots, controlUrl: parsed.controlUrl ?? '' };
}
