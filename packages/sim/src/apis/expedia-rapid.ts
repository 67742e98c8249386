// Expedia Rapid 3 (Vrbo supply) on a simulated slot: expedia-rapid-routes.ts (content by expiring
// Link, availability, the simulated Vrbo page). Rapid has no commission report for affiliates: the
// slot's transactions are the simulator's CSV export (export-transactions-csv.ts).
import type { ApiModule } from './api-slot.ts';
import { expediaRapidRoutes, RAPID_BOOKING_URL } from './expedia-rapid-routes.ts';

export const expediaRapidApi: ApiModule = { routes: expediaRapidRoutes, bookingUrl: RAPID_BOOKING_URL };
