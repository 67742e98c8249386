// The simulated `POST /accommodations/search` by accommodation ids: each available one with the
// price of its cheapest product for the party, priced by simQuote (the slot's ground truth). An id
// not sold, sold out or too small for the party is left out, as Booking.com leaves it out.
import type { SupplierRoute } from '../create-supplier-server.ts';
import type { World } from '../generate-world.ts';
import { requestBase } from '../media.ts';
import { checkQuoteRequest, simQuote, type SimQuoteRequest } from '../price-stay.ts';
import { splitAddress } from '../split-address.ts';
import type { SupplierId } from '../types.ts';
import { openListing } from '../world-lookup.ts';
import { bookingStayUrl } from './booking-demand-content-routes.ts';
import { bodyObject, invalidParameter, isObject, pageOf, readPage, readRows, requestId } from './booking-demand-wire.ts';

export const BOOKING_SEARCH_PATH = '/accommodations/search';
/** `accommodations` has `maxItems: 100`. */
export const BOOKING_SEARCH_MAX_IDS = 100;
/**
 * The share of a stay's total that is charges Booking.com shows outside `book` (a city tax paid at
 * the property): `book` = total / (1 + this), so that a driver reading `book` is caught.
 */
export const BOOKING_EXCLUDED_CHARGES = 0.05;

const PLATFORMS = new Set(['android', 'desktop', 'ios', 'mobile', 'tablet']);
const isCount = (value: unknown, min: number): value is number => Number.isSafeInteger(value) && (value as number) >= min;

/** The stay, party and ids of a search; what Booking.com refuses is a 400 naming the parameter. */
function readSearch(body: unknown): { ids: number[]; request: SimQuoteRequest; input: Record<string, unknown> } {
  const input = bodyObject(body);
  const ids = input.accommodations;
  if (!Array.isArray(ids) || ids.length === 0 || !ids.every((id) => isCount(id, 1)))
    throw invalidParameter('This simulator searches by accommodation ids only: accommodations is required');
  if (ids.length > BOOKING_SEARCH_MAX_IDS)
    throw invalidParameter(`accommodations: at most ${BOOKING_SEARCH_MAX_IDS} ids, got ${ids.length}`);
  const booker = input.booker;
  if (
    !isObject(booker) ||
    typeof booker.country !== 'string' ||
    !/^[a-z]{2}$/.test(booker.country) ||
    !PLATFORMS.has(booker.platform as string)
  )
    throw invalidParameter('booker.country (ISO 3166-1 alpha-2, lower case) and booker.platform are required');
  const guests = input.guests;
  if (!isObject(guests) || !isCount(guests.number_of_adults, 1) || !isCount(guests.number_of_rooms, 1))
    throw invalidParameter('guests.number_of_adults and guests.number_of_rooms are required integers (from 1)');
  const children = guests.children ?? [];
  if (!Array.isArray(children) || !children.every((age) => isCount(age, 0) && age <= 17))
    throw invalidParameter('guests.children is a list of ages from 0 to 17');
  const currency = input.currency ?? 'USD';
  if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) throw invalidParameter('currency must be an ISO 4217 code');
  if (typeof input.checkin !== 'string' || typeof input.checkout !== 'string')
    throw invalidParameter('checkin and checkout are required (yyyy-mm-dd)');
  const request: SimQuoteRequest = {
    checkin: input.checkin,
    checkout: input.checkout,
    adults: guests.number_of_adults,
    children: children.length,
    childrenAges: children as number[],
    rooms: guests.number_of_rooms,
    currency,
  };
  const problem = checkQuoteRequest(request);
  if (problem !== null) throw invalidParameter(`${problem.field}: ${problem.message}`);
  return { ids: [...new Set(ids as number[])], request, input };
}

const round2 = (amount: number): number => Math.round(amount * 100) / 100;

export function bookingSearchRoute(world: World, supplier: SupplierId): SupplierRoute {
  return {
    method: 'POST',
    path: BOOKING_SEARCH_PATH,
    latency: true,
    handle({ body, headers }) {
      const { ids, request, input } = readSearch(body);
      const rows = readRows(input, 10, 100, 100);
      const base = requestBase(headers);
      const data: Record<string, unknown>[] = [];
      for (const id of ids) {
        const quote = simQuote(world, supplier, String(id), request);
        if (!quote.available) continue;
        const listing = openListing(world, supplier, String(id))!;
        const country = splitAddress(listing.address).countryCode.toLowerCase();
        data.push({
          id,
          currency: quote.currency,
          price: { book: round2(quote.total / (1 + BOOKING_EXCLUDED_CHARGES)), total: quote.total },
          url: bookingStayUrl(base, listing, country),
        });
      }
      const list = `search:${JSON.stringify({ ids, request })}`;
      const { page, next } = pageOf(data, readPage(input, list, world.day), rows, list, world.day);
      return { status: 200, body: { request_id: requestId(), data: page, next_page: next } };
    },
  };
}
