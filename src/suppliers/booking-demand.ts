import { BOOKING_DETAILS_EXTRAS, BOOKING_LANGUAGE, decodeBookingAccommodation, translated } from './booking-demand-content.ts';
import { BOOKING_MAX_ROWS, BOOKING_MIN_ROWS, bookingPages, type BookingApi } from './booking-demand-pages.ts';
import { bookingCommissionReport } from './booking-demand-report.ts';
import { supplierUrl } from './fetch-json.ts';
import { createQuoteBatch, isNumericId } from './quote-batch.ts';
import type { DriverSettings, Supplier, SupplierConfig } from './supplier.ts';

/** Most accommodation ids of one `/accommodations/search` (`accommodations` has `maxItems: 100`). */
export const BOOKING_MAX_IDS_PER_QUOTE = 100;
/** `rows` of /accommodations/search: at most 100, so a call of 100 ids is one page. */
const SEARCH_ROWS = 100;
/** The wait before retrying a 429 that names none (Booking.com declares no 429), doubling on each further one. */
export const BOOKING_BACKOFF_MS = 1_000;
/**
 * The age sent for a child whose age the caller does not know: Booking.com takes children as ages
 * (`guests.children`) and has no "a child of unknown age". 8, the age the simulator's supplier_a
 * applies too (decision 150).
 */
export const BOOKING_DEFAULT_CHILD_AGE = 8;
/**
 * The booker Booking.com prices for (`booker` is required): a desktop booker in the Netherlands,
 * Booking.com's home market, whose display rules show every charge (decision 150). The price read
 * is `total`, which includes every charge whatever the booker's display rules.
 */
export const BOOKING_BOOKER = { country: 'nl', platform: 'desktop' } as const;

/** Accommodation ids are integers from 1: any other id is not one Booking.com sells. */
const isAccommodationId = (id: string): boolean => isNumericId(id) && Number(id) >= 1;

/**
 * Booking.com Demand API 3.1 (docs/suppliers/booking-demand.md, decisions 150-154). `config.baseUrl`
 * is the server as the spec writes it (https://demandapi.booking.com/3.1); every operation is a POST
 * with a JSON body, `Authorization: Bearer <key>` and `X-Affiliate-Id`. Content walks the countries
 * of /common/locations/countries, each one's /accommodations/details to its last page; quotes are
 * /accommodations/search by ids; commissions come from the orders endpoints. About 100 lines: the
 * driver's operations share its client and auth headers; its report is booking-demand-report.ts.
 */
export function createBookingDemandDriver(config: SupplierConfig, settings: DriverSettings): Supplier {
  const id = config.id;
  const headers = { Authorization: `Bearer ${config.key}`, 'X-Affiliate-Id': config.affiliateId };
  const url = (path: string): string => supplierUrl(config.baseUrl, path, {});
  const request = (signal: AbortSignal | undefined, timeoutMs?: null) => ({
    supplier: id,
    settings,
    signal,
    headers,
    backoffMs: BOOKING_BACKOFF_MS,
    ...(timeoutMs === null ? { timeoutMs } : {}),
  });
  const api: BookingApi = { id, url, request };

  /** Every country code Booking.com lists, in its order. */
  async function countries(signal: AbortSignal | undefined): Promise<string[]> {
    const codes: string[] = [];
    const body = { languages: [BOOKING_LANGUAGE], rows: BOOKING_MAX_ROWS };
    for await (const { answer, restarted } of bookingPages({
      request: request(signal),
      url: url('/common/locations/countries'),
      body,
      what: 'countries',
    })) {
      if (restarted) codes.length = 0;
      for (const country of answer.records('data')) codes.push(country.string('id'));
    }
    return [...new Set(codes)];
  }

  /** The names of a country's cities by id (`location.city` of an accommodation is an id). */
  async function cityNames(country: string, signal: AbortSignal | undefined): Promise<Map<number, string>> {
    const names = new Map<number, string>();
    const body = { country, languages: [BOOKING_LANGUAGE], rows: BOOKING_MAX_ROWS };
    for await (const { answer } of bookingPages({
      request: request(signal),
      url: url('/common/locations/cities'),
      body,
      what: `cities of ${country}`,
    })) {
      for (const city of answer.records('data')) names.set(city.integer('id'), translated(city, 'name'));
    }
    return names;
  }

  return {
    id,
    maxIdsPerQuote: BOOKING_MAX_IDS_PER_QUOTE,
    async quote(quoteRequest, signal) {
      const batch = createQuoteBatch(quoteRequest, { supplier: id, maxIds: BOOKING_MAX_IDS_PER_QUOTE, validId: isAccommodationId });
      if (batch.ids.length === 0) return batch.quotes();
      const children = quoteRequest.childrenAges ?? new Array<number>(quoteRequest.children).fill(BOOKING_DEFAULT_CHILD_AGE);
      const body = {
        accommodations: batch.ids.map(Number),
        booker: BOOKING_BOOKER,
        checkin: quoteRequest.checkin,
        checkout: quoteRequest.checkout,
        currency: quoteRequest.currency,
        guests: {
          number_of_adults: quoteRequest.adults,
          number_of_rooms: quoteRequest.rooms,
          ...(children.length > 0 ? { children } : {}),
        },
        rows: SEARCH_ROWS,
      };
      const pages = bookingPages({ request: request(signal, null), url: url('/accommodations/search'), body, what: 'search' });
      for await (const { answer } of pages) {
        // Each accommodation with its cheapest product for the party; one left out has none (not available).
        for (const stay of answer.records('data')) {
          const price = stay.record('price');
          // `total` includes every charge; `book` is only what the booker's display rules show (decision 150).
          batch.answer(stay, 'id', String(stay.integer('id')), {
            available: true,
            total: price.amount('total'),
            currency: stay.currency('currency'),
          });
        }
      }
      return batch.quotes();
    },
    async *contentPages(options = {}) {
      const rows = Math.max(BOOKING_MIN_ROWS, Math.min(BOOKING_MAX_ROWS, options.pageSize ?? settings.feedPageSize));
      // /accommodations/details wants a location: every country in turn, each to its last page.
      for (const country of await countries(options.signal)) {
        const cities = await cityNames(country, options.signal);
        const seen = new Set<string>();
        const body = { country, extras: [...BOOKING_DETAILS_EXTRAS], languages: [BOOKING_LANGUAGE], rows };
        const pages = bookingPages({
          request: request(options.signal),
          url: url('/accommodations/details'),
          body,
          what: `accommodations of ${country}`,
        });
        for await (const { answer } of pages) {
          // After a restart the first pages come again: what was yielded already is not yielded twice.
          const listings = answer
            .decodeEach('data', (record) => decodeBookingAccommodation(record, id, cities), options.onSkipped)
            .filter((listing) => !seen.has(listing.supplierStayId));
          for (const listing of listings) seen.add(listing.supplierStayId);
          if (listings.length > 0) yield listings;
        }
      }
    },
    commissionReport: (reportRequest) => bookingCommissionReport(api, reportRequest, settings),
  };
}
