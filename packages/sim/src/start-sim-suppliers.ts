// Starts the four simulated suppliers of a world, each on its own port, as the gateway would meet
// real upstreams: over HTTP, each in its own wire format, with latency, and with faults on demand.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SUPPLIER_IDS, type SupplierId } from './types.ts';
import { advanceWorld, MAX_ADVANCE_DAYS, type AdvanceResult } from './advance-world.ts';
import { createSupplierServer, type SupplierRoute, type SupplierServer } from './create-supplier-server.ts';
import { API_MODULES } from './apis/api-modules.ts';
import { type ApiCredentials, DEFAULT_SUPPLIER_APIS, type SupplierApi } from './apis/api-slot.ts';
import { createBookingLedger, type BookingLedger } from './bookings.ts';
import { SIM_CREDENTIALS } from './sim-credentials.ts';
import type { World } from './generate-world.ts';
import { mediaRoute } from './media.ts';
import { parseFaultMode, parseSimFaults } from './parse-sim-faults.ts';
import { preparePricing } from './price-stay.ts';
import { createRandom } from './random.ts';
import { startControlServer } from './start-control-server.ts';

/** A fixed latency in ms, or [min, max] (inclusive) drawn per call. */
export type Latency = number | readonly [number, number];

/**
 * Default latency of a quote call per supplier, in ms: what real availability APIs take on a good day,
 * different per supplier so that the gateway's fan-out waits for the slowest.
 */
export const DEFAULT_LATENCY_MS: Readonly<Record<SupplierId, readonly [number, number]>> = {
  supplier_a: [60, 120],
  supplier_b: [80, 180],
  supplier_c: [40, 90],
  supplier_d: [100, 220],
};

export interface StartSimSuppliersOptions {
  world: World;
  /** Loopback by default: the simulator is not meant to be reachable from outside the machine. */
  host?: string;
  /** Port per supplier; 0 or absent = an ephemeral port. */
  ports?: Partial<Record<SupplierId, number>>;
  /** Port of the control server (always on 127.0.0.1); 0 or absent = an ephemeral port. */
  controlPort?: number;
  /**
   * Wait before each quote call (content feeds never wait): one number for every supplier, or per
   * supplier a number or [min, max]; suppliers left out keep DEFAULT_LATENCY_MS. Tests pass 0.
   */
  latencyMs?: number | Partial<Record<SupplierId, Latency>>;
  /** Faults in force from the start, in STAYGATE_SIM_FAULTS syntax ("supplier_b=down,supplier_c=slow:1500"). */
  faults?: string;
  /** The suppliers' clock (ms) for landings and commission reports; default Date.now. */
  now?: () => number;
  /**
   * Where the suppliers keep the landings their bookings come from and the world's day
   * (`world.json`), across restarts; absent: memory only.
   */
  dataDir?: string | null;
  /** The API each slot speaks (default DEFAULT_SUPPLIER_APIS: a Booking.com, b Hotelbeds, c LiteAPI, d Expedia Rapid). */
  apis?: Partial<Record<SupplierId, SupplierApi>>;
  /**
   * Credentials a slot accepts instead of its API's fixed ones (sim-credentials.ts), in part or
   * whole: a test whose gateway carries recognisable credentials puts the simulator behind them.
   */
  credentials?: Partial<Record<SupplierId, Partial<ApiCredentials>>>;
}

/**
 * How a gateway reaches one simulated slot: what an operator would put in the slot's
 * STAYGATE_SUPPLIER_<X>_API, _URL, _KEY, _SECRET, _AFFILIATE_ID and _BOOKING_URL.
 */
export interface SimSlot {
  api: SupplierApi;
  url: string;
  key: string;
  secret: string;
  affiliateId: string;
  /** The booking page template (`{supplierUrl}` already put in), or null: the API's content names each stay's page. */
  bookingUrl: string | null;
}

export interface SimSuppliers {
  /** Per slot: its API, URL, the credentials it accepts and its booking page template. */
  slots: Record<SupplierId, SimSlot>;
  /** Base URL per supplier, e.g. "http://127.0.0.1:41234" (no trailing slash), also while `down`. */
  urls: Record<SupplierId, string>;
  /** Base URL of the control server (always on 127.0.0.1): GET /faults, PUT /faults?supplier_b=timeout. */
  controlUrl: string;
  /**
   * Sets a supplier's fault: down, timeout, error, malformed, slow:<ms>; null or 'none' clears it.
   * Resolves once in force (`down`: no longer listening; leaving `down`: listening again on the same
   * port). Any other change is already in force when the call returns, so it need not be awaited.
   * Throws (synchronously) on an unknown supplier or mode, or after close().
   */
  setFault(supplier: SupplierId, mode: string | null): Promise<void>;
  /** The fault of every supplier, null for none. */
  faults(): Record<SupplierId, string | null>;
  /** Moves the content `days` (1..365) days forward: what POST /world/advance on the control server does. */
  advance(days: number): AdvanceResult;
  /** The bookings the suppliers made of the clicks they received (ground truth of their reports). */
  ledger: BookingLedger;
  close(): Promise<void>;
}

/**
 * The routes a slot serves: those of the API it speaks (apis/api-modules.ts: content, quotes, which
 * wait the slot's latency, booking page, commission report where the API has one) and its pictures.
 */
function slotRoutes(
  supplier: SupplierId,
  api: SupplierApi,
  world: World,
  ledger: BookingLedger,
  credentials: ApiCredentials,
): SupplierRoute[] {
  return [...API_MODULES[api].routes({ supplier, world, ledger, credentials }), mediaRoute(supplier, world)];
}

function checkLatency(supplier: SupplierId, latency: Latency): void {
  const [min, max] = typeof latency === 'number' ? [latency, latency] : latency;
  if (!(Number.isInteger(min) && Number.isInteger(max) && min >= 0 && max >= min)) {
    throw new RangeError(
      `latencyMs of ${supplier} must be an integer >= 0 or [min, max] with 0 <= min <= max, got ${JSON.stringify(latency)}`,
    );
  }
}

/**
 * Draws the latency of each call: a fixed value, or uniform in [min, max] from a PRNG seeded per
 * world and supplier, so that a run's sequence of delays repeats.
 */
function latencyOf(supplier: SupplierId, option: StartSimSuppliersOptions['latencyMs'], seed: number): () => number {
  const latency: Latency = typeof option === 'number' ? option : (option?.[supplier] ?? DEFAULT_LATENCY_MS[supplier]);
  checkLatency(supplier, latency);
  if (typeof latency === 'number') return () => latency;
  const [min, max] = latency;
  const rng = createRandom(seed * 31 + SUPPLIER_IDS.indexOf(supplier) + 1);
  return () => rng.int(min, max);
}

const WORLD_FILE = 'world.json';

/**
 * The world as generated is day 0; a simulator restarted on the same data folder goes back to the
 * day it had reached (same seed and size), so the content a gateway stored still matches it.
 */
function restoreDay(world: World, file: string | null): void {
  if (file === null || world.day !== 0) return;
  let saved: { seed?: number; generated?: number; day?: number };
  try {
    saved = JSON.parse(readFileSync(file, 'utf8')) as typeof saved;
  } catch {
    return; // none yet, or unreadable: day 0
  }
  if (saved.seed !== world.seed || saved.generated !== world.properties.length || !Number.isInteger(saved.day)) return;
  for (let left = saved.day!; left > 0; left -= MAX_ADVANCE_DAYS) advanceWorld(world, Math.min(left, MAX_ADVANCE_DAYS));
}

function saveDay(world: World, file: string): void {
  const generated = generatedSize.get(world) ?? null;
  if (generated === null) return; // a world handed over already advanced: no day 0 to go back to
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, `${JSON.stringify({ seed: world.seed, generated, day: world.day })}\n`);
  renameSync(`${file}.tmp`, file);
}

/** Properties of each world as generated, before any advance appended new ones. */
const generatedSize = new WeakMap<World, number>();

export async function startSimSuppliers({
  world,
  host = '127.0.0.1',
  ports = {},
  controlPort = 0,
  latencyMs,
  faults,
  now,
  dataDir,
  apis = {},
  credentials = {},
}: StartSimSuppliersOptions): Promise<SimSuppliers> {
  const apiOf = (supplier: SupplierId): SupplierApi => apis[supplier] ?? DEFAULT_SUPPLIER_APIS[supplier];
  const credentialsOf = (supplier: SupplierId): ApiCredentials => ({ ...SIM_CREDENTIALS[apiOf(supplier)], ...credentials[supplier] });
  // Settings first: a typo in STAYGATE_SIM_FAULTS must fail before anything listens.
  const initialFaults = parseSimFaults(faults ?? '');
  const latencies = SUPPLIER_IDS.map((supplier) => latencyOf(supplier, latencyMs, world.seed));
  const dayFile = dataDir ? path.join(dataDir, WORLD_FILE) : null;
  if (world.day === 0 && !generatedSize.has(world)) generatedSize.set(world, world.properties.length);
  restoreDay(world, dayFile);
  preparePricing(world);
  const ledger = createBookingLedger({ world, now, dataDir });

  const servers = new Map<SupplierId, SupplierServer>(
    SUPPLIER_IDS.map((supplier, i) => [
      supplier,
      createSupplierServer({
        supplier,
        routes: slotRoutes(supplier, apiOf(supplier), world, ledger, credentialsOf(supplier)),
        latencyMs: latencies[i],
      }),
    ]),
  );

  // Not async: a bad supplier or mode throws at the call, and a fault other than `down` (or leaving
  // it) is in force when the call returns, awaited or not.
  const setFault = (supplier: SupplierId, mode: string | null): Promise<void> => {
    const server = servers.get(supplier);
    if (server === undefined) throw new Error(`unknown supplier "${supplier}"`);
    return server.setFault(mode === null ? null : parseFaultMode(mode));
  };
  const currentFaults = (): Record<SupplierId, string | null> =>
    Object.fromEntries(SUPPLIER_IDS.map((s) => [s, servers.get(s)!.fault])) as Record<SupplierId, string | null>;

  let control: { url: string; close(): Promise<void> } | null = null;
  const closeAll = async (): Promise<void> => {
    await Promise.all([...servers.values()].map((s) => s.close()));
    await control?.close();
  };
  try {
    const urls = await Promise.all(SUPPLIER_IDS.map((s) => servers.get(s)!.listen(ports[s] ?? 0, host)));
    const advance = (days: number): AdvanceResult => {
      const result = advanceWorld(world, days);
      if (dayFile !== null) saveDay(world, dayFile);
      preparePricing(world); // now, not in the first quote after the advance
      return result;
    };
    control = await startControlServer({
      faults: currentFaults,
      setFault,
      advance,
      ledger,
      listings: (supplier) => world.listings[supplier],
      port: controlPort,
    });
    // Faults go on once every port is known: a supplier that starts `down` still has its URL.
    for (const [supplier, mode] of Object.entries(initialFaults) as [SupplierId, string | null][]) await setFault(supplier, mode);
    const slot = (supplier: SupplierId, url: string): SimSlot => {
      const api = apiOf(supplier);
      const template = API_MODULES[api].bookingUrl;
      return { api, url, ...credentialsOf(supplier), bookingUrl: template === null ? null : template.replaceAll('{supplierUrl}', url) };
    };
    return {
      slots: Object.fromEntries(SUPPLIER_IDS.map((id, i) => [id, slot(id, urls[i])])) as Record<SupplierId, SimSlot>,
      urls: Object.fromEntries(SUPPLIER_IDS.map((id, i) => [id, urls[i]])) as Record<SupplierId, string>,
      controlUrl: control.url,
      setFault,
      faults: currentFaults,
      advance,
      ledger,
      close: closeAll,
    };
  } catch (error) {
    // One port taken: do not leave the others listening.
    await closeAll();
    throw error;
  }
}
