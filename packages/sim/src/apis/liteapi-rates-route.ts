// The simulated LiteAPI rates call: `POST /hotels/rates` by hotel ids (search.json). Priced by
// simQuote, the ground truth of the slot's prices: each available hotel has a room-only offer whose
// `offerRetailRate` is simQuote's total to the cent (its rates, one per room, add up to it) and a
// dearer one with breakfast; a hotel with nothing for the stay is left out, and an answer with no
// hotel at all is an HTTP 204 with no body, as the live API answers.
import type { SupplierRoute } from '../create-supplier-server.ts';
import type { World } from '../generate-world.ts';
import { COMMISSION_TENTHS_PERCENT } from '../bookings.ts';
import {
  CHILD_SHARE,
  checkQuoteRequest,
  EXTRA_ADULT_SHARE,
  FREE_CHILD_AGE,
  simQuote,
  TEEN_AGE,
  TEEN_SHARE,
  type SimQuoteRequest,
} from '../price-stay.ts';
import type { SupplierId } from '../types.ts';
import { LITEAPI_DEFAULT_LIMIT, LITEAPI_MAX_LIMIT } from './liteapi-hotels-route.ts';
import { LiteapiHttpError } from './liteapi-wire.ts';

export const LITEAPI_RATES_PATH = '/hotels/rates';
/** Bed and breakfast costs this much more than room only: the dearer offer a traveller could also take. */
const BREAKFAST_FACTOR = 1.15;

/** One room of the request: its adults and its children's ages. */
interface Room {
  adults: number;
  ages: number[];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown, min: number): value is number => Number.isSafeInteger(value) && (value as number) >= min;

function required(body: Record<string, unknown>, field: string): unknown {
  if (body[field] === undefined || body[field] === null || body[field] === '') throw new LiteapiHttpError(`${field} is required`);
  return body[field];
}

function readCount(body: Record<string, unknown>, field: string, fallback: number, min: number, max: number): number {
  const value = body[field];
  if (value === undefined) return fallback;
  if (!isCount(value, min) || value > max) throw new LiteapiHttpError(`${field} must be an integer from ${min} to ${max}`);
  return value;
}

/** The stay, the rooms and the hotel ids (after offset/limit) of a rates request. */
function readRequest(body: unknown): { request: SimQuoteRequest; rooms: Room[]; ids: string[] } {
  if (!isObject(body)) throw new LiteapiHttpError('the body must be a JSON object');
  const occupancies = required(body, 'occupancies');
  required(body, 'currency');
  required(body, 'guestNationality');
  const checkin = required(body, 'checkin');
  const checkout = required(body, 'checkout');
  const hotelIds = body.hotelIds;
  if (!Array.isArray(hotelIds) || hotelIds.length === 0 || !hotelIds.every((id) => typeof id === 'string')) {
    throw new LiteapiHttpError('hotelIds is required: this simulator searches by hotel ids only');
  }
  if (!Array.isArray(occupancies) || occupancies.length === 0) throw new LiteapiHttpError('occupancies must list at least one room');
  const rooms = occupancies.map((occupancy, i): Room => {
    if (!isObject(occupancy) || !isCount(occupancy.adults, 1))
      throw new LiteapiHttpError(`occupancies[${i}].adults must be an integer >= 1`);
    const children = occupancy.children ?? [];
    if (!Array.isArray(children) || !children.every((age) => isCount(age, 0))) {
      throw new LiteapiHttpError(`occupancies[${i}].children must list the children's ages`);
    }
    return { adults: occupancy.adults, ages: children as number[] };
  });
  if (typeof checkin !== 'string' || typeof checkout !== 'string') throw new LiteapiHttpError('checkin and checkout are YYYY-MM-DD dates');
  const request: SimQuoteRequest = {
    checkin,
    checkout,
    adults: rooms.reduce((n, room) => n + room.adults, 0),
    children: rooms.reduce((n, room) => n + room.ages.length, 0),
    childrenAges: rooms.flatMap((room) => room.ages),
    rooms: rooms.length,
    currency: 'USD',
  };
  const problem = checkQuoteRequest(request);
  if (problem) throw new LiteapiHttpError(`${problem.field}: ${problem.message}`);
  const offset = readCount(body, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
  const limit = readCount(body, 'limit', LITEAPI_DEFAULT_LIMIT, 1, LITEAPI_MAX_LIMIT);
  // "This paginates the passed hotels": the call prices `limit` of them from `offset`.
  return { request, rooms, ids: [...new Set(hotelIds as string[])].slice(offset, offset + limit) };
}

/** A room's share of the party's price: the same shares the price model gives adults and children. */
function roomShare(room: Room): number {
  let units = 1 + EXTRA_ADULT_SHARE * Math.max(0, room.adults - 2);
  for (const age of room.ages) units += age < FREE_CHILD_AGE ? 0 : age < TEEN_AGE ? CHILD_SHARE : TEEN_SHARE;
  return units;
}

/** The stay's total in cents split over the rooms by their share, the last taking what rounding left. */
function split(totalCents: number, rooms: readonly Room[]): number[] {
  const shares = rooms.map(roomShare);
  const all = shares.reduce((a, b) => a + b, 0);
  const parts = shares.map((share) => Math.floor((totalCents * share) / all));
  parts[parts.length - 1] += totalCents - parts.reduce((a, b) => a + b, 0);
  return parts;
}

const money = (cents: number, currency: string) => [{ amount: cents / 100, currency }];

/** One offer (a `roomTypes[]` entry): a rate per room, and the offer's total. */
function renderOffer(
  hotelId: string,
  board: { code: string; name: string },
  cents: number,
  rooms: readonly Room[],
  currency: string,
  commissionTenths: number,
) {
  const parts = split(cents, rooms);
  const offerId = `sim-${hotelId}-${board.code}`;
  return {
    roomTypeId: `${offerId}-DBL`,
    name: 'Double Room',
    offerId,
    supplier: 'nuitee',
    supplierId: 2,
    rates: rooms.map((room, i) => ({
      rateId: `${offerId}-${i + 1}`,
      occupancyNumber: i + 1,
      name: 'Double Room',
      maxOccupancy: room.adults + room.ages.length,
      adultCount: room.adults,
      childCount: room.ages.length,
      childrenAges: room.ages,
      boardType: board.code,
      boardName: board.name,
      remarks: '',
      priceType: 'commission',
      commission: money(Math.round((parts[i] * commissionTenths) / 1_000), currency),
      retailRate: {
        total: money(parts[i], currency),
        initialPrice: money(parts[i], currency),
        // VAT, included in the total (the simulated world has no fee paid at the property).
        taxesAndFees: [{ included: true, amount: Math.round(parts[i] / 11) / 100, currency }],
      },
      cancellationPolicies: { cancelPolicyInfos: [], hotelRemarks: [], refundableTag: 'NRFN' },
      paymentTypes: ['NUITEE_PAY'],
    })),
    offerRetailRate: money(cents, currency),
    offerInitialPrice: money(cents, currency),
    priceType: 'commission',
    rateType: 'standard',
  };
}

export function liteapiRatesRoute(world: World, supplier: SupplierId): SupplierRoute {
  return {
    method: 'POST',
    path: LITEAPI_RATES_PATH,
    latency: true,
    handle({ body }) {
      const { request, rooms, ids } = readRequest(body);
      const data: Record<string, unknown>[] = [];
      for (const hotelId of ids) {
        const quote = simQuote(world, supplier, hotelId, request);
        if (!quote.available) continue; // unknown, sold out or too small: left out
        const cents = Math.round(quote.total * 100);
        const tenths = COMMISSION_TENTHS_PERCENT[supplier];
        data.push({
          hotelId,
          roomTypes: [
            renderOffer(hotelId, { code: 'RO', name: 'Room Only' }, cents, rooms, quote.currency, tenths),
            renderOffer(
              hotelId,
              { code: 'BB', name: 'Bed and Breakfast' },
              Math.round(cents * BREAKFAST_FACTOR),
              rooms,
              quote.currency,
              tenths,
            ),
          ],
        });
      }
      // Nothing available: 204 and no body (the spec's error body, code 2001, cannot ride on a 204).
      if (data.length === 0) return { status: 204, body: null, text: '' };
      return { status: 200, body: { data, guestLevel: 0, sandbox: false } };
    },
  };
}
