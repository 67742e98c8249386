import { defaults } from '../defaults.ts';
import { STAY_TYPES, type Listing } from '../types.ts';
import { FeedRecord, roundRating } from './feed-record.ts';
import { fetchJson, supplierUrl } from './fetch-json.ts';
import type { Supplier, SupplierConfig } from './supplier.ts';

/**
 * supplier_b: cursor pages, snake_case, prefixed string ids ("HB0012345", kept as written).
 * `kind_id` indexes STAY_TYPES; `review_score` is on 0-5.
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

  return {
    id,
    async *contentPages(options = {}) {
      const limit = options.pageSize ?? defaults.feedPageSize;
      let cursor: string | null = null;
      for (let page = 1; ; page++) {
        const url = supplierUrl(config.baseUrl, '/v2/hotels', cursor === null ? { limit } : { limit, cursor });
        const body = FeedRecord.of(id, `page ${page}`, await fetchJson(url, { supplier: id, signal: options.signal }));
        const listings = body.records('hotels').map(decode);
        const next = body.nullableString('next_cursor');
        if (listings.length > 0) yield listings;
        // A cursor that does not move would loop forever; treat it as the end of a broken feed.
        if (next === null || next === cursor || listings.length === 0) return;
        cursor = next;
      }
    },
  };
}
