// Where the running simulated suppliers listen, for the other processes that need them: the
// server starts the simulator on ephemeral ports and writes its address here, in the data folder;
// `staygate transactions sync` reads it when no real supplier URLs are configured.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SUPPLIER_IDS, type SupplierId } from './types.ts';

export interface SimulatorAddress {
  urls: Record<SupplierId, string>;
  controlUrl: string;
}

const FILE = 'simulator.json';

export function writeSimulatorAddress(dataDir: string, address: SimulatorAddress): void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, FILE);
  writeFileSync(`${file}.tmp`, `${JSON.stringify({ urls: address.urls, controlUrl: address.controlUrl }, null, 2)}\n`);
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
  if (parsed.urls === undefined || !SUPPLIER_IDS.every((id) => typeof parsed.urls![id] === 'string')) return null;
  return { urls: parsed.urls, controlUrl: parsed.controlUrl ?? '' };
}
