import { defaults } from '../defaults.ts';
import type { Listing } from '../types.ts';
import { FeedRecord, roundRating } from './feed-record.ts';
import { fetchJson, supplierUrl } from './fetch-json.ts';
import { createQuoteBatch, isNumericId } from './quote-batch.ts';
import { readCountry, readDate, readDecimalString, readIsoTime, reportPageSize } from './commission-fields.ts';
import type { BookingStatus, CommissionRecord, Supplier, SupplierConfig } from './supplier.ts';

/** supplier_a's cap on ids per `POST /availability/quotes`. */
const MAX_IDS_PER_QUOTE = 200;
/**
 * supplier_a prices children by age and has no "children without ages": a request that does not
 * list `childAges` is priced as adults only. When the caller knows no ages we send 8 per child,
 * supplier_a's own documented default, so the price is what the supplier would quote itself.
 */
const DEFAULT_CHILD_AGE = 8;

/**
 * supplier_a: numbered pages, camelCase, numeric ids (see packages/sim/README.md for the wire format).
 * `propertyType.code` is the StayType in upper case. Quotes: whole-stay totals in the requested
 * currency when supplier_a holds it, else in USD; the answer's `currency` says which.
 */
export function createSupplierA(config: SupplierConfig): Supplier {
  const id = config.id;

  function decode(record: FeedRecord): Listing {
    const type = record.record('propertyType');
    const geo = record.record('geo');
    const address = record.record('address');
    const score = record.record('guestScore');
    const occupancy = record.record('occupancy');
    const policies = record.record('policies');
    const images = record.records('images');
    const imageUrl = (kind: string): string => {
      const image = images.find((candidate) => candidate.string('kind') === kind);
      return image ? image.string('url') : '';
    };
    return {
      supplier: id,
      supplierStayId: String(record.integer('propertyId')),
      name: record.string('propertyName'),
      typeLabel: type.string('label'),
      type: type.stayType('code', (code) => code.toLowerCase()),
      address: `${address.string('line1')}, ${address.string('city')}, ${address.string('countryCode')}`,
      lat: geo.numberIn('latitude', -90, 90),
      lng: geo.numberIn('longitude', -180, 180),
      rating: {
        value: roundRating(score.numberIn('score', 0, 10)),
        hotelStars: record.nullableNumber('starRating'),
        count: score.integer('reviews'),
      },
      capacity: {
        guests: occupancy.integer('maxGuests'),
        bedrooms: occupancy.nullableNumber('bedrooms'),
        beds: occupancy.nullableNumber('beds'),
        bathrooms: occupancy.number('bathrooms'),
      },
      policies: {
        instantBook: policies.boolean('instantConfirmation'),
        freeCancellation: policies.boolean('freeCancellation'),
      },
      media: { thumbnail: imageUrl('thumbnail'), logoSquare: imageUrl('logo') },
    };
  }

  /** supplier_a's report statuses. */
  const REPORT_STATUS: Record<string, BookingStatus> = { PENDING: 'Pending', CONFIRMED: 'Approved', CANCELLED: 'Canceled' };

  function decodeBooking(record: FeedRecord): CommissionRecord {
    const commission = record.record('commission');
    commission.oneOf('currency', ['USD']);
    const rooms = record.integer('rooms');
    return {
      bookingId: record.string('bookingRef'),
      clickId: record.nullableString('clickId'),
      supplierStayId: String(record.integer('propertyId')),
      bookedAt: readIsoTime(record, 'bookedAt'),
      checkin: readDate(record, 'checkIn'),
      checkout: readDate(record, 'checkOut'),
      rooms: rooms >= 1 ? rooms : record.fail('rooms', 'a positive integer'),
      status: REPORT_STATUS[record.oneOf('status', ['PENDING', 'CONFIRMED', 'CANCELLED'])],
      commissionUsdCents: readDecimalString(commission, 'amount', 2),
      propertyName: record.string('propertyName'),
      destination: `${record.string('city')}, ${record.string('countryCode')}`,
      guestCountry: readCountry(record, 'guestCountry'),
      updatedAt: readIsoTime(record, 'updatedAt'),
    };
  }

  return {
    id,
    async *commissionReport(request) {
      // Numbered pages of at most 1000, ISO 8601 period bounds.
      const pageSize = reportPageSize(request.pageSize, 1_000, defaults.reportFeedPageSize);
      for (let page = 1; ; page++) {
        const url = supplierUrl(config.baseUrl, '/affiliate/v1/bookings', {
          updatedFrom: request.from.toISOString(),
          updatedTo: request.to.toISOString(),
          page,
          pageSize,
        });
        const body = FeedRecord.of(id, `report page ${page}`, await fetchJson(url, { supplier: id, signal: request.signal }));
        const records = body.records('bookings').map(decodeBooking);
        if (records.length > 0) yield records;
        if (page >= body.integer('totalPages') || records.length === 0) return;
      }
    },
    maxIdsPerQuote: MAX_IDS_PER_QUOTE,
    async quote(request, signal) {
      const batch = createQuoteBatch(request, { supplier: id, maxIds: MAX_IDS_PER_QUOTE, validId: isNumericId });
      if (batch.ids.length === 0) return batch.quotes();
      const childAges = request.childrenAges ?? new Array<number>(request.children).fill(DEFAULT_CHILD_AGE);
      const body = {
        propertyIds: batch.ids.map(Number),
        checkIn: request.checkin,
        checkOut: request.checkout,
        // `childAges` is left out when there are no children, as the format asks.
        occupancy:
          childAges.length > 0
            ? { adults: request.adults, childAges, rooms: request.rooms }
            : { adults: request.adults, rooms: request.rooms },
        currency: request.currency,
      };
      const url = supplierUrl(config.baseUrl, '/availability/quotes', {});
      const answer = FeedRecord.of(
        id,
        'quote answer',
        await fetchJson(url, { supplier: id, signal, timeoutMs: null, method: 'POST', body }),
      );
      const currency = answer.currency('currency');
      for (const record of answer.records('quotes')) {
        const propertyId = String(record.integer('propertyId'));
        const status = record.oneOf('status', ['AVAILABLE', 'SOLD_OUT']);
        batch.answer(
          record,
          'propertyId',
          propertyId,
          status === 'AVAILABLE' ? { available: true, total: record.amount('totalPrice'), currency } : { available: false },
        );
      }
      return batch.quotes();
    },
    async *contentPages(options = {}) {
      const pageSize = options.pageSize ?? defaults.feedPageSize;
      for (let page = 1; ; page++) {
        const url = supplierUrl(config.baseUrl, '/content/properties', { page, pageSize });
        const body = FeedRecord.of(id, `page ${page}`, await fetchJson(url, { supplier: id, signal: options.signal }));
        const totalPages = body.integer('totalPages');
        const listings = body.decodeEach('properties', decode, options.onSkipped);
        if (listings.length > 0) yield listings;
        // An empty page also ends the feed: a wrong totalPages must not loop forever.
        if (page >= totalPages || listings.length === 0) return;
      }
    },
  };
}
