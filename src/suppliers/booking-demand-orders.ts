// Booking.com's orders as staygate's commission report: `POST /orders/details` lists the orders
// changed in a window of at most 7 days (with the commission, status and booker), and
// `POST /orders/details/accommodations` adds what the list leaves out (the stay, its dates, rooms,
// name and the `label` our click id rode in). Decision 153.
import { readCents, readCountry, readDate, readIsoTime } from './commission-fields.ts';
import type { FeedRecord } from './feed-record.ts';
import type { BookingStatus, CommissionRecord } from './supplier.ts';

/** `updated.from`..`updated.to` spans at most 7 days ("Maximum time range is 7 days"). */
export const BOOKING_ORDERS_MAX_WINDOW_MS = 7 * 86_400_000;
/** `maximum_results` is 10 to 100; `orders` of /orders/details/accommodations at most 100. */
export const BOOKING_ORDERS_MAX_PAGE = 100;
export const BOOKING_ORDERS_MIN_PAGE = 10;

/** An order's `status` as the interface's: an order is Pending until stayed; any cancellation or a no-show is Canceled. */
export const BOOKING_ORDER_STATUSES: Readonly<Record<string, BookingStatus>> = {
  booked: 'Pending',
  stayed: 'Approved',
  cancelled: 'Canceled',
  cancelled_by_accommodation: 'Canceled',
  cancelled_by_guest: 'Canceled',
  no_show: 'Canceled',
};

/** [from, to) cut into windows the API takes; `to` of each is inclusive there, so it is asked 1 ms early. */
export function orderWindows(from: Date, to: Date): { from: string; to: string }[] {
  const windows: { from: string; to: string }[] = [];
  for (let start = from.getTime(); start < to.getTime(); start += BOOKING_ORDERS_MAX_WINDOW_MS) {
    const end = Math.min(to.getTime(), start + BOOKING_ORDERS_MAX_WINDOW_MS);
    windows.push({ from: new Date(start).toISOString(), to: new Date(end - 1).toISOString() });
  }
  return windows;
}

/** The commission of an order in US cents: the actual amount once known, else the estimate (asked in USD). */
function commissionCents(order: FeedRecord): number {
  order.oneOf('currency', ['USD']);
  const commission = order.record('commission');
  if (commission.has('actual_amount')) return readCents(commission, 'actual_amount');
  if (commission.has('estimated_amount')) return readCents(commission, 'estimated_amount');
  return commission.fail('actual_amount', 'an actual or an estimated amount');
}

/**
 * One order (of /orders/details) with its accommodation order (of /orders/details/accommodations)
 * as a CommissionRecord; `cityName` names the stay's city id.
 */
export function decodeBookingOrder(order: FeedRecord, stay: FeedRecord, cityName: (id: number) => string | null): CommissionRecord {
  const details = stay.record('accommodation_details');
  const location = details.record('location');
  const country = location.string('country').toUpperCase();
  const city = location.has('city') ? cityName(location.integer('city')) : null;
  const rooms = stay.has('products') ? stay.array('products').length : 0;
  const booker = order.has('booker') ? order.record('booker') : null;
  const label = stay.nullableString('label');
  return {
    bookingId: order.string('id'),
    // Our click id rode in the deeplink's `label` (decision 146); none: a booking we did not send.
    clickId: label === null || label === '' ? null : label,
    supplierStayId: String(stay.integer('accommodation')),
    bookedAt: readIsoTime(order, 'created'),
    checkin: readDate(stay, 'checkin'),
    checkout: readDate(stay, 'checkout'),
    rooms: rooms >= 1 ? rooms : stay.fail('products', 'at least one product (room)'),
    status: BOOKING_ORDER_STATUSES[order.oneOf('status', Object.keys(BOOKING_ORDER_STATUSES))],
    commissionUsdCents: commissionCents(order),
    propertyName: details.string('name'),
    destination: city === null ? country : `${city}, ${country}`,
    guestCountry: booker?.has('address') ? readCountry(booker.record('address'), 'country') : null,
    updatedAt: readIsoTime(order, 'updated'),
  };
}
