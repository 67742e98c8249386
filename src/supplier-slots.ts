// The supplier slots a gateway runs with: each slot's configuration (config.ts) with, for a slot
// that has no URL of its own, what the built-in simulator answers for it (server.ts forks it and
// gets each slot's URL, credentials and booking page). The CLI resolves slots the same way from
// <data dir>/simulator.json, so both talk to the same suppliers.
import type { SupplierSlotSetting } from './config.ts';
import type { SupplierConfig } from './suppliers/supplier.ts';
import { SUPPLIER_IDS, type SupplierApi, type SupplierId } from './types.ts';

/** How the simulator says one of its slots is reached (the fields of @staygate/sim's SimSlot). */
export interface SimulatedSlot {
  api: SupplierApi;
  url: string;
  key: string;
  secret: string;
  affiliateId: string;
  bookingUrl: string | null;
}

/** One slot as the gateway runs it: its driver's configuration, its booking page, and whether it is simulated. */
export interface SupplierSlot extends SupplierConfig {
  /** The booking page template (STAYGATE_SUPPLIER_<X>_BOOKING_URL syntax), or null: the API's default. */
  bookingUrl: string | null;
  simulated: boolean;
}

/** Whether any slot needs the built-in simulator. */
export function needsSimulator(settings: Record<SupplierId, SupplierSlotSetting>): boolean {
  return SUPPLIER_IDS.some((id) => settings[id].url === null);
}

/**
 * The slots: a configured URL keeps the operator's credentials; a slot without one takes the
 * simulator's slot (which speaks the API configured for it, server.ts passes STAYGATE_SIM_APIS).
 * A booking URL set by the operator wins over the simulator's.
 */
export function resolveSupplierSlots(
  settings: Record<SupplierId, SupplierSlotSetting>,
  simulated: Record<SupplierId, SimulatedSlot> | null,
): SupplierSlot[] {
  return SUPPLIER_IDS.map((id): SupplierSlot => {
    const setting = settings[id];
    if (setting.url !== null) {
      const { api, url, key, secret, affiliateId, bookingUrl } = setting;
      return { id, api, baseUrl: url, key, secret, affiliateId, bookingUrl, simulated: false };
    }
    const sim = simulated?.[id];
    if (sim === undefined) throw new Error(`${id} has no STAYGATE_${id.toUpperCase()}_URL and no simulator is running for it`);
    if (sim.api !== setting.api) throw new Error(`the simulator speaks ${sim.api} on ${id}, configured as ${setting.api}: restart it`);
    return { ...simulatedSlot(id, sim), bookingUrl: setting.bookingUrl ?? sim.bookingUrl };
  });
}

/** A slot the simulator serves, as the gateway runs it (tests and benchmarks: every slot simulated). */
export function simulatedSlot(id: SupplierId, sim: SimulatedSlot): SupplierSlot {
  const { api, url, key, secret, affiliateId, bookingUrl } = sim;
  return { id, api, baseUrl: url, key, secret, affiliateId, bookingUrl, simulated: true };
}

/** Every slot from the simulator's answer (`SimSuppliers.slots`). */
export function simulatedSlots(slots: Record<SupplierId, SimulatedSlot>): SupplierSlot[] {
  return SUPPLIER_IDS.map((id) => simulatedSlot(id, slots[id]));
}

/** `STAYGATE_SIM_APIS` for the simulator: the API of each slot it serves. */
export function simApisVariable(settings: Record<SupplierId, SupplierSlotSetting>): string {
  return SUPPLIER_IDS.map((id) => `${id}=${settings[id].api}`).join(',');
}

/** What a slot's driver is made from: plain data, for the content worker's thread too. */
export function supplierConfig(slot: SupplierSlot): SupplierConfig {
  const { id, api, baseUrl, key, secret, affiliateId } = slot;
  return { id, api, baseUrl, key, secret, affiliateId };
}
