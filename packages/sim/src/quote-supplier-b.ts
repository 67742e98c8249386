// supplier_b's quote API: nightly rates in EUR, up to 100 ids, query parameters (see README.md).
import { ok, type SupplierRoute } from './create-supplier-server.ts';
import type { World } from './generate-world.ts';
import { priceNightsUsdCents, QUOTE_ID_CAPS, supplierBNightlyEur, type SimQuoteRequest } from './price-stay.ts';
import { checkStay, readQueryAges, readQueryCount, readQueryIds, readQueryString } from './read-quote-input.ts';

export const SUPPLIER_B_QUOTE_PATH = '/v2/rates';

export type SupplierBRate =
  { hotel_id: string; available: true; currency: 'EUR'; nightly: number[] } | { hotel_id: string; available: false };

export interface SupplierBRatesResponse {
  rates: SupplierBRate[];
}

const PARAMS: Record<keyof SimQuoteRequest, string> = {
  checkin: 'arrival',
  checkout: 'departure',
  adults: 'adults',
  children: 'children',
  childrenAges: 'child_ages',
  rooms: 'rooms',
  currency: 'currency',
};

/**
 * `GET /v2/rates?hotel_ids=<ids>&arrival=<date>&departure=<date>&adults=<n>[&children=<n>][&child_ages=<a,b>][&rooms=<n>]`.
 * `children` absent: as many as `child_ages` lists (0 without it); children without ages are 10.
 */
export function supplierBQuoteRoute(world: World): SupplierRoute {
  return {
    method: 'GET',
    path: SUPPLIER_B_QUOTE_PATH,
    handle({ query }) {
      const ids = readQueryIds(query, 'hotel_ids', QUOTE_ID_CAPS.supplier_b);
      const ages = readQueryAges(query, 'child_ages');
      const request: SimQuoteRequest = {
        checkin: readQueryString(query, 'arrival'),
        checkout: readQueryString(query, 'departure'),
        adults: readQueryCount(query, 'adults', null),
        children: readQueryCount(query, 'children', ages?.length ?? 0),
        childrenAges: ages,
        rooms: readQueryCount(query, 'rooms', 1),
        currency: 'EUR',
      };
      checkStay(request, PARAMS);
      const response: SupplierBRatesResponse = {
        rates: ids.map((hotel_id): SupplierBRate => {
          const nights = priceNightsUsdCents(world, 'supplier_b', hotel_id, request);
          return nights === null
            ? { hotel_id, available: false }
            : { hotel_id, available: true, currency: 'EUR', nightly: supplierBNightlyEur(nights) };
        }),
      };
      return ok(response);
    },
  };
}
