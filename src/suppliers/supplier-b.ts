import { defaults } from '../defaults.ts';
import { STAY_TYPES, type Listing } from '../types.ts';
import { FeedRecord, roundRating } from './feed-record.ts';
import { fetchJson, supplierUrl } from './fetch-json.ts';
import { createQuoteBatch, isListableId, nightsOf } from './quote-batch.ts';
import { readCents, readCountry, readDate, readUnixTime, reportPageSize, roundDiv } from './commission-fields.ts';
import type { BookingStatus, CommissionRecord, Supplier, SupplierConfig } from './supplier.ts';

/** supplier_b's cap on `hotel_ids` per `GET /v2/rates`. */
const MAX_IDS_PER_QUOTE = 100;
/** supplier_b prices in EUR only; its rates name the currency, and this is what an omitted one means. */
const RATE_CURRENCY = 'EUR';

/**
 * supplier_b: cursor pages, snake_case, prefixed string ids ("HB0012345", kept as written).
 * `kind_id` indexes STAY_TYPES; `review_score` is on 0-5. Quotes: one EUR rate per night, the
 * stay's total is their sum.
 */
export function createSupplierB(config: SupplierConfig): Supplier {
  const id = config.id;

  function decode(record: FeedRecord): Listing {
    const kindId = record.integer('kind_id');
    const type = STAY_TYPES[kindId] ?? record.fail('kind_id', `an index into STAY_TYPES (0..${STAY_TYPES.length - 1})`);
    return {
      supplier: id,
      supplierStayId: record.string('hotel_id'),
      name: record.string('name'),
      typeLabel: record.string('kind'),
      type,
      address: `${record.string('street')}, ${record.string('city')}, ${record.string('country')}`,
      lat: record.numberIn('lat', -90, 90),
      lng: record.numberIn('lon', -180, 180),
      rating: {
        value: roundRating(record.numberIn('review_score', 0, 5) * 2),
        hotelStars: record.nullableNumber('stars'),
        count: record.integer('review_count'),
      },
      capacity: {
        guests: record.integer('max_occupancy'),
        bedrooms: record.nullableNumber('bedroom_count'),
        beds: record.nullableNumber('bed_count'),
        bathrooms: record.number('bathroom_count'),
      },
      policies: {
        instantBook: record.boolean('instant_confirmation'),
        freeCancellation: record.boolean('free_cancellation'),
      },
      media: { thumbnail: record.nullableString('photo_url') ?? '', logoSquare: record.nullableString('logo_url') ?? '' },
    };
  }

  /** supplier_b's report statuses: a no-show is a cancellation to the partner (nothing is paid). */
  const REPORT_STATUS: Record<string, BookingStatus> = {
    booked: 'Pending',
    stayed: 'Approved',
    cancelled: 'Canceled',
    no_show: 'Canceled',
  };

  /** `eurPerUsdMicros`: the page's `eur_per_usd` in millionths; the commission is converted at the report's own rate. */
  function decodeCommission(record: FeedRecord, eurPerUsdMicros: number): CommissionRecord {
    const rooms = record.integer('room_count');
    return {
      bookingId: record.string('booking_id'),
      clickId: record.nullableString('ref'),
      supplierStayId: record.string('hotel_id'),
      bookedAt: readUnixTime(record, 'created'),
      checkin: readDate(record, 'arrival'),
      checkout: readDate(record, 'departure'),
      rooms: rooms >= 1 ? rooms : record.fail('room_count', 'a positive integer'),
      status: REPORT_STATUS[record.oneOf('status', ['booked', 'stayed', 'cancelled', 'no_show'])],
      commissionUsdCents: roundDiv(readCents(record, 'commission_eur') * 1_000_000, eurPerUsdMicros),
      propertyName: record.string('hotel_name'),
      destination: `${record.string('hotel_city')}, ${record.string('hotel_country')}`,
      guestCountry: readCountry(record, 'guest_country'),
      updatedAt: readUnixTime(record, 'modified'),
    };
  }

  return {
    id,
    async *commissionReport(request) {
      // Keyset cursor pages of at most 500; the period in whole Unix seconds (the start rounded
      // down, the end down too: what falls in the last partial second comes with the next period).
      const limit = reportPageSize(request.pageSize, 500, defaults.reportFeedPageSize);
      const params: Record<string, string | number> = {
        modified_since: Math.floor(request.from.getTime() / 1_000),
        modified_until: Math.floor(request.to.getTime() / 1_000),
        limit,
      };
      for (let page = 1; ; page++) {
        const url = supplierUrl(config.baseUrl, '/v2/partner/commissions', params);
        const body = FeedRecord.of(id, `report page ${page}`, await fetchJson(url, { supplier: id, signal: request.signal }));
        const rate = body.number('eur_per_usd');
        if (!(rate > 0)) body.fail('eur_per_usd', 'a positive rate');
        const micros = Math.round(rate * 1_000_000);
        const records = body.records('commissions').map((record) => decodeCommission(record, micros));
        if (records.length > 0) yield records;
        const cursor = body.nullableString('next_cursor');
        if (cursor === null || records.length === 0) return;
        params.cursor = cursor;
      }
    },
    maxIdsPerQuote: MAX_IDS_PER_QUOTE,
    async quote(request, signal) {
      const batch = createQuoteBatch(request, { supplier: id, maxIds: MAX_IDS_PER_QUOTE, validId: isListableId });
      if (batch.ids.length === 0) return batch.quotes();
      const params: Record<string, string | number> = {
        hotel_ids: batch.ids.join(','),
        arrival: request.checkin,
        departure: request.checkout,
        adults: request.adults,
        // Without `child_ages` supplier_b applies its own default age to each child.
        children: request.children,
      };
      if (request.childrenAges !== null && request.childrenAges.length > 0) params.child_ages = request.childrenAges.join(',');
      params.rooms = request.rooms;
      const url = supplierUrl(config.baseUrl, '/v2/rates', params);
      const answer = FeedRecord.of(id, 'rates answer', await fetchJson(url, { supplier: id, signal, timeoutMs: null }));
      const nights = nightsOf(request);
      for (const record of answer.records('rates')) {
        const hotelId = record.string('hotel_id');
        if (!record.boolean('available')) {
          batch.answer(record, 'hotel_id', hotelId, { available: false });
          continue;
        }
        const nightly = record.array('nightly');
        // One rate per night: a short list would understate the stay, so it is not a price.
        if (nightly.length === 0 || (nights !== null && nightly.length !== nights)) {
          record.fail('nightly', `${nights ?? 'one or more'} nightly amounts`);
        }
        let sum = 0;
        for (const amount of nightly) {
          sum +=
            typeof amount === 'number' && Number.isFinite(amount) && amount >= 0 ? amount : record.fail('nightly', 'non-negative amounts');
        }
        const currency = record.has('currency') ? record.currency('currency') : RATE_CURRENCY;
        // Rates have 2 decimals; the sum carries float noise (0.1 + 0.2) that must not reach a price.
        batch.answer(record, 'hotel_id', hotelId, { available: true, total: Math.round(sum * 100) / 100, currency });
      }
      return batch.quotes();
    },
    async *contentPages(options = {}) {
      const limit = options.pageSize ?? defaults.feedPageSize;
      let cursor: string | null = null;
      for (let page = 1; ; page++) {
        const url = supplierUrl(config.baseUrl, '/v2/hotels', cursor === null ? { limit } : { limit, cursor });
        const body = FeedRecord.of(id, `page ${page}`, await fetchJson(url, { supplier: id, signal: options.signal }));
        const listings = body.decodeEach('hotels', decode, options.onSkipped);
        const next = body.nullableString('next_cursor');
        if (listings.length > 0) yield listings;
        // A cursor that does not move would loop forever; treat it as the end of a broken feed.
        if (next === null || next === cursor || listings.length === 0) return;
        cursor = next;
      }
    },
  };
}
