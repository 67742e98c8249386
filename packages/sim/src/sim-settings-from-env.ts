// The simulator's settings from its environment variables, for the child process the gateway forks
// (main.ts) and for `staygate sim` (the standalone simulator): one reading, so the knobs mean the
// same in both.
import { isSupplierApi, type SupplierApi } from './apis/api-slot.ts';
import { isSupplierId, type SupplierId } from './types.ts';

/** What the simulator is started with (start-simulator.ts). */
export interface SimSettings {
  /** STAYGATE_SIM_SEED: the same seed gives the same world. */
  seed: number;
  /** STAYGATE_SIM_STAYS: properties in the world. */
  stays: number;
  /** STAYGATE_SIM_HOST: where the four suppliers listen (the control server is always on 127.0.0.1). */
  host: string;
  /** STAYGATE_SIM_LATENCY_MS: one fixed quote latency for all four; undefined keeps each supplier's own range. */
  latencyMs: number | undefined;
  /** STAYGATE_SIM_FAULTS: faults in force from the start (parse-sim-faults.ts syntax). */
  faults: string;
  /** STAYGATE_SIM_DATA_DIR: where the landings and the world's day are kept; null: memory only. */
  dataDir: string | null;
  /** STAYGATE_SIM_PORTS (`supplier_a=41234,...`): a port per supplier; absent: ephemeral. */
  ports: Partial<Record<SupplierId, number>>;
  /** STAYGATE_SIM_APIS (`supplier_b=expedia-rapid,...`): the API a slot speaks; absent: its default. */
  apis: Partial<Record<SupplierId, SupplierApi>>;
}

/**
 * Equal to the gateway's defaults.simSeed and defaults.simStays, which server.ts always passes:
 * these apply when the simulator is run by hand.
 */
export const DEFAULT_SIM_SEED = 42;
export const DEFAULT_SIM_STAYS = 160_000;

function intFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

/**
 * STAYGATE_SIM_PORTS (`supplier_a=41234,supplier_b=...`): the ports of the previous run, which
 * server.ts passes so that the suppliers come back where they were: the gateway's store keeps the
 * media URLs their feeds named, with those ports. A port taken meanwhile: every supplier starts on
 * an ephemeral port instead (and those stored URLs go stale until the data folder is re-ingested).
 */
function portsFromEnv(text: string | undefined): Partial<Record<SupplierId, number>> {
  const ports: Record<string, number> = {};
  for (const item of (text ?? '').split(',')) {
    const [name, port] = item.split('=');
    if (name && port && /^\d{1,5}$/.test(port)) ports[name.trim()] = Number(port);
  }
  return ports;
}

/**
 * STAYGATE_SIM_APIS (`supplier_b=expedia-rapid,supplier_c=liteapi`): the API each slot speaks, so a
 * gateway whose operator put another API on a slot simulates that slot in the API it will really
 * speak (server.ts passes the slots' STAYGATE_SUPPLIER_<X>_API). Throws on an unknown slot or API.
 */
function apisFromEnv(text: string | undefined): Partial<Record<SupplierId, SupplierApi>> {
  const apis: Partial<Record<SupplierId, SupplierApi>> = {};
  for (const item of (text ?? '').split(',')) {
    if (item.trim() === '') continue;
    const [name = '', api = ''] = item.split('=').map((part) => part.trim());
    if (!isSupplierId(name) || !isSupplierApi(api))
      throw new Error(`STAYGATE_SIM_APIS: "${item.trim()}" is not <supplier_a..d>=<booking-demand|hotelbeds|liteapi|expedia-rapid>`);
    apis[name] = api;
  }
  return apis;
}

/** Reads the STAYGATE_SIM_* variables; throws on a malformed number. */
export function simSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): SimSettings {
  const latencyText = env.STAYGATE_SIM_LATENCY_MS;
  return {
    seed: intFromEnv(env, 'STAYGATE_SIM_SEED', DEFAULT_SIM_SEED),
    stays: intFromEnv(env, 'STAYGATE_SIM_STAYS', DEFAULT_SIM_STAYS),
    host: env.STAYGATE_SIM_HOST || '127.0.0.1',
    // Unset: each supplier's own realistic range; set: one fixed latency for all (0 for load tests).
    latencyMs: latencyText === undefined || latencyText === '' ? undefined : intFromEnv(env, 'STAYGATE_SIM_LATENCY_MS', 0),
    faults: env.STAYGATE_SIM_FAULTS ?? '',
    // Where the suppliers keep the clicks that landed on their booking pages, so that bookings and
    // their reports outlive a restart (server.ts passes <data dir>/sim); unset: memory only.
    dataDir: env.STAYGATE_SIM_DATA_DIR || null,
    ports: portsFromEnv(env.STAYGATE_SIM_PORTS),
    apis: apisFromEnv(env.STAYGATE_SIM_APIS),
  };
}
