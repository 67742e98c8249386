// The public interface of @staygate/sim (README.md, "Public interface"): what the gateway, its tests
// and its benchmarks may use. Everything else in this folder is the package's own business; the
// package's "exports" make deep imports fail. The child-process entry is `@staygate/sim/main`.
export { generateWorld, type GenerateWorldOptions, type SimListing, type World, type WorldProperty } from './generate-world.ts';
export {
  DEFAULT_LATENCY_MS,
  startSimSuppliers,
  type Latency,
  type SimSlot,
  type SimSuppliers,
  type StartSimSuppliersOptions,
} from './start-sim-suppliers.ts';
export { startSimulator, type StartSimulatorOptions } from './start-simulator.ts';
export { SIM_HEAP_BYTES_PER_STAY, simHeapLimitMb } from './sim-heap.ts';
export { DEFAULT_SIM_SEED, DEFAULT_SIM_STAYS, simSettingsFromEnv, type SimSettings } from './sim-settings-from-env.ts';
export { simQuote, type SimQuote, type SimQuoteRequest } from './price-stay.ts';
export {
  expectedCommissionUsdCents,
  SIM_CLICK_TIME_PARAM,
  stateAt,
  type BookingLedger,
  type SimBooking,
  type SimBookingEvent,
  type SimBookingStatus,
} from './bookings.ts';
export { BOOKING_PAGES } from './booking-pages.ts';
export { EXPORT_USD_PER_EUR, exportTransactionsCsv, TRANSACTIONS_EXPORT_COLUMNS } from './export-transactions-csv.ts';
export { DEFAULT_SUPPLIER_APIS, SUPPLIER_APIS, type SupplierApi } from './apis/api-slot.ts';
export { SIM_CREDENTIALS } from './sim-credentials.ts';
export { HOTELBEDS_TYPE_CODES } from './apis/hotelbeds-hotels-route.ts';
export { BOOKING_TYPE_IDS } from './apis/booking-demand-content-routes.ts';
export { RAPID_CATEGORIES } from './apis/expedia-rapid-content-route.ts';
export { LITEAPI_HOTEL_TYPE_IDS } from './apis/liteapi-hotels-route.ts';
export { RENTAL_TYPES, STAY_TYPES, SUPPLIER_IDS, type SupplierId } from './types.ts';
