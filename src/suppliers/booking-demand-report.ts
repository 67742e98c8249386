// Booking.com's commission report (decision 153): the orders changed in each window of at most 7
// days (`/orders/details`, paged by `metadata.next_page`), with their stays from
// `/orders/details/accommodations` and each stay's city name, as CommissionRecords.
import { BOOKING_LANGUAGE, translated } from './booking-demand-content.ts';
import { BOOKING_ORDERS_MAX_PAGE, BOOKING_ORDERS_MIN_PAGE, decodeBookingOrder, orderWindows } from './booking-demand-orders.ts';
import { BOOKING_MIN_ROWS, bookingPages, type BookingApi } from './booking-demand-pages.ts';
import { readIsoTime, reportPageSize } from './commission-fields.ts';
import { FeedRecord } from './feed-record.ts';
import { fetchJson } from './fetch-json.ts';
import type { CommissionRecord, CommissionReportRequest, DriverSettings } from './supplier.ts';

/** The orders changed in [from, to), page by page; an order is yielded once, whichever windows list it. */
export async function* bookingCommissionReport(
  api: BookingApi,
  reportRequest: CommissionReportRequest,
  settings: Pick<DriverSettings, 'reportFeedPageSize'>,
): AsyncGenerator<CommissionRecord[]> {
  const maximum = Math.max(
    BOOKING_ORDERS_MIN_PAGE,
    reportPageSize(reportRequest.pageSize, BOOKING_ORDERS_MAX_PAGE, settings.reportFeedPageSize),
  );
  const { signal } = reportRequest;
  const cityName = cityLookup(api, signal);
  const [from, to] = [reportRequest.from.getTime(), reportRequest.to.getTime()];
  for (const window of orderWindows(reportRequest.from, reportRequest.to)) {
    const body = {
      updated: window,
      currency: 'USD',
      maximum_results: maximum,
      services: ['accommodations'],
      sort: { by: 'updated', direction: 'ascending' },
    };
    const pages = bookingPages({
      request: api.request(signal),
      url: api.url('/orders/details'),
      body,
      next: (page) => ({ page }),
      nextToken: (answer) => (answer.has('metadata') ? answer.record('metadata').nullableString('next_page') : null),
      what: 'orders',
    });
    const yielded = new Set<string>();
    for await (const { answer } of pages) {
      const orders = answer.records('data').filter((order) => {
        if (!order.has('accommodations') || yielded.has(order.string('id'))) return false;
        const updated = Date.parse(readIsoTime(order, 'updated'));
        return updated >= from && updated < to;
      });
      if (orders.length === 0) continue;
      const stays = await accommodationOrders(
        api,
        orders.map((order) => order.string('id')),
        signal,
      );
      const records: CommissionRecord[] = [];
      for (const order of orders) {
        const stay = stays.get(order.string('id')) ?? order.fail('id', 'an order /orders/details/accommodations knows');
        const cityId = stay.record('accommodation_details').record('location');
        const name = cityId.has('city') ? await cityName(cityId.integer('city')) : null;
        records.push(decodeBookingOrder(order, stay, () => name));
        yielded.add(order.string('id'));
      }
      yield records;
    }
  }
}

/** One city's name, for an order's stay: asked once per report and city. */
function cityLookup(api: BookingApi, signal: AbortSignal | undefined): (cityId: number) => Promise<string | null> {
  const known = new Map<number, string | null>();
  return async (cityId) => {
    if (known.has(cityId)) return known.get(cityId)!;
    const body = { city: cityId, languages: [BOOKING_LANGUAGE], rows: BOOKING_MIN_ROWS };
    const answer = FeedRecord.of(
      api.id,
      `city ${cityId}`,
      await fetchJson(api.url('/common/locations/cities'), { ...api.request(signal), method: 'POST', body }),
    );
    const city = answer.records('data').find((record) => record.integer('id') === cityId);
    const name = city === undefined ? null : translated(city, 'name');
    known.set(cityId, name);
    return name;
  };
}

/** The accommodation orders of these order ids (at most 100, one page of /orders/details), by order id. */
async function accommodationOrders(api: BookingApi, orderIds: string[], signal: AbortSignal | undefined): Promise<Map<string, FeedRecord>> {
  const body = { orders: orderIds, currency: 'USD', extras: ['accommodation_details'] };
  const answer = FeedRecord.of(
    api.id,
    'accommodation orders',
    await fetchJson(api.url('/orders/details/accommodations'), { ...api.request(signal), method: 'POST', body }),
  );
  return new Map(answer.records('data').map((stay) => [stay.string('id'), stay]));
}
