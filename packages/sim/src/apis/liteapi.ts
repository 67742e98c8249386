// The simulated LiteAPI v3 on one slot (liteapi-routes.ts: hotel data, rates, the dashboard's
// commission report, the operator's booking page; docs/suppliers/liteapi.md).
import type { ApiModule } from './api-slot.ts';
import { LITEAPI_BOOKING_URL, liteapiRoutes } from './liteapi-routes.ts';

export { LITEAPI_BOOKING_URL };

export const liteApiApi: ApiModule = { routes: liteapiRoutes, bookingUrl: LITEAPI_BOOKING_URL };
