// LiteAPI v3 on a simulated slot. PLACEHOLDER until its real wire format lands: it still
// serves the invented supplier_c format (feed-, quote-, report-supplier-c.ts) for any slot.
import { bookingPageRoute } from '../booking-pages.ts';
import { supplierCContentRoute } from '../feed-supplier-c.ts';
import { supplierCQuoteRoute } from '../quote-supplier-c.ts';
import { supplierCReportRoute } from '../report-supplier-c.ts';
import type { ApiModule } from './api-slot.ts';

export const liteApiApi: ApiModule = {
  routes: ({ supplier, world, ledger }) => [
    supplierCContentRoute(world.listings[supplier]),
    { ...supplierCQuoteRoute(world), latency: true },
    bookingPageRoute('supplier_c', world, ledger),
    supplierCReportRoute(ledger),
  ],
  bookingUrl: '{supplierUrl}/deeplink?id={supplierStayId}&aff={aid}&click={clickId}&from={checkin}&to={checkout}',
};
