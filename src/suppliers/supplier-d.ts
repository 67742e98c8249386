import { defaults } from '../defaults.ts';
import type { Listing } from '../types.ts';
import { FeedRecord, roundRating } from './feed-record.ts';
import { fetchJson, supplierUrl } from './fetch-json.ts';
import { createQuoteBatch, isListableId } from './quote-batch.ts';
import { readCountry, readDate, readDecimalString, readIsoTime, reportPageSize, roundDiv } from './commission-fields.ts';
import type { BookingStatus, CommissionRecord, Supplier, SupplierConfig } from './supplier.ts';

/** supplier_d's cap on `ids` per `GET /api/availability` (51 is a 400): small batches, many calls. */
const MAX_IDS_PER_QUOTE = 50;

/**
 * supplier_d: vacation rentals, numbered pages in a Laravel-style envelope, numeric-string ids
 * overlapping supplier_a's and supplier_c's. `host_rating` is on 0-5; a `flexible` cancellation
 * policy is free cancellation; the thumbnail is the cover photo. Quotes: whole-stay totals with
 * their currency (USD).
 */
export function createSupplierD(config: SupplierConfig): Supplier {
  const id = config.id;

  function decode(record: FeedRecord): Listing {
    const coordinates = record.record('coordinates');
    const photos = record.records('photos');
    // No cover flagged: the first photo is the one a supplier's own page would show.
    const cover = photos.find((photo) => photo.boolean('is_cover')) ?? photos[0];
    return {
      supplier: id,
      supplierStayId: record.string('listing_id'),
      name: record.string('headline'),
      typeLabel: record.string('property_type_label'),
      type: record.stayType('property_type', (code) => code.replaceAll('-', '_')),
      address: record.record('address').string('full'),
      lat: coordinates.numberIn('lat', -90, 90),
      lng: coordinates.numberIn('lng', -180, 180),
      rating: {
        value: roundRating(record.numberIn('host_rating', 0, 5) * 2),
        hotelStars: record.nullableNumber('star_class'),
        count: record.integer('ratings_count'),
      },
      capacity: {
        guests: record.integer('sleeps'),
        bedrooms: record.nullableNumber('bedrooms'),
        beds: record.nullableNumber('beds'),
        bathrooms: record.number('bathrooms'),
      },
      policies: {
        instantBook: record.boolean('instant_book'),
        freeCancellation: record.string('cancellation_policy') === 'flexible',
      },
      media: { thumbnail: cover ? cover.string('url') : '', logoSquare: record.nullableString('brand_logo') ?? '' },
    };
  }

  /** supplier_d's report statuses: a no-show is a cancellation to the partner (nothing is paid). */
  const REPORT_STATUS: Record<string, BookingStatus> = {
    pending: 'Pending',
    completed: 'Approved',
    canceled: 'Canceled',
    no_show: 'Canceled',
  };

  function decodeReservation(record: FeedRecord): CommissionRecord {
    const tracking = record.record('tracking');
    const listing = record.record('listing');
    const payout = record.record('payout');
    payout.oneOf('currency', ['USD']);
    const rooms = record.integer('units');
    // supplier_d states no commission: the total (cents) x the rate (percent, 1 decimal), rounded half up.
    const commission = roundDiv(readDecimalString(payout, 'booking_total', 2) * readDecimalString(payout, 'commission_rate', 1), 1_000);
    return {
      bookingId: record.string('reservation_id'),
      clickId: tracking.nullableString('click_id'),
      supplierStayId: listing.string('id'),
      bookedAt: readIsoTime(record, 'created_at'),
      checkin: readDate(record, 'check_in'),
      checkout: readDate(record, 'check_out'),
      rooms: rooms >= 1 ? rooms : record.fail('units', 'a positive integer'),
      status: REPORT_STATUS[record.oneOf('status', ['pending', 'completed', 'canceled', 'no_show'])],
      commissionUsdCents: commission,
      propertyName: listing.string('headline'),
      destination: `${listing.string('city')}, ${listing.string('country')}`,
      guestCountry: readCountry(record.record('guest'), 'country'),
      updatedAt: readIsoTime(record, 'updated_at'),
    };
  }

  return {
    id,
    async *commissionReport(request) {
      // Numbered pages of at most 200 in a Laravel envelope; the period as JSON:API-style filters.
      const perPage = reportPageSize(request.pageSize, 200, defaults.reportFeedPageSize);
      for (let page = 1; ; page++) {
        const url = supplierUrl(config.baseUrl, '/api/affiliate/reservations', {
          'filter[updated_at][gte]': request.from.toISOString(),
          'filter[updated_at][lt]': request.to.toISOString(),
          page,
          per_page: perPage,
        });
        const body = FeedRecord.of(id, `report page ${page}`, await fetchJson(url, { supplier: id, signal: request.signal }));
        const meta = body.record('meta');
        const records = body.records('data').map(decodeReservation);
        if (records.length > 0) yield records;
        if (meta.integer('current_page') >= meta.integer('last_page') || records.length === 0) return;
      }
    },
    maxIdsPerQuote: MAX_IDS_PER_QUOTE,
    async quote(request, signal) {
      const batch = createQuoteBatch(request, { supplier: id, maxIds: MAX_IDS_PER_QUOTE, validId: isListableId });
      if (batch.ids.length === 0) return batch.quotes();
      const params: Record<string, string | number> = {
        ids: batch.ids.join(','),
        start: request.checkin,
        end: request.checkout,
        adults: request.adults,
        // Without `ages` supplier_d applies its own default age to each child.
        children: request.children,
      };
      if (request.childrenAges !== null && request.childrenAges.length > 0) params.ages = request.childrenAges.join(',');
      params.rooms = request.rooms;
      const url = supplierUrl(config.baseUrl, '/api/availability', params);
      const answer = FeedRecord.of(id, 'availability answer', await fetchJson(url, { supplier: id, signal, timeoutMs: null }));
      for (const record of answer.records('data')) {
        const listingId = record.string('listing_id');
        if (!record.boolean('bookable')) {
          batch.answer(record, 'listing_id', listingId, { available: false });
          continue;
        }
        const price = record.record('price');
        batch.answer(record, 'listing_id', listingId, {
          available: true,
          total: price.amount('total'),
          currency: price.currency('currency'),
        });
      }
      return batch.quotes();
    },
    async *contentPages(options = {}) {
      const perPage = options.pageSize ?? defaults.feedPageSize;
      for (let page = 1; ; page++) {
        const url = supplierUrl(config.baseUrl, '/api/listings', { page, per_page: perPage });
        const body = FeedRecord.of(id, `page ${page}`, await fetchJson(url, { supplier: id, signal: options.signal }));
        const meta = body.record('meta');
        const listings = body.decodeEach('data', decode, options.onSkipped);
        if (listings.length > 0) yield listings;
        if (meta.integer('current_page') >= meta.integer('last_page') || listings.length === 0) return;
      }
    },
  };
}
