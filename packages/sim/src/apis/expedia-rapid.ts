// Expedia Rapid 3 (Vrbo) on a simulated slot. PLACEHOLDER until its real wire format lands: it still
// serves the invented supplier_d format (feed-, quote-, report-supplier-d.ts) for any slot.
import { bookingPageRoute } from '../booking-pages.ts';
import { supplierDContentRoute } from '../feed-supplier-d.ts';
import { supplierDQuoteRoute } from '../quote-supplier-d.ts';
import { supplierDReportRoute } from '../report-supplier-d.ts';
import type { ApiModule } from './api-slot.ts';

export const expediaRapidApi: ApiModule = {
  routes: ({ supplier, world, ledger }) => [
    supplierDContentRoute(world.listings[supplier]),
    { ...supplierDQuoteRoute(world), latency: true },
    bookingPageRoute('supplier_d', world, ledger),
    supplierDReportRoute(ledger),
  ],
  bookingUrl: '{supplierUrl}/rooms?listing_id={supplierStayId}&affiliate={aid}&click_id={clickId}&start={checkin}&end={checkout}',
};
