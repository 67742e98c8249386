// The supplier slots a gateway runs with: each slot's configuration (config.ts) with, for a slot
// that has no URL of its own, what the built-in simulator answers for it (server.ts forks it and
// gets each slot's URL, credentials and booking page). The CLI resolves slots the same way from
// <data dir>/simulator.json, so both talk to the same suppliers.
import { API_BOOKING_PAGES, needsBookingUrl } from '../clicks/booking-page.ts';
import type { SupplierSlotSetting } from '../config.ts';
import type { SupplierConfig } from '../suppliers/supplier.ts';
import { SUPPLIER_IDS, type SupplierApi, type SupplierId } from '../types.ts';

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
  /**
   * The booking page template (STAYGATE_SUPPLIER_<X>_BOOKING_URL syntax), or null: each listing's
   * own page where the API's content gives one (clicks/booking-page.ts).
   */
  bookingUrl: string | null;
  simulated: boolean;
}

/** Whether any slot needs the built-in simulator. */
export function needsSimulator(settings: Record<SupplierId, SupplierSlotSetting>): boolean {
  return SUPPLIER_IDS.some((id) => settings[id].url === null);
}

/**
 * One slot: a configured URL keeps the operator's credentials, and without a booking page of the
 * operator's the API's documented one (a real Rapid slot: Vrbo's); a slot without a URL takes
 * the simulator's slot (which speaks the API configured for it: server.ts passes
 * STAYGATE_SIM_APIS), `sim` (undefined: no simulator runs for it). A booking page set by the
 * operator wins over the simulator's. Throws, naming the slot, when it cannot be resolved.
 */
export function resolveSupplierSlot(id: SupplierId, setting: SupplierSlotSetting, sim: SimulatedSlot | undefined): SupplierSlot {
  if (setting.url !== null) {
    const { api, url, key, secret, affiliateId, bookingUrl } = setting;
    return { id, api, baseUrl: url, key, secret, affiliateId, bookingUrl: bookingUrl ?? API_BOOKING_PAGES[api].template, simulated: false };
  }
  if (sim === undefined) throw new Error(`${id} has no STAYGATE_${id.toUpperCase()}_URL and no simulator is running for it`);
  if (sim.api !== setting.api) throw new Error(`the simulator speaks ${sim.api} on ${id}, configured as ${setting.api}: restart it`);
  return { ...simulatedSlot(id, sim), bookingUrl: setting.bookingUrl ?? sim.bookingUrl };
}

/** Every slot (resolveSupplierSlot); `simulated` is the simulator's answer, null when none runs. */
export function resolveSupplierSlots(
  settings: Record<SupplierId, SupplierSlotSetting>,
  simulated: Record<SupplierId, SimulatedSlot> | null,
): SupplierSlot[] {
  return SUPPLIER_IDS.map((id) => resolveSupplierSlot(id, settings[id], simulated?.[id]));
}

/**
 * Why a slot cannot be run, or null: a real slot of an API that gives no page per stay (Hotelbeds,
 * LiteAPI) and no STAYGATE_SUPPLIER_<X>_BOOKING_URL would have nowhere to send a traveller, so
 * the gateway refuses to start (server.ts) and `staygate suppliers check` fails the slot.
 */
export function bookingPageProblem(id: SupplierId, setting: SupplierSlotSetting): string | null {
  if (setting.url === null || setting.bookingUrl !== null || !needsBookingUrl(setting.api)) return null;
  const prefix = `STAYGATE_${id.toUpperCase()}_`;
  return (
    `${prefix}URL points ${id} at a real ${setting.api} API, which has no web page per stay to send a traveller to: ` +
    `set ${prefix}BOOKING_URL to your booking site's page for a stay, e.g. https://book.example.com/hotel?id={supplierStayId}&checkin={checkin}&checkout={checkout}&adults={adults}&rooms={rooms}&ref={clickId}`
  );
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
