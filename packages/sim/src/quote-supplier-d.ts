// supplier_d's quote API: whole-stay totals in USD, small batches (at most 50 ids), query parameters.
import { ok, type SupplierRoute } from './create-supplier-server.ts';
import type { World } from './generate-world.ts';
import { priceNightsUsdCents, QUOTE_ID_CAPS, type SimQuoteRequest } from './price-stay.ts';
import { checkStay, readQueryAges, readQueryCount, readQueryIds, readQueryString } from './read-quote-input.ts';

export const SUPPLIER_D_QUOTE_PATH = '/api/availability';

export type SupplierDAvailability =
  { listing_id: string; bookable: true; price: { total: number; currency: 'USD' } } | { listing_id: string; bookable: false };

export interface SupplierDAvailabilityResponse {
  data: SupplierDAvailability[];
}

const PARAMS: Record<keyof SimQuoteRequest, string> = {
  checkin: 'start',
  checkout: 'end',
  adults: 'adults',
  children: 'children',
  childrenAges: 'ages',
  rooms: 'rooms',
  currency: 'currency',
};

/**
 * `GET /api/availability?ids=<ids>&start=<date>&end=<date>&adults=<n>[&children=<n>][&ages=<a,b>][&rooms=<n>]`.
 * `children` absent: as many as `ages` lists (0 without it); children without ages are 12.
 */
export function supplierDQuoteRoute(world: World): SupplierRoute {
  return {
    method: 'GET',
    path: SUPPLIER_D_QUOTE_PATH,
    handle({ query }) {
      const ids = readQueryIds(query, 'ids', QUOTE_ID_CAPS.supplier_d);
      const ages = readQueryAges(query, 'ages');
      const request: SimQuoteRequest = {
        checkin: readQueryString(query, 'start'),
        checkout: readQueryString(query, 'end'),
        adults: readQueryCount(query, 'adults', null),
        children: readQueryCount(query, 'children', ages?.length ?? 0),
        childrenAges: ages,
        rooms: readQueryCount(query, 'rooms', 1),
        currency: 'USD',
      };
      checkStay(request, PARAMS);
      const response: SupplierDAvailabilityResponse = {
        data: ids.map((listing_id): SupplierDAvailability => {
          const nights = priceNightsUsdCents(world, 'supplier_d', listing_id, request);
          return nights === null
            ? { listing_id, bookable: false }
            : { listing_id, bookable: true, price: { total: nights.reduce((a, b) => a + b, 0) / 100, currency: 'USD' } };
        }),
      };
      return ok(response);
    },
  };
}
