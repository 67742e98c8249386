import { defaults } from '../defaults.ts';
import type { Listing } from '../types.ts';
import { FeedRecord, roundRating } from './feed-record.ts';
import { parse } from 'csv-parse/sync';
import { fetchJson, fetchText, supplierUrl } from './fetch-json.ts';
import { createQuoteBatch, isNumericId } from './quote-batch.ts';
import { isCalendarDate, readCountry } from './commission-fields.ts';
import { SupplierError } from './supplier-error.ts';
import type { BookingStatus, CommissionRecord, Supplier, SupplierConfig } from './supplier.ts';

/** The columns of supplier_c's CSV commission report (its header row), in order. */
const REPORT_COLUMNS = [
  'booking_no',
  'click',
  'aff',
  'hotel_id',
  'hotel',
  'city',
  'country',
  'booked',
  'arrive',
  'depart',
  'rooms',
  'guest_country',
  'state',
  'commission_usd_cents',
  'modified',
];
/** supplier_c's one-letter states: P(ending), A(pproved), X (canceled, no-shows included). */
const REPORT_STATE: Record<string, BookingStatus> = { P: 'Pending', A: 'Approved', X: 'Canceled' };
const DMY = /^(\d{2})\/(\d{2})\/(\d{4})$/;
const DMY_TIME = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}):(\d{2}):(\d{2})$/;

/** "01/03/2026" -> "2026-03-01" (null when not a real date). */
function dmyDate(text: string): string | null {
  const m = DMY.exec(text);
  if (m === null) return null;
  const iso = `${m[3]}-${m[2]}-${m[1]}`;
  return isCalendarDate(iso) ? iso : null;
}

/** "01/03/2026 10:12:00" (UTC) -> ISO 8601 UTC (null when not a real time). */
function dmyTime(text: string): string | null {
  const m = DMY_TIME.exec(text);
  if (m === null) return null;
  const ms = Date.UTC(+m[3], +m[2] - 1, +m[1], +m[4], +m[5], +m[6]);
  const iso = new Date(ms).toISOString();
  return iso.slice(0, 19) === `${m[3]}-${m[2]}-${m[1]}T${m[4]}:${m[5]}:${m[6]}` ? iso : null;
}

/** A "YYYY-MM-DD HH:MM:SS" UTC period bound, as supplier_c's `from` and `to` want it. */
function sqlTime(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

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
    if (
      location.length !== 2 ||
      typeof lng !== 'number' ||
      typeof lat !== 'number' ||
      !(lat >= -90 && lat <= 90) ||
      !(lng >= -180 && lng <= 180)
    ) {
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

  /** One CSV row (every value a string), checked and normalised like a JSON record. */
  function decodeRow(row: FeedRecord): CommissionRecord {
    const text = (key: string, parse: (raw: string) => string | null, expected: string): string =>
      parse(row.string(key)) ?? row.fail(key, expected);
    const count = (raw: string): string | null => (/^\d{1,9}$/.test(raw) && Number(raw) >= 1 ? raw : null);
    const cents = (raw: string): string | null => (/^\d{1,12}$/.test(raw) ? raw : null);
    const state = row.string('state');
    const clickId = row.string('click');
    return {
      bookingId: text('booking_no', (raw) => (raw === '' ? null : raw), 'a booking number'),
      clickId: clickId === '' ? null : clickId,
      supplierStayId: row.string('hotel_id'),
      bookedAt: text('booked', dmyTime, 'a time written DD/MM/YYYY HH:MM:SS'),
      checkin: text('arrive', dmyDate, 'a date written DD/MM/YYYY'),
      checkout: text('depart', dmyDate, 'a date written DD/MM/YYYY'),
      rooms: Number(text('rooms', count, 'a positive integer')),
      status: REPORT_STATE[state] ?? row.fail('state', 'one of P, A, X'),
      commissionUsdCents: Number(text('commission_usd_cents', cents, 'whole US cents')),
      propertyName: row.string('hotel'),
      destination: `${row.string('city')}, ${row.string('country')}`,
      guestCountry: readCountry(row, 'guest_country'),
      updatedAt: text('modified', dmyTime, 'a time written DD/MM/YYYY HH:MM:SS'),
    };
  }

  /** The rows of one CSV page; a body that is not the report's CSV is a `malformed` SupplierError. */
  function parseReport(text: string, page: number): FeedRecord[] {
    let rows: string[][];
    try {
      rows = parse(text, { delimiter: ';', bom: true, skip_empty_lines: true }) as string[][];
    } catch (error) {
      throw new SupplierError(id, 'malformed', `report page ${page} is not valid CSV: ${(error as Error).message}`, { cause: error });
    }
    const [header, ...data] = rows;
    if (header === undefined || header.join(';') !== REPORT_COLUMNS.join(';')) {
      throw new SupplierError(
        id,
        'malformed',
        `report page ${page}: expected the header ${REPORT_COLUMNS.join(';')}, got ${JSON.stringify((header ?? []).join(';').slice(0, 120))}`,
      );
    }
    return data.map((cells, i) =>
      FeedRecord.of(id, `report page ${page}.row[${i + 1}]`, Object.fromEntries(REPORT_COLUMNS.map((name, c) => [name, cells[c]]))),
    );
  }

  return {
    id,
    async *commissionReport(request) {
      // CSV pages by offset/limit (at most 5000), the total in X-Total-Count; UTC period bounds.
      const limit = Math.max(1, Math.min(5_000, request.pageSize ?? defaults.reportFeedPageSize));
      for (let page = 1, offset = 0; ; page++) {
        const url = supplierUrl(config.baseUrl, '/feed/commissions.csv', {
          from: sqlTime(request.from),
          to: sqlTime(request.to),
          offset,
          limit,
        });
        const { text, headers } = await fetchText(url, { supplier: id, signal: request.signal, accept: 'text/csv' });
        const records = parseReport(text, page).map(decodeRow);
        const totalHeader = headers.get('x-total-count');
        const total = totalHeader !== null && /^\d+$/.test(totalHeader) ? Number(totalHeader) : NaN;
        if (records.length > 0) yield records;
        offset += records.length;
        // Without a usable total, a short page is the last.
        if (records.length === 0 || (Number.isSafeInteger(total) ? offset >= total : records.length < limit)) return;
      }
    },
    maxIdsPerQuote: MAX_IDS_PER_QUOTE,
    async quote(request, signal) {
      const batch = createQuoteBatch(request, { supplier: id, maxIds: MAX_IDS_PER_QUOTE, validId: isNumericId });
      if (batch.ids.length === 0) return batch.quotes();
      // `children` lists ages; without ages `childCount` lets supplier_c apply its own default age.
      const pax =
        request.childrenAges === null && request.children > 0
          ? { adults: request.adults, childCount: request.children }
          : { adults: request.adults, children: request.childrenAges ?? [] };
      const body = { ids: batch.ids.map(Number), from: request.checkin, to: request.checkout, pax, units: request.rooms };
      const url = supplierUrl(config.baseUrl, '/feed/quote', {});
      const answer = FeedRecord.of(
        id,
        'quote answer',
        await fetchJson(url, { supplier: id, signal, timeoutMs: null, method: 'POST', body }),
      );
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
        const listings = body.decodeEach('items', decode, options.onSkipped);
        if (listings.length > 0) yield listings;
        offset += listings.length;
        if (offset >= total || listings.length === 0) return;
      }
    },
  };
}
