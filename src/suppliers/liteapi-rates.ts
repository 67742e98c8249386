// What staygate asks of LiteAPI's rates call (`POST /hotels/rates`, search.json) for a party, and
// what it reads back: the whole stay's price of one hotel, the cheapest offer for the party.
import type { FeedRecord } from './feed-record.ts';
import type { QuoteRequest } from './supplier.ts';

/**
 * The age sent for a child whose age the caller does not know: LiteAPI takes children only as
 * ages (`children: [5, 2]`). 10 prices as a child everywhere (under 2 is often free, 12 and over
 * often a teen or adult), as for Hotelbeds (decision 111).
 */
export const LITEAPI_DEFAULT_CHILD_AGE = 10;

/**
 * The traveller's nationality sent with every rates call (`guestNationality`, required): the
 * interface's quote carries none, and rates may differ by it. US, the spec's own example (decision 157).
 */
export const LITEAPI_GUEST_NATIONALITY = 'US';

/** One occupancy of the rates call: one room, its adults and its children's ages. */
export interface LiteapiOccupancy {
  adults: number;
  children?: number[];
}

/**
 * One occupancy per room: adults as evenly as the rooms allow (the first rooms take one more), each
 * child, eldest first, in the room with the fewest guests; what a family books and what prices the
 * same as the party in one piece.
 */
export function liteapiOccupancies(request: QuoteRequest): LiteapiOccupancy[] {
  const ages = request.childrenAges ?? new Array<number>(request.children).fill(LITEAPI_DEFAULT_CHILD_AGE);
  const rooms = Array.from({ length: request.rooms }, (_v, i) => ({
    adults: Math.floor(request.adults / request.rooms) + (i < request.adults % request.rooms ? 1 : 0),
    ages: [] as number[],
  }));
  for (const age of [...ages].sort((a, b) => b - a)) {
    const emptiest = rooms.reduce((best, room) => (room.adults + room.ages.length < best.adults + best.ages.length ? room : best));
    emptiest.ages.push(age);
  }
  return rooms.map(({ adults, ages: own }) => (own.length === 0 ? { adults } : { adults, children: own.sort((a, b) => a - b) }));
}

const cents = (record: FeedRecord): number => Math.round(record.amount('amount') * 100);

/** The `{ amount, currency }` of a price array in `currency`, or the array's first when none is. */
function priceIn(record: FeedRecord, key: string, currency: string): { cents: number; currency: string } {
  const prices = record.records(key);
  if (prices.length === 0) record.fail(key, 'at least one price');
  const chosen = prices.find((price) => price.nullableString('currency') === currency) ?? prices[0];
  return { cents: cents(chosen), currency: chosen.currency('currency') };
}

/**
 * What the traveller pays for one offer (a `roomTypes[]` entry: one rate per room of the party), in
 * cents of its currency, or null when the offer does not price every room or a fee cannot be said
 * in its currency. The price is `offerRetailRate`, the sum of its rates' final prices "including
 * base rate, taxes, fees" (decision 157); the spec types it as an array of `{ amount, currency }`
 * (its example writes one object: the schema is followed). Taxes and fees a rate marks
 * `included: false` are paid at the property and are part of what the stay costs: added.
 */
export function offerTotal(offer: FeedRecord, rooms: number, currency: string): { cents: number; currency: string } | null {
  const rates = offer.has('rates') ? offer.records('rates') : [];
  const numbers = new Set(rates.map((rate) => rate.nullableNumber('occupancyNumber')));
  const covered = numbers.has(null) ? rates.length >= rooms : Array.from({ length: rooms }, (_v, i) => i + 1).every((n) => numbers.has(n));
  if (!covered) return null;
  const total = priceIn(offer, 'offerRetailRate', currency);
  for (const rate of rates) {
    if (!rate.has('retailRate')) continue;
    const retail = rate.record('retailRate');
    for (const fee of retail.has('taxesAndFees') ? retail.records('taxesAndFees') : []) {
      if (!fee.has('included') || fee.boolean('included')) continue;
      if (fee.nullableString('currency') !== total.currency) return null;
      total.cents += cents(fee);
    }
  }
  return total;
}

/**
 * The whole stay's price of one hotel (`data[]` of the answer) for a party of `rooms` rooms: its
 * cheapest offer, among those in the asked currency when any is, else in the first offer's.
 * Null when no offer prices the party.
 */
export function hotelTotal(hotel: FeedRecord, rooms: number, currency: string): { cents: number; currency: string } | null {
  const totals = hotel
    .records('roomTypes')
    .map((offer) => offerTotal(offer, rooms, currency))
    .filter((total) => total !== null);
  if (totals.length === 0) return null;
  const wanted = totals.some((total) => total.currency === currency) ? currency : totals[0].currency;
  return totals.filter((total) => total.currency === wanted).reduce((best, total) => (total.cents < best.cents ? total : best));
}
