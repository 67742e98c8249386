// supplier_c's quote API: whole-stay totals in USD cents, up to 100 ids, a compact JSON body (see README.md).
import { ok, SupplierHttpError, type SupplierRoute } from './create-supplier-server.ts';
import type { World } from './generate-world.ts';
import { priceNightsUsdCents, QUOTE_ID_CAPS, type SimQuoteRequest } from './price-stay.ts';
import { checkStay, readBodyObject, readJsonAges, readJsonCount, readJsonIds, readJsonObject, readJsonString } from './read-quote-input.ts';

export const SUPPLIER_C_QUOTE_PATH = '/feed/quote';

export interface SupplierCQuoteBody {
  ids: number[];
  from: string;
  to: string;
  /** `children` lists ages; `childCount` instead when the ages are unknown (they count as 6). */
  pax: { adults: number; children?: number[]; childCount?: number };
  /** Rooms; absent: 1. */
  units?: number;
}

export type SupplierCResult = { id: number; state: 'OK'; total_usd_cents: number } | { id: number; state: 'FULL' };

export interface SupplierCQuoteResponse {
  results: SupplierCResult[];
}

const PARAMS: Record<keyof SimQuoteRequest, string> = {
  checkin: 'from',
  checkout: 'to',
  adults: 'pax.adults',
  children: 'pax.childCount',
  childrenAges: 'pax.children',
  rooms: 'units',
  currency: 'currency',
};

/** `POST /feed/quote` with a SupplierCQuoteBody. */
export function supplierCQuoteRoute(world: World): SupplierRoute {
  return {
    method: 'POST',
    path: SUPPLIER_C_QUOTE_PATH,
    handle({ body }) {
      const input = readBodyObject(body);
      const ids = readJsonIds(input.ids, 'ids', QUOTE_ID_CAPS.supplier_c);
      const pax = readJsonObject(input.pax, 'pax');
      const ages = readJsonAges(pax.children, 'pax.children');
      const childCount = pax.childCount === undefined ? null : readJsonCount(pax.childCount, 'pax.childCount', null);
      if (ages !== null && childCount !== null && ages.length !== childCount) {
        throw new SupplierHttpError(400, `pax.children lists ${ages.length} ages but pax.childCount is ${childCount}`, {
          param: 'pax.childCount',
          value: String(childCount),
        });
      }
      const request: SimQuoteRequest = {
        checkin: readJsonString(input.from, 'from'),
        checkout: readJsonString(input.to, 'to'),
        adults: readJsonCount(pax.adults, 'pax.adults', null),
        children: childCount ?? ages?.length ?? 0,
        childrenAges: ages,
        rooms: readJsonCount(input.units, 'units', 1),
        currency: 'USD',
      };
      checkStay(request, PARAMS);
      const response: SupplierCQuoteResponse = {
        results: ids.map((id): SupplierCResult => {
          const nights = priceNightsUsdCents(world, 'supplier_c', String(id), request);
          return nights === null ? { id, state: 'FULL' } : { id, state: 'OK', total_usd_cents: nights.reduce((a, b) => a + b, 0) };
        }),
      };
      return ok(response);
    },
  };
}
