// What the simulated suppliers make of the clicks their booking pages receive: a deterministic
// share becomes a booking, and each booking lives through a timeline (Pending, then Approved after
// the stay, or Canceled), each change bumping its last-update time. Everything is a function of
// the click id (hashed), the listing, the landing time and the world, so the same clicks always
// give the same bookings; what a report shows is a function of time (see `stateAt`).
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { SUPPLIER_IDS, type SupplierId } from './types.ts';
import type { SimListing, World } from './generate-world.ts';
import { parseSimDate, priceNightsUsdCents, SUPPLIER_B_EUR_PER_USD, supplierBNightlyEur } from './price-stay.ts';
import { hashToUnit } from './random.ts';
import { anyListing } from './world-lookup.ts';

/** Share of landings (clicks that reached a booking page) that become a booking, sold-out dates aside. */
export const CONVERSION_RATE = 0.12;
/** Share of bookings canceled by the guest before the stay. */
export const CANCEL_RATE = 0.14;
/** Share of the other bookings whose guest never came (canceled a few days after the stay). */
export const NO_SHOW_RATE = 0.03;
/** Commission of each supplier, in tenths of a percent of the stay's total. */
export const COMMISSION_TENTHS_PERCENT: Readonly<Record<SupplierId, number>> = {
  supplier_a: 40,
  supplier_b: 50,
  supplier_c: 35,
  supplier_d: 60,
};
/** supplier_b states its exchange rate with 6 decimals; the gateway converts with the rate the report gives. */
export const SUPPLIER_B_RATE_MICROS = Math.round(SUPPLIER_B_EUR_PER_USD * 1_000_000);

/**
 * Simulator only: a booking page accepts `simClickTime` (ISO 8601, not in the future) as the time
 * of the landing, so that the gateway's demo seeding can replay a year of clicks in seconds. A
 * real supplier has no such thing; without it a landing happens now.
 */
export const SIM_CLICK_TIME_PARAM = 'simClickTime';

/** Travellers' countries (ISO 3166 alpha-2) and weights; 30% of guests come from the property's own country. */
const GUEST_COUNTRIES: readonly (readonly [string, number])[] = [
  ['US', 18],
  ['GB', 12],
  ['DE', 12],
  ['FR', 9],
  ['ES', 6],
  ['IT', 6],
  ['NL', 5],
  ['CA', 5],
  ['AU', 4],
  ['JP', 4],
  ['CN', 4],
  ['BR', 3],
  ['CH', 3],
  ['SE', 3],
  ['BE', 2],
  ['IN', 2],
  ['KR', 2],
];
const GUEST_TOTAL = GUEST_COUNTRIES.reduce((a, [, w]) => a + w, 0);

const DAY_MS = 86_400_000;

/** A click that reached a supplier's booking page. */
export interface Landing {
  supplier: SupplierId;
  clickId: string;
  supplierStayId: string;
  affiliate: string | null;
  /** The link's dates, when it carried valid ones (YYYY-MM-DD). */
  checkin: string | null;
  checkout: string | null;
  /** Milliseconds since the epoch, whole seconds. */
  at: number;
}

/** `canceled`: by the guest before the stay; `no_show`: the guest never came (after the stay). */
export type SimBookingStatus = 'pending' | 'approved' | 'canceled' | 'no_show';

export interface SimBookingEvent {
  /** Milliseconds, whole seconds. */
  at: number;
  status: SimBookingStatus;
}

export interface SimBooking {
  supplier: SupplierId;
  bookingId: string;
  clickId: string;
  affiliate: string | null;
  supplierStayId: string;
  propertyName: string;
  city: string;
  countryCode: string;
  bookedAt: number;
  checkin: string;
  checkout: string;
  nights: number;
  rooms: number;
  guestCountry: string;
  /** The stay's total in US cents (the supplier's margin included). */
  totalUsdCents: number;
  /** supplier_b: the total in EUR cents, the sum of its nightly EUR amounts. */
  totalEurCents: number;
  /** Ascending; the first is `pending` at `bookedAt`. */
  events: SimBookingEvent[];
}

const unit = (...parts: (string | number)[]): number => hashToUnit('booking', ...parts);
const seconds = (ms: number): number => Math.floor(ms / 1_000) * 1_000;
const dateOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Round half up of a / b for non-negative integers. */
export function roundDiv(a: number, b: number): number {
  return Math.floor((2 * a + b) / (2 * b));
}

/** The supplier's own booking reference, from a digest of the click id: ids in each supplier's style. */
function bookingIdOf(supplier: SupplierId, clickId: string): string {
  const hex = createHash('sha1').update(`${supplier}:${clickId}`).digest('hex');
  switch (supplier) {
    case 'supplier_a':
      return `RES-${hex.slice(0, 12).toUpperCase()}`;
    case 'supplier_b':
      return `BK${(BigInt(`0x${hex.slice(0, 14)}`) % 100_000_000_000_000n).toString().padStart(14, '0')}`;
    case 'supplier_c':
      return (BigInt(`0x${hex.slice(0, 12)}`) % 1_000_000_000_000n).toString().padStart(12, '0');
    case 'supplier_d':
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }
}

function guestCountryOf(clickId: string, propertyCountry: string): string {
  if (unit('local', clickId) < 0.3) return propertyCountry;
  let x = unit('country', clickId) * GUEST_TOTAL;
  for (const [code, weight] of GUEST_COUNTRIES) {
    if ((x -= weight) < 0) return code;
  }
  return 'US';
}

/**
 * The booking a landing turns into, or null: most landings do not book (CONVERSION_RATE), and a
 * sold-out date or a stay already begun books nothing. Undated landings get dates drawn from the
 * click id: check-in 1-180 days after booking (mostly soon), 1-7 nights.
 */
export function bookingOf(world: World, listing: SimListing, landing: Landing): SimBooking | null {
  const { clickId, supplier } = landing;
  if (unit('convert', supplier, clickId) >= CONVERSION_RATE) return null;
  // Booked minutes to two days after the click, most within the hour.
  const bookedAt = seconds(landing.at + 60_000 + unit('delay', clickId) ** 3 * 2 * DAY_MS);
  const bookedDay = parseSimDate(dateOf(bookedAt))!;
  let checkin = landing.checkin;
  let checkout = landing.checkout;
  if (checkin === null || checkout === null || parseSimDate(checkin) === null || parseSimDate(checkout) === null) {
    const lead = 1 + Math.floor(unit('lead', clickId) ** 2 * 180);
    const nights = 1 + Math.floor(unit('nights', clickId) * 7);
    checkin = dateOf(bookedDay + lead * DAY_MS);
    checkout = dateOf(bookedDay + (lead + nights) * DAY_MS);
  }
  const inMs = parseSimDate(checkin)!;
  const outMs = parseSimDate(checkout)!;
  if (inMs <= bookedDay || outMs <= inMs) return null; // too late to book that stay
  const r = unit('rooms', clickId);
  const rooms = r < 0.88 ? 1 : r < 0.98 ? 2 : 3;
  const nightsUsd = priceNightsUsdCents(world, supplier, listing.supplierStayId, {
    checkin,
    checkout,
    adults: 2 * rooms,
    children: 0,
    childrenAges: null,
    rooms,
    currency: 'USD',
  });
  if (nightsUsd === null) return null; // sold out (or too small): no booking
  const property = world.properties[listing.propertyId];

  const events: SimBookingEvent[] = [{ at: bookedAt, status: 'pending' }];
  if (unit('cancel', clickId) < CANCEL_RATE) {
    events.push({ at: seconds(bookedAt + 1_000 + unit('cancel-at', clickId) * (inMs - bookedAt - 1_000)), status: 'canceled' });
  } else if (unit('no-show', clickId) < NO_SHOW_RATE) {
    events.push({ at: seconds(outMs + (1 + unit('no-show-at', clickId) * 2) * DAY_MS), status: 'no_show' });
  } else {
    // Approved once the stay is over and the supplier has been paid: 2 to 30 days after check-out.
    events.push({ at: seconds(outMs + (2 + unit('approve-at', clickId) * 28) * DAY_MS), status: 'approved' });
  }
  return {
    supplier,
    bookingId: bookingIdOf(supplier, clickId),
    clickId,
    affiliate: landing.affiliate,
    supplierStayId: listing.supplierStayId,
    propertyName: listing.name,
    city: property.city,
    countryCode: property.countryCode,
    bookedAt,
    checkin,
    checkout,
    nights: Math.round((outMs - inMs) / DAY_MS),
    rooms,
    guestCountry: guestCountryOf(clickId, property.countryCode),
    totalUsdCents: nightsUsd.reduce((a, b) => a + b, 0),
    totalEurCents: supplierBNightlyEur(nightsUsd).reduce((a, b) => a + Math.round(b * 100), 0),
    events,
  };
}

/** A booking as it stood just before `t` (the latest event before it), or null when not yet booked. */
export function stateAt(booking: SimBooking, t: number): SimBookingEvent | null {
  let state: SimBookingEvent | null = null;
  for (const event of booking.events) {
    if (event.at < t) state = event;
    else break;
  }
  return state;
}

/**
 * The commission in US cents the gateway should arrive at from each supplier's report of a booking
 * in `status`, converting as the report says (supplier_b: EUR at its stated rate; supplier_d:
 * total x rate): the ground truth of tests. Canceled bookings earn nothing.
 */
export function expectedCommissionUsdCents(booking: SimBooking, status: SimBookingStatus): number {
  if (status === 'canceled' || status === 'no_show') return 0;
  const tenths = COMMISSION_TENTHS_PERCENT[booking.supplier];
  if (booking.supplier === 'supplier_b')
    return roundDiv(roundDiv(booking.totalEurCents * tenths, 1_000) * 1_000_000, SUPPLIER_B_RATE_MICROS);
  return roundDiv(booking.totalUsdCents * tenths, 1_000);
}

/** One line of a supplier's report: a booking in the state it had at the end of the asked period. */
export interface ReportEntry {
  booking: SimBooking;
  state: SimBookingEvent;
}

export interface BookingLedger {
  /** Records a landing (the first landing of a click id counts; a reload does not book twice). */
  land(landing: Landing): void;
  /** Every booking of a supplier, in landing order (ground truth for tests). */
  bookings(supplier: SupplierId): readonly SimBooking[];
  /**
   * The report of changes in [from, to): each booking as it stood at the end of the period (or
   * now, when the period is not over), when its last change in that state falls in the period;
   * ordered by that change's time, then booking id. A closed period's report never changes, unless
   * a late back office publishes a change of it afterwards (delayReports).
   */
  report(supplier: SupplierId, from: number, to: number): ReportEntry[];
  /**
   * A late back office: from now on, the supplier's reports show each change of this booking only
   * `lagMs` after it happened (as a real supplier does that books through a partner and enters the
   * booking days later), under the change's own time. The booking's place in a period does not move,
   * so a pull that reads only recent periods never sees it (issue 13, defect 10).
   */
  delayReports(supplier: SupplierId, bookingId: string, lagMs: number): void;
  /** The simulator's clock (milliseconds). */
  now(): number;
}

export interface BookingLedgerOptions {
  world: World;
  now?: () => number;
  /** A folder where landings are kept (`landings.jsonl`), so bookings outlive a restart; absent: memory only. */
  dataDir?: string | null;
}

export function createBookingLedger({ world, now = Date.now, dataDir = null }: BookingLedgerOptions): BookingLedger {
  const seen = Object.fromEntries(SUPPLIER_IDS.map((s) => [s, new Set<string>()])) as Record<SupplierId, Set<string>>;
  const booked = Object.fromEntries(SUPPLIER_IDS.map((s) => [s, [] as SimBooking[]])) as Record<SupplierId, SimBooking[]>;
  const file = dataDir === null ? null : path.join(dataDir, 'landings.jsonl');
  /** Report lag per `${supplier}/${bookingId}` (delayReports). */
  const lags = new Map<string, number>();

  function record(landing: Landing): boolean {
    if (seen[landing.supplier].has(landing.clickId)) return false;
    const listing = anyListing(world, landing.supplier, landing.supplierStayId);
    if (listing === undefined) return false; // a landing of another world (seed changed): ignored
    seen[landing.supplier].add(landing.clickId);
    const booking = bookingOf(world, listing, landing);
    if (booking !== null) booked[landing.supplier].push(booking);
    return true;
  }

  if (file !== null) {
    mkdirSync(dataDir!, { recursive: true });
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as { code?: string }).code !== 'ENOENT') throw error;
    }
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        record(JSON.parse(line) as Landing);
      } catch {
        // a line cut short by a crash: the click is lost, as it would be at a real supplier
      }
    }
  }

  return {
    land(landing) {
      if (record(landing) && file !== null) appendFileSync(file, `${JSON.stringify(landing)}\n`);
    },
    bookings(supplier) {
      return booked[supplier];
    },
    report(supplier, from, to) {
      const current = now();
      const asOf = Math.min(to, current);
      const entries: ReportEntry[] = [];
      for (const booking of booked[supplier]) {
        const lag = lags.get(`${supplier}/${booking.bookingId}`);
        // A lagging booking shows the latest change published by now: made at least `lag` ago.
        const state = stateAt(booking, lag === undefined ? asOf : Math.min(asOf, current - lag + 1));
        if (state !== null && state.at >= from && state.at < to) entries.push({ booking, state });
      }
      return entries.sort(
        (x, y) =>
          x.state.at - y.state.at || (x.booking.bookingId < y.booking.bookingId ? -1 : x.booking.bookingId > y.booking.bookingId ? 1 : 0),
      );
    },
    delayReports(supplier, bookingId, lagMs) {
      if (!booked[supplier].some((b) => b.bookingId === bookingId)) throw new Error(`${supplier} has no booking ${bookingId}`);
      lags.set(`${supplier}/${bookingId}`, lagMs);
    },
    now,
  };
}
