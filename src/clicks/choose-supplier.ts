import { SUPPLIER_IDS, type Offers, type Stay, type SupplierId } from '../types.ts';

/**
 * Where a stay's top-level link sends the traveller (docs/decisions.md 7):
 * - with prices for the link's dates: the supplier with the lowest known price; ties go to the
 *   first in SUPPLIER_IDS order. With no known price (every supplier failed), the first supplier
 *   that did not say "sold out";
 * - otherwise (no dates, or sold out everywhere): the stay's first supplier in SUPPLIER_IDS order.
 */
export function chooseSupplier(stay: Stay, offers: Offers | null): SupplierId {
  const sold = SUPPLIER_IDS.filter((s) => stay.listings.some((l) => l.supplier === s));
  if (offers !== null) {
    let best: SupplierId | null = null;
    for (const supplier of sold) {
      const price = offers.get(supplier);
      if (typeof price === 'number' && (best === null || price < (offers.get(best) as number))) best = supplier;
    }
    if (best !== null) return best;
    const unknown = sold.find((s) => offers.has(s));
    if (unknown !== undefined) return unknown;
  }
  return sold[0];
}
