import { FeedRecord } from './feed-record.ts';
import { fetchJson, supplierUrl } from './fetch-json.ts';
import { decodeLiteapiHotel } from './liteapi-content.ts';
import { hotelTotal, LITEAPI_GUEST_NATIONALITY, liteapiOccupancies } from './liteapi-rates.ts';
import { createQuoteBatch, isListableId } from './quote-batch.ts';
import type { DriverSettings, Supplier, SupplierConfig } from './supplier.ts';

/**
 * Most hotel ids in one rates call (decision 157): `hotelIds` has no `maxItems`, but the call
 * answers at most `limit` hotels of those passed ("defaults to 200, max allowed is 5000"), so the
 * driver sends `limit` = the ids it asks, and 5,000 at most.
 */
export const LITEAPI_MAX_IDS_PER_QUOTE = 5_000;
/** Most hotels of one `/data/hotels` page: `limit` "the maximum allowed is 5000 results". */
export const LITEAPI_MAX_PAGE_SIZE = 5_000;
/**
 * The wait before retrying a 429 that names none (LiteAPI documents no Retry-After), doubling on
 * each further 429 within one call.
 */
export const LITEAPI_BACKOFF_MS = 1_000;

/**
 * LiteAPI v3 (docs/suppliers/liteapi.md, decisions 155-159). `config.baseUrl` is the spec's server,
 * https://api.liteapi.travel/v3.0; every request carries the key in `X-API-Key`. Content: the
 * country list, then each country's hotels in offset/limit pages (the live API wants a location).
 * Prices: one rates call by hotel ids; an HTTP 204 means none is available. No commission report
 * (decision 158): the slot's transactions come from the CSV import.
 */
export function createLiteapiDriver(config: SupplierConfig, settings: DriverSettings): Supplier {
  const id = config.id;
  const base = config.baseUrl.replace(/\/+$/, '');
  const request = (signal: AbortSignal | undefined) => ({
    supplier: id,
    settings,
    signal,
    headers: { 'X-API-Key': config.key },
    backoffMs: LITEAPI_BACKOFF_MS,
  });

  async function countries(signal: AbortSignal | undefined): Promise<string[]> {
    const body = FeedRecord.of(id, 'countries', await fetchJson(supplierUrl(base, '/data/countries', {}), request(signal)));
    const codes = body.records('data').map((country) => {
      const code = country.string('code');
      return /^[A-Z]{2}$/.test(code) ? code : country.fail('code', 'an ISO 3166 alpha-2 code');
    });
    return [...new Set(codes)];
  }

  return {
    id,
    maxIdsPerQuote: LITEAPI_MAX_IDS_PER_QUOTE,
    async quote(quoteRequest, signal) {
      const batch = createQuoteBatch(quoteRequest, { supplier: id, maxIds: LITEAPI_MAX_IDS_PER_QUOTE, validId: isListableId });
      if (batch.ids.length === 0) return batch.quotes();
      const body = {
        hotelIds: batch.ids,
        occupancies: liteapiOccupancies(quoteRequest),
        currency: quoteRequest.currency,
        guestNationality: LITEAPI_GUEST_NATIONALITY,
        checkin: quoteRequest.checkin,
        checkout: quoteRequest.checkout,
        // Without it the call prices only the first 200 of the ids passed.
        limit: batch.ids.length,
      };
      const raw = await fetchJson(supplierUrl(base, '/hotels/rates', {}), { ...request(signal), method: 'POST', body, timeoutMs: null });
      // HTTP 204: no hotel has availability for the stay (the spec's error body cannot ride on a 204).
      if (raw === null) return batch.quotes();
      const answer = FeedRecord.of(id, 'rates answer', raw);
      for (const hotel of answer.has('data') ? answer.records('data') : []) {
        const total = hotelTotal(hotel, quoteRequest.rooms, quoteRequest.currency);
        batch.answer(
          hotel,
          'hotelId',
          hotel.string('hotelId'),
          total === null ? { available: false } : { available: true, total: total.cents / 100, currency: total.currency },
        );
      }
      return batch.quotes();
    },
    async *contentPages(options = {}) {
      const size = Math.max(1, Math.min(LITEAPI_MAX_PAGE_SIZE, options.pageSize ?? settings.feedPageSize));
      for (const country of await countries(options.signal)) {
        for (let offset = 0, page = 1; ; page++) {
          const url = supplierUrl(base, '/data/hotels', { countryCode: country, offset, limit: size });
          const body = FeedRecord.of(id, `${country} page ${page}`, await fetchJson(url, request(options.signal)));
          const count = body.has('data') ? body.array('data').length : 0;
          const listings = count > 0 ? body.decodeEach('data', (record) => decodeLiteapiHotel(record, id), options.onSkipped) : [];
          if (listings.length > 0) yield listings;
          // `total` counts the country's hotels whatever the page; without it a short page is the last.
          const total = body.has('total') ? body.integer('total') : null;
          offset += count;
          if (count === 0 || (total === null ? count < size : offset >= total)) break;
        }
      }
    },
  };
}
