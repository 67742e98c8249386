// Vrbo's page for a stay, as a simulated Rapid slot plays it: where the gateway's deeplinks of a Rapid
// slot land (a real slot's default is Vrbo's search page with the stay selected, decision 147), and
// whose landings go to the slot's booking ledger.
import { queryBookingPageRoute } from '../booking-pages.ts';
import type { BookingLedger } from '../bookings.ts';
import type { SupplierRoute } from '../create-supplier-server.ts';
import type { World } from '../generate-world.ts';
import type { SupplierId } from '../types.ts';

/**
 * The booking-page template of a simulated Rapid slot: Vrbo's (`/search?selected=&startDate=&endDate=
 * &adults=&affiliateId=`) on the slot's URL, plus what the gateway's `/go` fills for a simulated
 * supplier to pay its partners: the click id and the partner's `aid`.
 */
export const RAPID_BOOKING_URL =
  '{supplierUrl}/search?selected={supplierStayId}&startDate={checkin}&endDate={checkout}&adults={adults}&affiliateId={affiliateId}&aid={aid}&clickId={clickId}';

/**
 * `GET /search?selected=<property id>&clickId=...`: the stay's page. A landing with a click id is
 * recorded under the partner's `aid` (what the gateway's click carries), as the other slots' pages do.
 */
export function rapidBookingPageRoute(world: World, supplier: SupplierId, ledger: BookingLedger): SupplierRoute {
  return queryBookingPageRoute(supplier, world, ledger, {
    path: '/search',
    id: 'selected',
    aid: 'aid',
    click: 'clickId',
    checkin: 'startDate',
    checkout: 'endDate',
    site: 'Vrbo (simulated)',
    echo: ['affiliateId', 'adults'],
  });
}
