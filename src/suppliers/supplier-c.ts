import { defaults } from '../defaults.ts';
import type { Listing } from '../types.ts';
import { FeedRecord, roundRating } from './feed-record.ts';
import { fetchJson, supplierUrl } from './fetch-json.ts';
import { createQuoteBatch, isNumericId } from './quote-batch.ts';
import type { Supplier, SupplierConfig } from './supplier.ts';

/** supplier_c's cap on `ids` per `POST /feed/quote`. */
const MAX_IDS_PER_QUOTE = 100;

/**
 * supplier_c: offset/limit, compact records, numeric ids in the same range as supplier_a's.
 * `location` is [lng, lat] (GeoJSON order); `type_code` writes `_` as `-`; `rating.pct` is 0-100;
 * `flags` lists the policies that are true. Quotes: whole-stay totals in USD cents.
 */
export function createSupplierC(config: SupplierConfig): Supplier {
  const id = config.id;

  function decode(record: FeedRecord): Listing {
    const location = record.array('location');
    const [lng, lat] = location;
    if (location.length !== 2 || typeof lng !== 'number' || typeof lat !== 'number'
      || !(lat >= -90 && lat <= 90) || !(lng >= -180 && lng <= 180)) {
      record.fail('location', '[lng, lat]');
    }
    const rating = record.record('rating');
    const layout = record.record('layout');
    const media = record.record('media');
    const flags = record.array('flags');
    if (!flags.every((flag) => typeof flag === 'string')) record.fail('flags', 'an array of strings');
    return {
      supplier: id,
      supplierStayId: String(record.integer('id')),
      name: record.string('title'),
      typeLabel: record.string('type_label'),
      type: record.stayType('type_code', (code) => code.replaceAll('-', '_')),
      address: record.string('addr'),
      lat: lat as number,
      lng: lng as number,
      rating: {
        value: roundRating(rating.numberIn('pct', 0, 100) / 10),
        hotelStars: record.nullableNumber('class'),
        count: rating.integer('votes'),
      },
      capacity: {
        guests: record.integer('sleeps'),
        bedrooms: layout.nullableNumber('bedrooms'),
        beds: layout.nullableNumber('beds'),
        bathrooms: layout.number('baths'),
      },
      policies: {
        instantBook: flags.includes('instant_book'),
        freeCancellation: flags.includes('free_cancellation'),
      },
      media: { thumbnail: media.nullableString('thumb') ?? '', logoSquare: media.nullableString('square_logo') ?? '' },
    };
  }

  return {
    id,
    maxIdsPerQuote: MAX_IDS_PER_QUOTE,
    async quote(request, signal) {
      const batch = createQuoteBatch(request, { supplier: id, maxIds: MAX_IDS_PER_QUOTE, validId: isNumericId });
      if (batch.ids.length === 0) return batch.quotes();
      // `children` lists ages; without ages `childCount` lets supplier_c apply its own default age.
      const pax = request.childrenAges === null && request.children > 0
        ? { adults: request.adults, childCount: request.children }
        : { adults: request.adults, children: request.childrenAges ?? [] };
      const body = { ids: batch.ids.map(Number), from: request.checkin, to: request.checkout, pax, units: request.rooms };
      const url = supplierUrl(config.baseUrl, '/feed/quote', {});
      const answer = FeedRecord.of(id, 'quote answer', await fetchJson(url, { supplier: id, signal, timeoutMs: null, method: 'POST', body }));
      for (const record of answer.records('results')) {
        const stayId = String(record.integer('id'));
        const state = record.oneOf('state', ['OK', 'FULL']);
        if (state === 'FULL') {
          batch.answer(record, 'id', stayId, { available: false });
          continue;
        }
        const cents = record.amount('total_usd_cents');
        if (!Number.isInteger(cents)) record.fail('total_usd_cents', 'a whole number of cents');
        batch.answer(record, 'id', stayId, { available: true, total: cents / 100, currency: 'USD' });
      }
      return batch.quotes();
    },
    async *contentPages(options = {}) {
      const limit = options.pageSize ?? defaults.feedPageSize;
      for (let offset = 0, page = 1; ; page++) {
        const url = supplierUrl(config.baseUrl, '/feed/accommodations', { offset, limit });
        const body = FeedRecord.of(id, `offset ${offset}`, await fetchJson(url, { supplier: id, signal: options.signal }));
        const total = body.integer('total');
        const listings = body.records('items').map(decode);
        if (listings.length > 0) yield listings;
        offset += listings.length;
        if (offset >= total || listings.length === 0) return;
      }
    },
  };
}
