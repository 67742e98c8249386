// supplier_a's quote API: the whole stay in the requested currency, up to 200 ids (see README.md).
import { ok, type SupplierRoute } from './create-supplier-server.ts';
import type { World } from './generate-world.ts';
import { priceNightsUsdCents, QUOTE_ID_CAPS, supplierAAmount, supplierACurrency, type SimQuoteRequest } from './price-stay.ts';
import { checkStay, readBodyObject, readJsonAges, readJsonCount, readJsonIds, readJsonObject, readJsonString } from './read-quote-input.ts';

export const SUPPLIER_A_QUOTE_PATH = '/availability/quotes';

export interface SupplierAQuoteBody {
  propertyIds: number[];
  checkIn: string;
  checkOut: string;
  /** `childAges` absent: no children. `rooms` absent: 1. */
  occupancy: { adults: number; childAges?: number[]; rooms?: number };
  /** Absent: USD. */
  currency?: string;
}

export type SupplierAQuote = { propertyId: number; status: 'AVAILABLE'; totalPrice: number } | { propertyId: number; status: 'SOLD_OUT' };

export interface SupplierAQuoteResponse {
  currency: string;
  quotes: SupplierAQuote[];
}

const PARAMS: Record<keyof SimQuoteRequest, string> = {
  checkin: 'checkIn',
  checkout: 'checkOut',
  adults: 'occupancy.adults',
  children: 'occupancy.childAges',
  childrenAges: 'occupancy.childAges',
  rooms: 'occupancy.rooms',
  currency: 'currency',
};

/** `POST /availability/quotes` with a SupplierAQuoteBody. */
export function supplierAQuoteRoute(world: World): SupplierRoute {
  return {
    method: 'POST',
    path: SUPPLIER_A_QUOTE_PATH,
    handle({ body }) {
      const input = readBodyObject(body);
      const ids = readJsonIds(input.propertyIds, 'propertyIds', QUOTE_ID_CAPS.supplier_a);
      const occupancy = readJsonObject(input.occupancy, 'occupancy');
      const childAges = readJsonAges(occupancy.childAges, 'occupancy.childAges') ?? [];
      const request: SimQuoteRequest = {
        checkin: readJsonString(input.checkIn, 'checkIn'),
        checkout: readJsonString(input.checkOut, 'checkOut'),
        adults: readJsonCount(occupancy.adults, 'occupancy.adults', null),
        children: childAges.length,
        childrenAges: childAges,
        rooms: readJsonCount(occupancy.rooms, 'occupancy.rooms', 1),
        currency: readJsonString(input.currency, 'currency', 'USD').toUpperCase(),
      };
      checkStay(request, PARAMS);
      const currency = supplierACurrency(request.currency);
      const response: SupplierAQuoteResponse = {
        currency,
        quotes: ids.map((propertyId): SupplierAQuote => {
          const nights = priceNightsUsdCents(world, 'supplier_a', String(propertyId), request);
          return nights === null
            ? { propertyId, status: 'SOLD_OUT' }
            : { propertyId, status: 'AVAILABLE', totalPrice: supplierAAmount(nights, currency) };
        }),
      };
      return ok(response);
    },
  };
}
