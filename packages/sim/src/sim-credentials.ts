// The fixed credentials of the simulated APIs: what their auth checks accept, and what the gateway
// is configured with for a slot it simulates (server.ts gets them with the slots' URLs). Not
// secrets: anyone on the machine can read them here; a wrong one is how tests make a 401.
import type { ApiCredentials, SupplierApi } from './apis/api-slot.ts';

export const SIM_CREDENTIALS: Readonly<Record<SupplierApi, ApiCredentials>> = {
  'booking-demand': { key: 'sim-booking-demand-token', secret: '', affiliateId: '1234567' },
  hotelbeds: { key: 'sim-hotelbeds-api-key', secret: 'sim-hotelbeds-secret', affiliateId: 'staygate-sim' },
  liteapi: { key: 'sim-liteapi-key', secret: '', affiliateId: 'staygate-sim' },
  'expedia-rapid': { key: 'sim-rapid-api-key', secret: 'sim-rapid-secret', affiliateId: 'staygate-sim' },
};
