// Booking.com's paging, shared by every list the driver reads: the same POST again with the answer's
// `next_page` as `page`, until it is null. A token the API no longer takes (it answers 400 to a
// request carrying one) restarts the list from its first page (decision 152).
import { FeedRecord } from './feed-record.ts';
import { fetchJsonResponse, type FetchJsonOptions } from './fetch-json.ts';
import { SupplierError } from './supplier-error.ts';
import type { SupplierId } from '../types.ts';

/** `rows` of /accommodations/details, /common/locations/countries and /cities: 10 to 1,000. */
export const BOOKING_MAX_ROWS = 1_000;
export const BOOKING_MIN_ROWS = 10;
/** Restarts of one list after a refused page token before the list fails: a token that never lasts a page is a broken API. */
export const BOOKING_MAX_RESTARTS = 3;

/** How the driver's parts reach Booking.com: the slot, a URL under its server, a call's options. */
export interface BookingApi {
  id: SupplierId;
  url(path: string): string;
  /** The options of a call (credentials, backoff, settings) under `signal`; `timeoutMs: null`: no deadline of its own. */
  request(signal: AbortSignal | undefined, timeoutMs?: null): BookingListOptions['request'];
}

export interface BookingListOptions {
  /** The request's common options (supplier, headers, signal, backoff). */
  request: Omit<FetchJsonOptions, 'method' | 'body' | 'acceptStatus'>;
  url: string;
  /** The first page's body. */
  body: Record<string, unknown>;
  /** The body of a later page: default the first one with `page` added. */
  next?: (token: string) => Record<string, unknown>;
  /** Where the token of the next page is (default `next_page`; the orders answer has it in `metadata`). */
  nextToken?: (answer: FeedRecord) => string | null;
  /** Names the pages in errors ("countries page 2"). */
  what: string;
}

/** One answer of a list: its body, and whether the list started again before it (a restart). */
export interface BookingPage {
  answer: FeedRecord;
  restarted: boolean;
}

/** Every page of a list, in order; after a refused token the pages come again from the first. */
export async function* bookingPages(options: BookingListOptions): AsyncGenerator<BookingPage> {
  const { request, url, body, what } = options;
  const next = options.next ?? ((page: string) => ({ ...body, page }));
  const nextToken = options.nextToken ?? ((answer: FeedRecord) => answer.nullableString('next_page'));
  let restarts = 0;
  let restarted = false;
  let token: string | null = null;
  for (let page = 1; ; page++) {
    const response = await fetchJsonResponse(url, {
      ...request,
      method: 'POST',
      body: token === null ? body : next(token),
      // Only a request carrying a token may be refused for it; a first page's 400 is an error.
      acceptStatus: token === null ? [] : [400],
    });
    if (response.status === 400) {
      if (++restarts > BOOKING_MAX_RESTARTS)
        throw new SupplierError(request.supplier, 'http', `${what}: page token refused ${restarts} times (HTTP 400 from ${url})`, {
          status: 400,
        });
      token = null;
      restarted = true;
      page = 0;
      continue;
    }
    const answer = FeedRecord.of(request.supplier, `${what} page ${page}`, response.body);
    yield { answer, restarted };
    restarted = false;
    token = nextToken(answer);
    if (token === null || token === '') return;
  }
}
