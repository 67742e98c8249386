// Booking.com Demand API 3.1 on a simulated slot (booking-demand-routes.ts): the content carries
// each stay's own page (`url`, on the slot, with Booking.com's placeholders), so the slot has no
// booking page template.
import type { ApiModule } from './api-slot.ts';
import { bookingDemandRoutes } from './booking-demand-routes.ts';

export const bookingDemandApi: ApiModule = { routes: bookingDemandRoutes, bookingUrl: null };
