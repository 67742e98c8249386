// Booking.com Demand API 3.1 on a simulated slot. PLACEHOLDER until its real wire format lands: it still
// serves the invented supplier_a format (feed-, quote-, report-supplier-a.ts) for any slot.
import { bookingPageRoute } from '../booking-pages.ts';
import { supplierAContentRoute } from '../feed-supplier-a.ts';
import { supplierAQuoteRoute } from '../quote-supplier-a.ts';
import { supplierAReportRoute } from '../report-supplier-a.ts';
import type { ApiModule } from './api-slot.ts';

export const bookingDemandApi: ApiModule = {
  routes: ({ supplier, world, ledger }) => [
    supplierAContentRoute(world.listings[supplier]),
    { ...supplierAQuoteRoute(world), latency: true },
    bookingPageRoute('supplier_a', world, ledger),
    supplierAReportRoute(ledger),
  ],
  bookingUrl: '{supplierUrl}/book?propertyId={supplierStayId}&affiliateId={aid}&clickId={clickId}&checkIn={checkin}&checkOut={checkout}',
};
