// What /health reports: each supplier's content, breaker and credentials, and the inventory served.
import type { HealthReport } from '../http/ops/health-routes.ts';
import type { Services } from '../http/route-context.ts';
import type { ContentService } from '../inventory/content-service.ts';
import type { QuoteService } from '../suppliers/quote-service.ts';
import type { SupplierAuth } from '../suppliers/supplier-auth.ts';
import { SUPPLIER_IDS, type SupplierId } from '../types.ts';

export interface HealthSources {
  content: Pick<ContentService, 'suppliers' | 'storeBytes'>;
  auth: SupplierAuth;
  quotes: ReadonlyMap<SupplierId, QuoteService>;
  services: () => Services | null;
  /** When the served version was swapped in (ISO), '' before the first. */
  builtAt: () => string;
  /** The first start is over (demo partner included), not just an index built. */
  started: () => boolean;
}

export function healthReport(sources: HealthSources): HealthReport {
  const held = sources.content.suppliers();
  const suppliers = Object.fromEntries(
    SUPPLIER_IDS.map((s) => {
      const { state, listings, lastRefresh, lastError } = held[s];
      const credentials = sources.auth.state(s);
      return [
        s,
        {
          content: state,
          listings,
          lastRefresh,
          // A refused credential is the cause to fix first: it is what the entry's error says.
          lastError: credentials.auth === 'failed' ? credentials.error : lastError,
          breaker: sources.quotes.get(s)!.breakerState(),
          auth: credentials.auth,
        },
      ];
    }),
  ) as HealthReport['suppliers'];
  const degraded = Object.values(suppliers).some((h) => h!.content !== 'ok' || h!.breaker !== 'closed' || h!.auth === 'failed');
  const services = sources.services();
  return {
    // Ready means ready: the first start is over (demo partner included), not just an index built.
    status: services === null || !sources.started() ? 'starting' : degraded ? 'degraded' : 'ok',
    inventory: services === null ? null : { ...services.inventory, builtAt: sources.builtAt(), storeBytes: sources.content.storeBytes() },
    suppliers,
  };
}
