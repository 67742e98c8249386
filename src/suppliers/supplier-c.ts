import { defaults } from '../defaults.ts';
import type { Listing } from '../types.ts';
import { FeedRecord, roundRating } from './feed-record.ts';
import { fetchJson, supplierUrl } from './fetch-json.ts';
import type { Supplier, SupplierConfig } from './supplier.ts';

/**
 * supplier_c: offset/limit, compact records, numeric ids in the same range as supplier_a's.
 * `location` is [lng, lat] (GeoJSON order); `type_code` writes `_` as `-`; `rating.pct` is 0-100;
 * `flags` lists the policies that are true.
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
