// The simulated Booking API availability call: `POST /hotel-api/1.0/hotels` (availabilityRQ ->
// availabilityRS), by hotel codes. Priced by simQuote, the ground truth of the slot's prices: the
// cheapest rate of each kind of room of the party, summed, is simQuote's total to the cent.
import type { SupplierRoute } from '../create-supplier-server.ts';
import type { World } from '../generate-world.ts';
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
import { openListing } from '../world-lookup.ts';
import { hotelbedsCategory } from './hotelbeds-hotels-route.ts';
import { auditData, HotelbedsHttpError } from './hotelbeds-wire.ts';

export const HOTELBEDS_AVAILABILITY_PATH = '/hotel-api/1.0/hotels';
/** `hotels.hotel` has `maxItems: 2000`. */
export const HOTELBEDS_MAX_HOTELS = 2_000;
/** Bed and breakfast costs this much more than room only: the dearer rate a traveller could also take. */
const BREAKFAST_FACTOR = 1.15;

/** Rooms of the request alike in adults and children's ages, and how many. */
interface RoomGroup {
  adults: number;
  ages: number[];
  count: number;
}

const invalid = (message: string): HotelbedsHttpError => new HotelbedsHttpError(400, 'INVALID_DATA', `Invalid data. ${message}`);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown, min: number): value is number => Number.isSafeInteger(value) && (value as number) >= min;

/** The stay, the party (per room, as the spec reads an occupancy) and the hotel codes of an availabilityRQ. */
function readRequest(body: unknown): { request: SimQuoteRequest; groups: RoomGroup[]; codes: number[] } {
  if (!isObject(body))
    throw new HotelbedsHttpError(
      400,
      'INVALID_REQUEST',
      'The request is not compliant with the specified version of the API. The body must be a JSON object',
    );
  const stay = body.stay;
  if (!isObject(stay) || typeof stay.checkIn !== 'string' || typeof stay.checkOut !== 'string') {
    throw invalid('Error at property stay: checkIn and checkOut are required (YYYY-MM-DD)');
  }
  const hotels = body.hotels;
  if (!isObject(hotels) || !Array.isArray(hotels.hotel))
    throw invalid('This simulator searches by hotel codes only: hotels.hotel is required');
  const codes = hotels.hotel;
  if (!codes.every((code) => isCount(code, 0))) throw invalid('Error at property hotels.hotel: hotel codes are integers');
  if (codes.length === 0 || codes.length > HOTELBEDS_MAX_HOTELS) {
    throw invalid(`Error at property hotels.hotel: from 1 to ${HOTELBEDS_MAX_HOTELS} hotel codes, got ${codes.length}`);
  }
  if (!Array.isArray(body.occupancies) || body.occupancies.length === 0)
    throw invalid('Error at property occupancies: at least one occupancy');
  const groups = new Map<string, RoomGroup>();
  for (const [i, occupancy] of body.occupancies.entries()) {
    const where = `occupancies[${i}]`;
    if (!isObject(occupancy) || !isCount(occupancy.rooms, 1) || !isCount(occupancy.adults, 1) || !isCount(occupancy.children, 0)) {
      throw invalid(`Error at property ${where}: rooms (>= 1), adults (>= 1) and children (>= 0) are required integers`);
    }
    const paxes = occupancy.paxes === undefined ? [] : occupancy.paxes;
    if (!Array.isArray(paxes)) throw invalid(`Error at property ${where}.paxes: a list`);
    const ages = paxes
      .filter((pax) => isObject(pax) && pax.type === 'CH')
      .map((pax) => (isCount((pax as { age?: unknown }).age, 0) ? (pax as { age: number }).age : NaN));
    if (ages.some(Number.isNaN)) throw invalid(`Error at property ${where}.paxes: a child's age is required`);
    if (ages.length !== occupancy.children)
      throw invalid(`Error at property ${where}: ${occupancy.children} children but ${ages.length} child ages`);
    ages.sort((a, b) => a - b);
    const key = `${occupancy.adults}|${ages.join(',')}`;
    const group = groups.get(key) ?? { adults: occupancy.adults, ages, count: 0 };
    group.count += occupancy.rooms;
    groups.set(key, group);
  }
  const all = [...groups.values()];
  const request: SimQuoteRequest = {
    checkin: stay.checkIn,
    checkout: stay.checkOut,
    adults: all.reduce((n, g) => n + g.adults * g.count, 0),
    children: all.reduce((n, g) => n + g.ages.length * g.count, 0),
    childrenAges: all.flatMap((g) => Array.from({ length: g.count }, () => g.ages).flat()),
    rooms: all.reduce((n, g) => n + g.count, 0),
    currency: 'EUR',
  };
  const problem = checkQuoteRequest(request);
  if (problem)
    throw invalid(
      `Error at property ${problem.field === 'checkin' || problem.field === 'checkout' ? 'stay' : 'occupancies'}: ${problem.message}`,
    );
  return { request, groups: all, codes };
}

/** A room's share of the party's price: the same shares the price model gives adults and children. */
function roomShare(group: RoomGroup): number {
  let units = 1 + EXTRA_ADULT_SHARE * Math.max(0, group.adults - 2);
  for (const age of group.ages) units += age < FREE_CHILD_AGE ? 0 : age < TEEN_AGE ? CHILD_SHARE : TEEN_SHARE;
  return units * group.count;
}

/** The stay's total in cents split over the kinds of room by their share, the last taking what rounding left. */
function split(totalCents: number, groups: readonly RoomGroup[]): number[] {
  const shares = groups.map(roomShare);
  const all = shares.reduce((a, b) => a + b, 0);
  const parts = shares.map((share) => Math.floor((totalCents * share) / all));
  parts[parts.length - 1] += totalCents - parts.reduce((a, b) => a + b, 0);
  return parts;
}

const money = (cents: number): string => (cents / 100).toFixed(2);

export function hotelbedsAvailabilityRoute(world: World, supplier: SupplierId): SupplierRoute {
  return {
    method: 'POST',
    path: HOTELBEDS_AVAILABILITY_PATH,
    latency: true,
    handle({ body }) {
      const { request, groups, codes } = readRequest(body);
      const hotels: Record<string, unknown>[] = [];
      for (const code of new Set(codes)) {
        const quote = simQuote(world, supplier, String(code), request);
        if (!quote.available) continue; // not sold, sold out or too small: left out, as Hotelbeds does
        const listing = openListing(world, supplier, String(code))!;
        const parts = split(Math.round(quote.total * 100), groups);
        const rates = groups.flatMap((group, i) => {
          const occupancy = {
            rooms: group.count,
            adults: group.adults,
            children: group.ages.length,
            ...(group.ages.length > 0 ? { childrenAges: group.ages.join(',') } : {}),
          };
          const key = (board: string) =>
            `${request.checkin.replaceAll('-', '')}|${request.checkout.replaceAll('-', '')}|W|1|${code}|DBL.ST|SIM-${board}|${board}||${group.count}~${group.adults}~${group.ages.length}||N@sim`;
          return [
            { board: 'RO', name: 'ROOM ONLY', cents: parts[i] },
            { board: 'BB', name: 'BED AND BREAKFAST', cents: Math.round(parts[i] * BREAKFAST_FACTOR) },
          ].map(({ board, name, cents }) => ({
            rateKey: key(board),
            rateClass: 'NOR',
            rateType: 'BOOKABLE',
            net: money(cents),
            allotment: 5,
            packaging: false,
            boardCode: board,
            boardName: name,
            taxes: { allIncluded: true },
            ...occupancy,
          }));
        });
        const category = hotelbedsCategory(listing.rating.hotelStars);
        const dearest = parts.reduce((sum, cents) => sum + Math.round(cents * BREAKFAST_FACTOR), 0);
        hotels.push({
          code,
          name: listing.name,
          ...(category ?? {}),
          latitude: String(listing.lat),
          longitude: String(listing.lng),
          currency: quote.currency,
          minRate: quote.total.toFixed(2),
          maxRate: money(dearest),
          rooms: [{ code: 'DBL.ST', name: 'DOUBLE STANDARD', rates }],
        });
      }
      const answer =
        hotels.length === 0 ? { total: 0 } : { hotels, checkIn: request.checkin, checkOut: request.checkout, total: hotels.length };
      return { status: 200, body: { auditData: auditData(), hotels: answer } };
    },
  };
}
