// What staygate asks of Rapid's availability call (`GET /properties/availability`) for a party, and
// what it reads back: the whole stay's price of one property, the cheapest rate for the party.
import { readDecimalString } from './commission-fields.ts';
import type { FeedRecord } from './feed-record.ts';
import { hotelbedsRoomGroups } from './hotelbeds-rates.ts';
import type { QuoteRequest } from './supplier.ts';

/**
 * The age sent for a child whose age the caller does not know: Rapid wants one per child (the
 * `occupancy` format) and prices children by age. 12 is the oldest age most properties still count
 * as a child, so a family is never quoted below what its eldest may cost (decision 161).
 */
export const EXPEDIA_RAPID_DEFAULT_CHILD_AGE = 12;

/**
 * One `occupancy` per room, `adults[-age,age...]` (the spec's format). The party is split into
 * rooms as the Hotelbeds driver splits it (adults evenly, children where there is room): the same
 * rooms whatever the API.
 */
export function expediaRapidOccupancies(request: QuoteRequest): string[] {
  const childrenAges = request.childrenAges ?? new Array<number>(request.children).fill(EXPEDIA_RAPID_DEFAULT_CHILD_AGE);
  return hotelbedsRoomGroups({ ...request, childrenAges }).flatMap(({ adults, ages, count }) =>
    new Array<string>(count).fill(ages.length === 0 ? String(adults) : `${adults}-${ages.join(',')}`),
  );
}

/** A Charge read in one currency: `request_currency` where given, else `billable_currency` (decision 161). */
function chargeCents(charge: FeedRecord): { cents: number; currency: string } {
  const amount = charge.record(charge.has('request_currency') ? 'request_currency' : 'billable_currency');
  return { cents: readDecimalString(amount, 'value', 2), currency: amount.currency('currency') };
}

/**
 * What one room of an occupancy costs at a rate (its PricingInformation): `totals.property_inclusive`
 * where present (taxes, fees and the fees paid at the property: the whole stay), else
 * `totals.inclusive` (issue 24, decision 161).
 */
function roomPrice(pricing: FeedRecord): { cents: number; currency: string } {
  const totals = pricing.record('totals');
  return chargeCents(totals.record(totals.has('property_inclusive') ? 'property_inclusive' : 'inclusive'));
}

/**
 * The whole stay's price of one Property of the availability answer for the asked rooms, in cents,
 * or null when no rate prices every room: each rate's `occupancy_pricing` holds one room of each
 * asked occupancy, so a rate's price is the sum over the asked rooms (a room asked twice counts
 * twice); the cheapest rate wins. A rate sold out or whose price changed is not one to show.
 */
export function expediaRapidPropertyTotal(
  property: FeedRecord,
  occupancies: readonly string[],
): { cents: number; currency: string } | null {
  let best: { cents: number; currency: string } | null = null;
  for (const room of property.has('rooms') ? property.records('rooms') : []) {
    for (const rate of room.has('rates') ? room.records('rates') : []) {
      const status = rate.nullableString('status');
      if (status !== null && status !== 'available') continue;
      if (!rate.has('occupancy_pricing')) continue;
      const pricing = rate.record('occupancy_pricing');
      let cents = 0;
      let currency: string | null = null;
      let priced = true;
      for (const occupancy of occupancies) {
        if (!pricing.has(occupancy)) {
          priced = false;
          break;
        }
        const price = roomPrice(pricing.record(occupancy));
        if (currency !== null && price.currency !== currency) {
          priced = false;
          break;
        }
        currency = price.currency;
        cents += price.cents;
      }
      if (priced && currency !== null && (best === null || cents < best.cents)) best = { cents, currency };
    }
  }
  return best;
}
