import { defaults } from '../defaults.ts';
import type { Listing } from '../types.ts';
import { FeedRecord, roundRating } from './feed-record.ts';
import { fetchJson, supplierUrl } from './fetch-json.ts';
import type { Supplier, SupplierConfig } from './supplier.ts';

/**
 * supplier_a: numbered pages, camelCase, numeric ids (see sim/README.md for the wire format).
 * `propertyType.code` is the StayType in upper case.
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

  return {
    id,
    async *contentPages(options = {}) {
      const pageSize = options.pageSize ?? defaults.feedPageSize;
      for (let page = 1; ; page++) {
        const url = supplierUrl(config.baseUrl, '/content/properties', { page, pageSize });
        const body = FeedRecord.of(id, `page ${page}`, await fetchJson(url, { supplier: id, signal: options.signal }));
        const totalPages = body.integer('totalPages');
        const listings = body.records('properties').map(decode);
        if (listings.length > 0) yield listings;
        // An empty page also ends the feed: a wrong totalPages must not loop forever.
        if (page >= totalPages || listings.length === 0) return;
      }
    },
  };
}
