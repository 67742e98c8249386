// What staygate asks of Hotelbeds' availability call (`POST /hotel-api/1.0/hotels`) for a party,
// and what it reads back: the whole stay's price of one hotel, the cheapest for the party.
import { readDecimalString } from './commission-fields.ts';
import type { FeedRecord } from './feed-record.ts';
import type { QuoteRequest } from './supplier.ts';

/**
 * The age sent for a child whose age the caller does not know: Hotelbeds requires one per child
 * (ApiPaxAvail), and prices children by age. 10 is a child's price everywhere (under 2 is often
 * free, 12 and over often a teen or adult), the simulator's default for supplier_b too.
 */
export const HOTELBEDS_DEFAULT_CHILD_AGE = 10;

/** One availability occupancy (ApiOccupancy): always one room, so `adults` means the same per room or in all. */
export interface HotelbedsOccupancy {
  rooms: 1;
  adults: number;
  children: number;
  paxes?: { type: 'CH'; age: number }[];
}

/** A room of the party: how many adults, and the ages of its children (ascending). */
interface RoomParty {
  adults: number;
  ages: number[];
}

/**
 * The party in rooms: adults as evenly as the rooms allow (the first rooms take one more), each
 * child, eldest first, in the room with the fewest guests. An even split is what a family books and
 * what prices the same as the party in one piece (no room with a third adult while another has one).
 */
function roomsOf(request: QuoteRequest): RoomParty[] {
  const ages = request.childrenAges ?? new Array<number>(request.children).fill(HOTELBEDS_DEFAULT_CHILD_AGE);
  const rooms: RoomParty[] = Array.from({ length: request.rooms }, (_v, i) => ({
    adults: Math.floor(request.adults / request.rooms) + (i < request.adults % request.rooms ? 1 : 0),
    ages: [],
  }));
  for (const age of [...ages].sort((a, b) => b - a)) {
    const emptiest = rooms.reduce((best, room) => (room.adults + room.ages.length < best.adults + best.ages.length ? room : best));
    emptiest.ages.push(age);
  }
  for (const room of rooms) room.ages.sort((a, b) => a - b);
  return rooms;
}

/**
 * One occupancy per room. The spec reads `adults` as per room ("two rooms for two adults each":
 * rooms 2, adults 2) and `paxes` as "the paxes for the room"; rooms of one each say the party
 * whichever way the API reads them.
 */
export function hotelbedsOccupancies(request: QuoteRequest): HotelbedsOccupancy[] {
  return roomsOf(request).map(({ adults, ages }) =>
    ages.length === 0
      ? { rooms: 1, adults, children: 0 }
      : { rooms: 1, adults, children: ages.length, paxes: ages.map((age) => ({ type: 'CH' as const, age })) },
  );
}

/** Rooms of the party that are alike (adults, children's ages), with how many there are: what a rate prices. */
export interface RoomGroup {
  adults: number;
  ages: number[];
  count: number;
}

export function hotelbedsRoomGroups(request: QuoteRequest): RoomGroup[] {
  const groups = new Map<string, RoomGroup>();
  for (const room of roomsOf(request)) {
    const key = `${room.adults}|${room.ages.join(',')}`;
    const group = groups.get(key);
    if (group) group.count++;
    else groups.set(key, { ...room, count: 1 });
  }
  return [...groups.values()];
}

/**
 * What the traveller pays for one rate, in cents of `currency`, or null when it cannot be said in
 * that currency. The price is `sellingRate` when the rate has one, else `net` (docs/decisions.md 111):
 * Hotelbeds' pricing-models guide makes `sellingRate` the final price wherever it is given (the
 * commissionable model, and net rates whose hotel imposes the selling price, `hotelMandatory`), and
 * leaves a plain net rate to the seller's own mark-up, which staygate cannot know: net is then the
 * lowest price the operator's site can show. Taxes marked `included: false` are paid at the hotel
 * (city taxes) and are part of what the stay costs: added, in the client currency when the tax gives
 * it (`clientAmount`), else in its own when that is the rate's.
 */
export function rateTotalCents(rate: FeedRecord, currency: string): number | null {
  let cents = readDecimalString(rate, rate.has('sellingRate') ? 'sellingRate' : 'net', 2);
  if (!rate.has('taxes')) return cents;
  const taxes = rate.record('taxes');
  if (!taxes.has('taxes')) return cents;
  for (const tax of taxes.records('taxes')) {
    if (tax.has('included') && tax.boolean('included')) continue;
    if (tax.has('clientAmount') && tax.nullableString('clientCurrency') === currency) cents += readDecimalString(tax, 'clientAmount', 2);
    else if (tax.has('amount') && tax.nullableString('currency') === currency) cents += readDecimalString(tax, 'amount', 2);
    else return null;
  }
  return cents;
}

const agesOf = (rate: FeedRecord): string | null => {
  const raw = rate.nullableString('childrenAges');
  return raw === null
    ? null
    : raw
        .split(',')
        .map((age) => Number(age.trim()))
        .sort((a, b) => a - b)
        .join(',');
};

/**
 * The whole stay's price of one hotel (ApiHotel of the availability answer) for the party, in cents
 * of the hotel's `currency`: for each kind of room of the party the cheapest rate for it (a rate
 * says the rooms, adults and children it prices; a rate for one room counts once per such room),
 * summed. Null when a kind of room has no rate: the hotel cannot take the party.
 */
export function hotelTotalCents(hotel: FeedRecord, groups: readonly RoomGroup[], currency: string): number | null {
  const cheapest = new Array<number | null>(groups.length).fill(null);
  for (const room of hotel.has('rooms') ? hotel.records('rooms') : []) {
    for (const rate of room.has('rates') ? room.records('rates') : []) {
      const rooms = rate.has('rooms') ? rate.integer('rooms') : 1;
      const adults = rate.integer('adults');
      const children = rate.has('children') ? rate.integer('children') : 0;
      const ages = agesOf(rate);
      groups.forEach((group, i) => {
        if (adults !== group.adults || children !== group.ages.length) return;
        if (ages !== null && children > 0 && ages !== group.ages.join(',')) return;
        if (rooms !== 1 && rooms !== group.count) return;
        const each = rateTotalCents(rate, currency);
        if (each === null) return;
        const total = rooms === group.count ? each : each * group.count;
        if (cheapest[i] === null || total < cheapest[i]) cheapest[i] = total;
      });
    }
  }
  let sum = 0;
  for (const cents of cheapest) {
    if (cents === null) return null;
    sum += cents;
  }
  return sum;
}
