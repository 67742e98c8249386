// What one simulated supplier slot hands the API it speaks: the slot's listings, pricing model and
// booking ledger come from the world (the slot decides what is sold, at what price); the API module
// decides only how that is written on the wire (paths, bodies, paging, auth, errors).
import type { BookingLedger } from '../bookings.ts';
import type { SupplierRoute } from '../create-supplier-server.ts';
import type { World } from '../generate-world.ts';
import type { SupplierId } from '../types.ts';

/** The real supplier APIs a slot may speak; the same names as the gateway's STAYGATE_SUPPLIER_<X>_API. */
export const SUPPLIER_APIS = ['booking-demand', 'hotelbeds', 'liteapi', 'expedia-rapid'] as const;
export type SupplierApi = (typeof SUPPLIER_APIS)[number];

export function isSupplierApi(value: string): value is SupplierApi {
  return (SUPPLIER_APIS as readonly string[]).includes(value);
}

/** The API of each slot unless configured otherwise: the four suppliers the interface was written for. */
export const DEFAULT_SUPPLIER_APIS: Readonly<Record<SupplierId, SupplierApi>> = {
  supplier_a: 'booking-demand',
  supplier_b: 'hotelbeds',
  supplier_c: 'liteapi',
  supplier_d: 'expedia-rapid',
};

/** Credentials a simulated API accepts (sim-credentials.ts); a real one's come from configuration. */
export interface ApiCredentials {
  key: string;
  /** The shared secret of signed APIs (Hotelbeds, Rapid); '' where the API has none. */
  secret: string;
  /** The operator's affiliate id with the supplier (Booking.com's X-Affiliate-Id; every deeplink's). */
  affiliateId: string;
}

export interface ApiSlot {
  /** Which slot: its listings are `world.listings[supplier]`, priced with its model (price-stay.ts). */
  supplier: SupplierId;
  world: World;
  /** The slot's bookings: its booking page lands clicks here, its commission report reads them. */
  ledger: BookingLedger;
  credentials: ApiCredentials;
}

export interface ApiModule {
  /** Every route the API serves for this slot (media is mounted by start-sim-suppliers.ts). */
  routes(slot: ApiSlot): SupplierRoute[];
  /**
   * The booking page template a simulated slot of this API is configured with
   * (STAYGATE_SUPPLIER_<X>_BOOKING_URL syntax, `{supplierUrl}` = the slot's URL), or null when the
   * API's content carries the stay's own bookable URL (Booking.com's `url`).
   */
  bookingUrl: string | null;
}
