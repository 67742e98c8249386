import type { Listing } from '../types.ts';
import { decodeExpediaRapidProperty, EXPEDIA_RAPID_CONTENT_FIELDS, nextLink } from './expedia-rapid-content.ts';
import { expediaRapidOccupancies, expediaRapidPropertyTotal } from './expedia-rapid-rates.ts';
import { expediaRapidAuthHeaders } from './expedia-rapid-signature.ts';
import { FeedRecord } from './feed-record.ts';
import { fetchJson, fetchJsonResponse } from './fetch-json.ts';
import { createQuoteBatch, isNumericId } from './quote-batch.ts';
import { SupplierError } from './supplier-error.ts';
import type { DriverSettings, Supplier, SupplierConfig } from './supplier.ts';

/** Most `property_id`s in one availability call: "You can provide 1 to 250 property_id parameters". */
export const EXPEDIA_RAPID_MAX_IDS_PER_QUOTE = 250;
/**
 * The wait before retrying a 429: Rapid sends no Retry-After (only its Rate-Limit-* headers, optional
 * and in percent), so the driver backs off on its own, doubling on each further 429 within one call.
 */
export const EXPEDIA_RAPID_BACKOFF_MS = 1_000;
/**
 * Restarts of one content pull after a 410 (an expired `Link`) before the pull fails: a pull that
 * cannot reach its end within a token's life would otherwise start over for ever.
 */
export const EXPEDIA_RAPID_MAX_RESTARTS = 5;
/**
 * Rates asked per property (`rate_plan_count`, 1-250). "The rates with the best value will be
 * returned ... generally lowest rates will be prioritized": a few are enough to hold the cheapest
 * for the party, far fewer bytes than every rate of 250 properties (decision 161).
 */
export const EXPEDIA_RAPID_RATE_PLAN_COUNT = 4;
/**
 * The point of sale, language and channel sent with every call (decision 161): the gateway sells to a
 * comparison site's travellers (`meta`), stays alone (`hotel_only`), in English, from the US.
 */
export const EXPEDIA_RAPID_SHOPPING = {
  language: 'en-US',
  country_code: 'US',
  sales_channel: 'meta',
  sales_environment: 'hotel_only',
} as const;

/** What the driver calls itself in `User-Agent`. */
export const EXPEDIA_RAPID_USER_AGENT = 'staygate/1.0';

/** `path` under `baseUrl` (keeping the base's own path, `/v3`), with each parameter, repeated ones in order. */
function rapidUrl(baseUrl: string, path: string, params: [string, string | number][]): string {
  const url = new URL(path.replace(/^\/+/, ''), baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  for (const [key, value] of params) url.searchParams.append(key, String(value));
  return url.href;
}

/**
 * Expedia Rapid 3 with the Vrbo supply source (docs/suppliers/expedia-rapid.md). `config.baseUrl` is
 * the spec's server (https://test.ean.com/v3). Every request is signed anew (`Authorization: EAN
 * APIKey=...,Signature=...,timestamp=...` at `config.now`). No commission report for affiliates in
 * Rapid: the slot's transactions come from `staygate transactions import`.
 */
export function createExpediaRapidDriver(config: SupplierConfig, settings: DriverSettings): Supplier {
  const id = config.id;
  const now = config.now ?? Date.now;
  const request = (signal: AbortSignal | undefined) => ({
    supplier: id,
    settings,
    signal,
    // Signed again for every request sent, a retry after a 429 too: the signature is of the second.
    // The spec requires `Accept-Encoding: gzip` and a `User-Agent` of `{app name}/{app version}`.
    headers: () => ({
      ...expediaRapidAuthHeaders(config.key, config.secret, now()),
      'Accept-Encoding': 'gzip',
      'User-Agent': EXPEDIA_RAPID_USER_AGENT,
    }),
    backoffMs: EXPEDIA_RAPID_BACKOFF_MS,
  });
  const firstPage = rapidUrl(config.baseUrl, '/properties/content', [
    ['language', EXPEDIA_RAPID_SHOPPING.language],
    ['supply_source', 'vrbo'],
    ...EXPEDIA_RAPID_CONTENT_FIELDS.map((field): [string, string] => ['include', field]),
  ]);

  return {
    id,
    maxIdsPerQuote: EXPEDIA_RAPID_MAX_IDS_PER_QUOTE,
    async quote(quoteRequest, signal) {
      const batch = createQuoteBatch(quoteRequest, { supplier: id, maxIds: EXPEDIA_RAPID_MAX_IDS_PER_QUOTE, validId: isNumericId });
      if (batch.ids.length === 0) return batch.quotes();
      const occupancies = expediaRapidOccupancies(quoteRequest);
      const url = rapidUrl(config.baseUrl, '/properties/availability', [
        ['checkin', quoteRequest.checkin],
        ['checkout', quoteRequest.checkout],
        ['currency', quoteRequest.currency],
        ['country_code', EXPEDIA_RAPID_SHOPPING.country_code],
        ['language', EXPEDIA_RAPID_SHOPPING.language],
        ...occupancies.map((occupancy): [string, string] => ['occupancy', occupancy]),
        ...batch.ids.map((propertyId): [string, string] => ['property_id', propertyId]),
        ['rate_plan_count', EXPEDIA_RAPID_RATE_PLAN_COUNT],
        ['sales_channel', EXPEDIA_RAPID_SHOPPING.sales_channel],
        ['sales_environment', EXPEDIA_RAPID_SHOPPING.sales_environment],
      ]);
      const body = await fetchJson(url, { ...request(signal), timeoutMs: null });
      // `200 []` is "no available rooms"; a property left out has nothing for the stay.
      if (!Array.isArray(body)) throw new SupplierError(id, 'malformed', 'availability answer: expected an array of properties');
      body.forEach((value, i) => {
        const property = FeedRecord.of(id, `availability answer[${i}]`, value);
        const propertyId = property.string('property_id');
        const total = expediaRapidPropertyTotal(property, occupancies);
        batch.answer(
          property,
          'property_id',
          propertyId,
          total === null ? { available: false } : { available: true, total: total.cents / 100, currency: total.currency },
        );
      });
      return batch.quotes();
    },
    async *contentPages(options = {}) {
      // Rapid sizes its pages itself (no page-size parameter): `options.pageSize` has nothing to set.
      // A 410 is the page token expiring: the pull starts again from the first page, and a listing
      // already yielded in this pull is not yielded twice (issue 24: nothing stored is lost).
      const yielded = new Set<string>();
      let url = firstPage;
      let restarts = 0;
      for (let page = 1; ; page++) {
        const answer = await fetchJsonResponse(url, { ...request(options.signal), acceptStatus: [410] });
        if (answer.status === 410) {
          if (++restarts > EXPEDIA_RAPID_MAX_RESTARTS) {
            throw new SupplierError(id, 'http', `content: the page link expired ${restarts} times in one pull (HTTP 410)`, { status: 410 });
          }
          url = firstPage;
          continue;
        }
        FeedRecord.of(id, `page ${page}`, answer.body); // an object (a map by property id), or `malformed`
        const listings: Listing[] = [];
        for (const [propertyId, value] of Object.entries(answer.body as Record<string, unknown>)) {
          if (yielded.has(propertyId)) continue;
          try {
            listings.push(decodeExpediaRapidProperty(value, propertyId, id));
          } catch (error) {
            if (options.onSkipped === undefined || !(error instanceof SupplierError) || error.kind !== 'malformed') throw error;
            options.onSkipped(error);
          }
          yielded.add(propertyId);
        }
        if (listings.length > 0) yield listings;
        const next = nextLink(answer.headers.get('link'));
        // An empty page with a next link would loop on a broken feed: the end. A relative link
        // resolves against the page it came with (an absolute one, as Rapid writes it, is unchanged).
        if (next === null || Object.keys(answer.body as object).length === 0) return;
        url = new URL(next, url).href;
      }
    },
  };
}
