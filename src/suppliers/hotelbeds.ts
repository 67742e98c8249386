import { FeedRecord } from './feed-record.ts';
import { fetchJson, supplierUrl } from './fetch-json.ts';
import { decodeHotelbedsHotel, HOTELBEDS_CONTENT_FIELDS, hotelbedsPhotoBase } from './hotelbeds-content.ts';
import { hotelbedsOccupancies, hotelbedsRoomGroups, hotelTotalCents } from './hotelbeds-rates.ts';
import { hotelbedsAuthHeaders } from './hotelbeds-signature.ts';
import { createQuoteBatch, isNumericId } from './quote-batch.ts';
import type { DriverSettings, Supplier, SupplierConfig } from './supplier.ts';

/** Most hotel codes in one availability call: `hotels.hotel` has `maxItems: 2000` in the spec. */
export const HOTELBEDS_MAX_IDS_PER_QUOTE = 2_000;
/** Most records of one content page: `to - from + 1` beyond it is a 400 ("limited to 1000"). */
export const HOTELBEDS_MAX_PAGE_SIZE = 1_000;
/**
 * The wait before retrying a 429 that names none (Hotelbeds documents the status, not a
 * Retry-After), doubling on each further 429 within one call.
 */
export const HOTELBEDS_BACKOFF_MS = 1_000;

/** Hotel codes are JSON integers (int32): any other id is not one Hotelbeds sells. */
const isHotelCode = (id: string): boolean => isNumericId(id) && Number(id) <= 2_147_483_647;

/**
 * Hotelbeds APItude (docs/suppliers/hotelbeds.md). `config.baseUrl` is the host alone
 * (https://api.test.hotelbeds.com); content comes from the Hotel Content API, prices from the
 * Booking API's availability call. Every request is signed (`Api-key`, `X-Signature` at
 * `config.now`). Net rates, no commission report: the slot's transactions come from a CSV import.
 */
export function createHotelbedsDriver(config: SupplierConfig, settings: DriverSettings): Supplier {
  const id = config.id;
  const now = config.now ?? Date.now;
  const host = config.baseUrl.replace(/\/+$/, '');
  const contentApi = `${host}/hotel-content-api/1.0`;
  const bookingApi = `${host}/hotel-api/1.0`;
  const photoBase = hotelbedsPhotoBase(host);
  const request = (signal: AbortSignal | undefined) => ({
    supplier: id,
    settings,
    signal,
    // Signed again for every request sent, a retry after a 429 too: the signature is of the second.
    headers: () => hotelbedsAuthHeaders(config.key, config.secret, now()),
    backoffMs: HOTELBEDS_BACKOFF_MS,
  });

  return {
    id,
    maxIdsPerQuote: HOTELBEDS_MAX_IDS_PER_QUOTE,
    async quote(quoteRequest, signal) {
      const batch = createQuoteBatch(quoteRequest, { supplier: id, maxIds: HOTELBEDS_MAX_IDS_PER_QUOTE, validId: isHotelCode });
      if (batch.ids.length === 0) return batch.quotes();
      const body = {
        stay: { checkIn: quoteRequest.checkin, checkOut: quoteRequest.checkout },
        occupancies: hotelbedsOccupancies(quoteRequest),
        hotels: { hotel: batch.ids.map(Number) },
      };
      const url = `${bookingApi}/hotels`;
      const answer = FeedRecord.of(
        id,
        'availability answer',
        await fetchJson(url, { ...request(signal), method: 'POST', body, timeoutMs: null }),
      );
      // The hotels with a rate for the stay; one left out has nothing for it (not available).
      const hotels = answer.has('hotels') ? answer.record('hotels') : null;
      const groups = hotelbedsRoomGroups(quoteRequest);
      for (const hotel of hotels?.has('hotels') ? hotels.records('hotels') : []) {
        const code = String(hotel.integer('code'));
        const currency = hotel.currency('currency');
        const cents = hotelTotalCents(hotel, groups, currency);
        batch.answer(hotel, 'code', code, cents === null ? { available: false } : { available: true, total: cents / 100, currency });
      }
      return batch.quotes();
    },
    async *contentPages(options = {}) {
      // `from`/`to` are 1-based and inclusive; `total` counts every hotel whatever the window.
      const size = Math.max(1, Math.min(HOTELBEDS_MAX_PAGE_SIZE, options.pageSize ?? settings.feedPageSize));
      for (let from = 1, page = 1; ; page++) {
        const url = supplierUrl(contentApi, '/hotels', { fields: HOTELBEDS_CONTENT_FIELDS.join(','), from, to: from + size - 1 });
        const body = FeedRecord.of(id, `page ${page}`, await fetchJson(url, request(options.signal)));
        const total = body.integer('total');
        const listings = body.has('hotels')
          ? body.decodeEach('hotels', (record) => decodeHotelbedsHotel(record, id, photoBase), options.onSkipped)
          : [];
        if (listings.length > 0) yield listings;
        // The answer's own `to` says where it stopped (it may give fewer than asked); no progress ends a broken feed.
        const to = body.has('to') ? body.integer('to') : from + size - 1;
        if (to >= total || to < from || !body.has('hotels') || body.array('hotels').length === 0) return;
        from = to + 1;
      }
    },
  };
}
