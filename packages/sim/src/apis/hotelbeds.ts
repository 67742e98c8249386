// Hotelbeds APItude on a simulated slot. PLACEHOLDER until its real wire format lands: it still
// serves the invented supplier_b format (feed-, quote-, report-supplier-b.ts) for any slot.
import { bookingPageRoute } from '../booking-pages.ts';
import { supplierBContentRoute } from '../feed-supplier-b.ts';
import { supplierBQuoteRoute } from '../quote-supplier-b.ts';
import { supplierBReportRoute } from '../report-supplier-b.ts';
import type { ApiModule } from './api-slot.ts';

export const hotelbedsApi: ApiModule = {
  routes: ({ supplier, world, ledger }) => [
    supplierBContentRoute(world.listings[supplier]),
    { ...supplierBQuoteRoute(world), latency: true },
    bookingPageRoute('supplier_b', world, ledger),
    supplierBReportRoute(ledger),
  ],
  bookingUrl: '{supplierUrl}/v2/book?hotel_id={supplierStayId}&partner_id={aid}&ref={clickId}&arrival={checkin}&departure={checkout}',
};
