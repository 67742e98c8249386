// The simulated Rapid availability call: `GET /properties/availability?property_id=...&occupancy=...`
// (an array of Property), priced by simQuote, the ground truth of the slot's prices: the cheapest
// rate of a property, summed over the asked rooms, is simQuote's total.
import type { SupplierRoute } from '../create-supplier-server.ts';
import type { World } from '../generate-world.ts';
import {
  checkQuoteRequest,
  CHILD_SHARE,
  EXTRA_ADULT_SHARE,
  FREE_CHILD_AGE,
  simQuote,
  TEEN_AGE,
  TEEN_SHARE,
  type SimQuoteRequest,
} from '../price-stay.ts';
import type { SupplierId } from '../types.ts';
import { invalidInput, queryError, type RapidErrorDetail } from './expedia-rapid-wire.ts';

export const RAPID_AVAILABILITY_PATH = '/properties/availability';
/** "You can provide 1 to 250 property_id parameters." */
export const RAPID_MAX_PROPERTY_IDS = 250;
/** "Up to 8 rooms may be requested or booked at once." */
export const RAPID_MAX_ROOMS = 8;
/** A refundable rate costs this much more than the non-refundable one: the dearer rate a traveller could also take. */
const REFUNDABLE_FACTOR = 1.12;
/** Of a rate's whole price, the share the property collects itself (a cleaning fee paid at the rental). */
const PROPERTY_FEE_SHARE = 0.08;
const OCCUPANCY = /^([1-9]\d?)(?:-(\d{1,2}(?:,\d{1,2})*))?$/;

/** A kind of room asked (an `occupancy` value) and how many of it. */
interface RoomGroup {
  key: string;
  adults: number;
  ages: number[];
  count: number;
}

function readRequest(query: URLSearchParams): { request: SimQuoteRequest; groups: RoomGroup[]; ids: string[] } {
  const errors: RapidErrorDetail[] = [];
  const one = (name: string): string => {
    const values = query.getAll(name);
    if (values.length !== 1) errors.push(queryError(name, 'required', `${name} is required, once.`));
    return values[0] ?? '';
  };
  const checkin = one('checkin');
  const checkout = one('checkout');
  const currency = one('currency');
  one('country_code');
  one('language');
  one('sales_channel');
  one('sales_environment');
  const ratePlans = one('rate_plan_count');
  if (ratePlans !== '' && !(/^\d{1,3}$/.test(ratePlans) && Number(ratePlans) >= 1 && Number(ratePlans) <= 250))
    errors.push(queryError('rate_plan_count', 'invalid', 'The value must be between 1 and 250.', ratePlans));
  const ids = query.getAll('property_id');
  if (ids.length === 0 || ids.length > RAPID_MAX_PROPERTY_IDS)
    errors.push(
      queryError('property_id', 'invalid', `You can provide 1 to ${RAPID_MAX_PROPERTY_IDS} property_id parameters.`, String(ids.length)),
    );
  const occupancies = query.getAll('occupancy');
  if (occupancies.length === 0 || occupancies.length > RAPID_MAX_ROOMS)
    errors.push(queryError('occupancy', 'invalid', `Up to ${RAPID_MAX_ROOMS} rooms may be requested at once.`, String(occupancies.length)));
  const groups = new Map<string, RoomGroup>();
  for (const occupancy of occupancies) {
    const match = OCCUPANCY.exec(occupancy);
    if (match === null) {
      errors.push(queryError('occupancy', 'invalid_format', 'Occupancy must be numberOfAdults[-firstChildAge[,nextChildAge]].', occupancy));
      continue;
    }
    const group = groups.get(occupancy) ?? {
      key: occupancy,
      adults: Number(match[1]),
      ages: match[2] ? match[2].split(',').map(Number) : [],
      count: 0,
    };
    group.count++;
    groups.set(occupancy, group);
  }
  if (errors.length > 0) throw invalidInput(errors);
  const all = [...groups.values()];
  const request: SimQuoteRequest = {
    checkin,
    checkout,
    adults: all.reduce((n, g) => n + g.adults * g.count, 0),
    children: all.reduce((n, g) => n + g.ages.length * g.count, 0),
    childrenAges: all.flatMap((g) => Array.from({ length: g.count }, () => g.ages).flat()),
    rooms: all.reduce((n, g) => n + g.count, 0),
    currency: currency.toUpperCase(),
  };
  const problem = checkQuoteRequest(request);
  if (problem) {
    const field = problem.field === 'checkin' || problem.field === 'checkout' || problem.field === 'currency' ? problem.field : 'occupancy';
    throw invalidInput([queryError(field, 'invalid', problem.message)]);
  }
  return { request, groups: all, ids };
}

/** A room's share of the party's price: the same shares the price model gives adults and children. */
function roomShare(group: RoomGroup): number {
  let units = 1 + EXTRA_ADULT_SHARE * Math.max(0, group.adults - 2);
  for (const age of group.ages) units += age < FREE_CHILD_AGE ? 0 : age < TEEN_AGE ? CHILD_SHARE : TEEN_SHARE;
  return units;
}

/** Extra cents per room of each kind (`counts[i]` rooms of kind i) adding up to `left`, or null when none do. */
function spread(left: number, counts: readonly number[], from = 0): number[] | null {
  if (from === counts.length) return left === 0 ? [] : null;
  for (let extra = 0; extra * counts[from] <= left; extra++) {
    const rest = spread(left - extra * counts[from], counts, from + 1);
    if (rest !== null) return [extra, ...rest];
  }
  return null;
}

/**
 * One room's price of each kind of room, in cents, such that the asked rooms add up to `totalCents`
 * exactly: split by share, the cents rounding left spread over the kinds so that each room of a kind
 * costs the same (Rapid prices every room of an occupancy alike). simQuote's supplier_d totals are
 * whole cents per room, which makes that possible for any split of the party; a total that is not
 * (the module on another slot) leaves the last cents off.
 */
function perRoomCents(totalCents: number, groups: readonly RoomGroup[]): number[] {
  const shares = groups.map((g) => roomShare(g) * g.count);
  const all = shares.reduce((a, b) => a + b, 0);
  const each = groups.map((g, i) => Math.floor((totalCents * shares[i]) / all / g.count));
  const left = totalCents - groups.reduce((sum, g, i) => sum + each[i] * g.count, 0);
  const extra =
    spread(
      left,
      groups.map((g) => g.count),
    ) ?? groups.map((_g, i) => (i === 0 ? Math.floor(left / groups[0].count) : 0));
  return each.map((cents, i) => cents + extra[i]);
}

const money = (cents: number): string => (cents / 100).toFixed(2);

/** A Charge: in the billable currency, and in the requested one when it is the same (the simulator converts nothing). */
function charge(cents: number, billable: string, requested: string): Record<string, unknown> {
  const amount = { value: money(cents), currency: billable };
  return billable === requested ? { billable_currency: amount, request_currency: amount } : { billable_currency: amount };
}

/** PricingInformation of one room at `cents` for the stay: nightly base rates and taxes, the totals. */
function pricing(cents: number, nights: number, billable: string, requested: string): Record<string, unknown> {
  const propertyFees = Math.round(cents * PROPERTY_FEE_SHARE);
  const inclusive = cents - propertyFees;
  const taxes = Math.round(inclusive * 0.1);
  const base = inclusive - taxes;
  const nightly = Array.from({ length: nights }, (_v, i) => {
    const share = (n: number) => Math.floor(n / nights) + (i === nights - 1 ? n % nights : 0);
    return [
      { type: 'base_rate', value: money(share(base)), currency: billable },
      { type: 'tax_and_service_fee', value: money(share(taxes)), currency: billable },
    ];
  });
  return {
    nightly,
    totals: {
      inclusive: charge(inclusive, billable, requested),
      exclusive: charge(base, billable, requested),
      property_inclusive: charge(cents, billable, requested),
      property_fees: charge(propertyFees, billable, requested),
    },
    fees: { mandatory_fee: charge(propertyFees, billable, requested) },
  };
}

export function rapidAvailabilityRoute(world: World, supplier: SupplierId): SupplierRoute {
  return {
    method: 'GET',
    path: RAPID_AVAILABILITY_PATH,
    latency: true,
    handle({ query }) {
      const { request, groups, ids } = readRequest(query);
      const nights = Math.round((Date.parse(request.checkout) - Date.parse(request.checkin)) / 86_400_000);
      const properties: Record<string, unknown>[] = [];
      for (const id of new Set(ids)) {
        const quote = simQuote(world, supplier, id, request);
        if (!quote.available) continue; // not sold, sold out or too small: left out; none at all is `[]`
        const rates = [
          { id: `${id}-NR`, factor: 1, refundable: false },
          { id: `${id}-RF`, factor: REFUNDABLE_FACTOR, refundable: true },
        ].map(({ id: rateId, factor, refundable }) => {
          const rooms = perRoomCents(Math.round(Math.round(quote.total * 100) * factor), groups);
          return {
            id: rateId,
            status: 'available',
            available_rooms: 1,
            refundable,
            merchant_of_record: 'expedia',
            occupancy_pricing: Object.fromEntries(
              groups.map((g, i) => [g.key, pricing(rooms[i], nights, quote.currency, request.currency)]),
            ),
          };
        });
        properties.push({
          property_id: id,
          status: 'available',
          score: Number(id) % 10_000,
          // Rates "are not ordered from lowest to highest": the dearer first.
          rooms: [{ id: `${id}01`, room_name: 'Entire home', rates: rates.reverse() }],
        });
      }
      return { status: 200, body: properties };
    },
  };
}
